import type { Queryable } from '../storage/db';
import type { Scope } from '../tenancy/context';
import { realtimeFrameText, type RealtimeServerMessage } from '@fleet/api-client';
import { patterns, publishOn, subjects, subscribeOn, type Bus } from './bus';
import { localizedAlertText, type AlertLocale } from '../alerts/messages';
import { websocketJoined, websocketSent } from '../metrics/metrics';

/**
 * What producers publish on `realtime.<companyUuid>`: one message of the contract (api-client
 * realtime.ts, `data` typed by its event, so every publisher is checked at compile time) plus routing
 * keys. `vehicle_uuid` limits delivery to users whose scope covers that vehicle; `user_uuid` limits it
 * to one user (notifications). Neither = every user of the company.
 */
export type RealtimeEnvelope = RealtimeServerMessage & {
  company_uuid: string;
  vehicle_uuid?: string | null;
  user_uuid?: string | null;
};

/** Publish for WebSocket delivery (works on any node once the bus is NATS). */
export function publishRealtime(bus: Bus, envelope: RealtimeEnvelope): Promise<void> {
  return publishOn(bus, subjects.realtime(envelope.company_uuid), envelope);
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

export interface RealtimeHubOptions {
  /**
   * How long a client's messages are gathered before they go out as one frame (issue 13: a burst of
   * updates travels as one WebSocket message carrying many vehicles). Default 20 ms; 0 sends each
   * message alone, at once.
   */
  batchMs?: number;
  /** A client's frame goes out at once when it holds this many messages (default 500). */
  maxBatch?: number;
}

/**
 * Holds this node's WebSocket clients and delivers bus envelopes to the ones allowed to see them.
 * Vehicle scopes are cached for a minute ({@link invalidateVehicle} after a vehicle moves scope).
 *
 * Batching (issue 13): a message for a client is queued, and every `batchMs` the queue of each client
 * goes out as one frame: a lone message as itself, several as a JSON array of messages in the order they
 * were published (api-client `realtimeFrameText`; the clients handle each member as if it had come alone,
 * and the portal applies a burst in one cache write). Messages are serialised once per envelope (once
 * per language for alert notifications) and the frame is their texts joined, never a second
 * serialisation. Up to `batchMs` of latency is the price; a closing hub sends what is queued first.
 */
export class RealtimeHub {
  private readonly byCompany = new Map<string, Set<RealtimeClient>>();
  private readonly vehicles = new Map<string, VehicleScope | null>();
  /** Scope reads under way: the envelopes of a burst wait for one query instead of each sending its own. */
  private readonly loading = new Map<string, Promise<VehicleScope | null>>();
  private readonly off: () => void;
  private readonly queued = new Map<RealtimeClient, string[]>();
  private timer: NodeJS.Timeout | null = null;
  private readonly batchMs: number;
  private readonly maxBatch: number;
  /** Messages handed to sockets (a batch counts each of its messages). */
  delivered = 0;
  /** WebSocket frames sent (a batch is one frame). */
  frames = 0;

  constructor(
    private readonly db: Queryable,
    bus: Bus,
    private readonly now: () => number = Date.now,
    options: RealtimeHubOptions = {},
  ) {
    this.batchMs = Math.max(0, options.batchMs ?? 20);
    this.maxBatch = Math.max(1, options.maxBatch ?? 500);
    this.off = subscribeOn(bus, patterns.realtime, async (env) => {
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
      this.queued.delete(client);
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

  /** Queues the envelope's message for every client allowed to see it; resolves with their number. */
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
      const view = env.data;
      const localized = localizedAlertText(view.data, locale);
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
      this.enqueue(c, textFor(c.locale));
      n++;
    }
    this.delivered += n;
    websocketSent(n);
    return n;
  }

  private enqueue(client: RealtimeClient, text: string): void {
    if (this.batchMs === 0) {
      this.send(client, [text]);
      return;
    }
    let queue = this.queued.get(client);
    if (!queue) this.queued.set(client, (queue = []));
    queue.push(text);
    if (queue.length >= this.maxBatch) {
      this.queued.delete(client);
      this.send(client, queue);
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
    this.timer.unref?.();
  }

  /** Sends every client's queued messages now (one frame per client). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const queued = [...this.queued];
    this.queued.clear();
    for (const [client, texts] of queued) this.send(client, texts);
  }

  private send(client: RealtimeClient, texts: string[]): void {
    if (texts.length === 0 || client.socket.readyState !== OPEN) return;
    try {
      client.socket.send(realtimeFrameText(texts));
      this.frames++;
    } catch {
      /* a dead socket is removed by its close handler */
    }
  }

  close(): void {
    this.off();
    this.flush();
    for (const set of this.byCompany.values())
      for (const c of set) c.socket.close(1001, 'server shutting down');
    this.byCompany.clear();
  }
}
