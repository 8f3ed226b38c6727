import type { Queryable } from '../storage/db';
import type { Scope } from '../tenancy/context';
import { subjects, type Bus } from './bus';
import { localizedAlertText, type AlertLocale } from '../pipeline/alerts/messages';
import { websocketJoined, websocketSent } from '../metrics/metrics';

/** Event kinds of spec section 4 (plus pong, answered directly). */
export const realtimeEvents = [
  'device-location',
  'generic-device-location',
  'notification',
  'command-response',
  'device-command-response',
] as const;
export type RealtimeEvent = (typeof realtimeEvents)[number];

/**
 * What producers publish on `realtime.<companyUuid>`: the spec's {event, path, data} plus routing
 * keys. `vehicle_uuid` limits delivery to users whose scope covers that vehicle; `user_uuid` limits
 * it to one user (notifications). Neither = every user of the company.
 */
export interface RealtimeEnvelope {
  company_uuid: string;
  event: RealtimeEvent;
  path: string;
  data: unknown;
  vehicle_uuid?: string | null;
  user_uuid?: string | null;
}

/** Publish for WebSocket delivery (works on any node once the bus is NATS). */
export function publishRealtime(bus: Bus, envelope: RealtimeEnvelope): Promise<void> {
  return bus.publish(subjects.realtime(envelope.company_uuid), envelope);
}

export interface RealtimeSocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  readonly readyState: number;
}

export interface RealtimeClient {
  socket: RealtimeSocket;
  userId: number;
  userUuid: string;
  companyId: number;
  companyUuid: string;
  scope: Scope | null;
  /** Language of this connection (its `locale` query parameter, else the user's saved language). */
  locale?: AlertLocale;
}

interface VehicleScope {
  company_id: number;
  sub_company_id: number | null;
  branch_id: number | null;
  school_id: number | null;
  at: number;
}

const OPEN = 1;

/**
 * Holds this node's WebSocket clients and delivers bus envelopes to the ones allowed to see them.
 * Vehicle scopes are cached for a minute ({@link invalidateVehicle} after a vehicle moves scope).
 */
export class RealtimeHub {
  private readonly byCompany = new Map<string, Set<RealtimeClient>>();
  private readonly vehicles = new Map<string, VehicleScope | null>();
  /** Scope reads under way: the envelopes of a burst wait for one query instead of each sending its own. */
  private readonly loading = new Map<string, Promise<VehicleScope | null>>();
  private readonly off: () => void;
  delivered = 0;

  constructor(
    private readonly db: Queryable,
    bus: Bus,
    private readonly now: () => number = Date.now,
  ) {
    this.off = bus.subscribe<RealtimeEnvelope>('realtime.*', async (env) => {
      await this.deliver(env);
    });
  }

  add(client: RealtimeClient): () => void {
    let set = this.byCompany.get(client.companyUuid);
    if (!set) this.byCompany.set(client.companyUuid, (set = new Set()));
    set.add(client);
    const left = websocketJoined();
    return () => {
      left();
      set.delete(client);
      if (set.size === 0) this.byCompany.delete(client.companyUuid);
    };
  }

  get size(): number {
    let n = 0;
    for (const s of this.byCompany.values()) n += s.size;
    return n;
  }

  invalidateVehicle(uuid?: string): void {
    if (uuid) this.vehicles.delete(uuid);
    else this.vehicles.clear();
  }

  private async vehicleScope(uuid: string): Promise<VehicleScope | null> {
    const hit = this.vehicles.get(uuid);
    if (hit !== undefined && (hit === null || this.now() - hit.at < 60_000)) return hit;
    let loading = this.loading.get(uuid);
    if (!loading) {
      loading = this.db
        .query<Omit<VehicleScope, 'at'>>(
          'SELECT company_id, sub_company_id, branch_id, school_id FROM vehicles WHERE uuid = $1',
          [uuid],
        )
        .then((rows) => {
          const v = rows[0] ? { ...rows[0], at: this.now() } : null;
          this.vehicles.set(uuid, v);
          return v;
        })
        .finally(() => this.loading.delete(uuid));
      this.loading.set(uuid, loading);
    }
    return loading;
  }

  async deliver(env: RealtimeEnvelope): Promise<number> {
    const clients = this.byCompany.get(env.company_uuid);
    if (!clients || clients.size === 0) return 0;
    let vehicle: VehicleScope | null = null;
    if (env.vehicle_uuid) {
      vehicle = await this.vehicleScope(env.vehicle_uuid);
      if (!vehicle) return 0;
    }
    const text = JSON.stringify({ event: env.event, path: env.path, data: env.data });
    // An alert notification is worded per connection: the same event reads in Arabic on a socket opened
    // in Arabic and in English on one opened in English (texts made once per language).
    let worded: Map<AlertLocale, string> | undefined;
    const textFor = (locale: AlertLocale | undefined): string => {
      if (env.event !== 'notification' || !locale) return text;
      worded ??= new Map();
      const hit = worded.get(locale);
      if (hit !== undefined) return hit;
      const view = env.data as { data?: unknown } | null;
      const localized = view ? localizedAlertText(view.data, locale) : null;
      const out = localized
        ? JSON.stringify({ event: env.event, path: env.path, data: { ...view, ...localized } })
        : text;
      worded.set(locale, out);
      return out;
    };
    let n = 0;
    for (const c of clients) {
      if (c.socket.readyState !== OPEN) continue;
      if (env.user_uuid && c.userUuid !== env.user_uuid) continue;
      if (vehicle) {
        if (vehicle.company_id !== c.companyId) continue;
        if (c.scope && vehicle[c.scope.column] !== c.scope.id) continue;
      }
      try {
        c.socket.send(textFor(c.locale));
        n++;
      } catch {
        /* a dead socket is removed by its close handler */
      }
    }
    this.delivered += n;
    websocketSent(n);
    return n;
  }

  close(): void {
    this.off();
    for (const set of this.byCompany.values())
      for (const c of set) c.socket.close(1001, 'server shutting down');
    this.byCompany.clear();
  }
}
