import type { ExpiringDocument } from '../alerts/engine';
import type { PositionRecord } from '../common/types';
import type { GeofenceEvent } from '../geofence/tracker';
import type { DayRollups } from '../rollups/rollups';
import type { SalikCrossing } from '../salik/detector';
import type { ScheduledTripDef, TripInstance } from '../scheduled/instances';
import type { TripDetection } from '../trips/trips';
import type {
  CompanySetup,
  NotificationInput,
  NotificationOut,
  PipelineStore,
  Recipient,
  StoredTripInstance,
} from './ports';

/**
 * In-memory PipelineStore: the reference implementation of the port (used by the pipeline's tests and
 * usable for demos). It holds exactly what the SQL adapter stores.
 */
export class MemoryPipelineStore implements PipelineStore {
  readonly setups = new Map<string, CompanySetup>();
  readonly locations = new Map<string, PositionRecord[]>();
  readonly deviceDays = new Map<string, TripDetection>();
  readonly rollups = new Map<string, DayRollups>();
  readonly geofenceEvents: GeofenceEvent[] = [];
  readonly salikEvents: SalikCrossing[] = [];
  readonly notifications: (NotificationOut & { userUuid: string; dedupeKey: string })[] = [];
  readonly users = new Map<string, Recipient[]>();
  readonly guardians = new Map<string, Recipient[]>();
  readonly documents = new Map<string, ExpiringDocument[]>();
  readonly trips = new Map<string, ScheduledTripDef[]>();
  readonly instances = new Map<string, TripInstance>();
  readonly instanceRevs = new Map<string, number>();
  private seq = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** What the storage module's insertLocations does, for tests: keeps records per device. */
  addLocations(deviceUuid: string, records: readonly PositionRecord[]): void {
    const list = this.locations.get(deviceUuid) ?? [];
    list.push(...records);
    this.locations.set(deviceUuid, list);
  }

  async companySetup(companyUuid: string): Promise<CompanySetup> {
    const s = this.setups.get(companyUuid);
    if (!s) throw new Error(`Unknown company ${companyUuid}`);
    return s;
  }

  async readLocations(deviceUuid: string, from: number, to: number): Promise<PositionRecord[]> {
    return (this.locations.get(deviceUuid) ?? []).filter((r) => r.time >= from && r.time < to);
  }

  async replaceDeviceDay(ref: { deviceUuid: string }, date: string, detection: TripDetection): Promise<void> {
    this.deviceDays.set(`${ref.deviceUuid}|${date}`, detection);
  }

  async replaceRollups(ref: { vehicleUuid: string }, day: DayRollups): Promise<void> {
    this.rollups.set(`${ref.vehicleUuid}|${day.daily.date}`, day);
  }

  async violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    for (const v of vehicleUuids) {
      const times = await this.violationTimes(v, from, to);
      if (times.length) out.set(v, times);
    }
    return out;
  }

  async writeResults(
    trips: readonly { ref: { deviceUuid: string }; date: string; detection: TripDetection }[],
    rollups: readonly { ref: { vehicleUuid: string }; day: DayRollups }[],
  ): Promise<void> {
    for (const t of trips) await this.replaceDeviceDay(t.ref, t.date, t.detection);
    for (const r of rollups) await this.replaceRollups(r.ref, r.day);
  }

  async violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]> {
    const kinds = new Set(['overspeed', 'violation_output', 'emergency_button']);
    const seen = new Set<string>();
    const out: number[] = [];
    for (const n of this.notifications) {
      const t = n.device_created_at ? Date.parse(n.device_created_at) : Number.NaN;
      if (!kinds.has(n.type) || (n.data?.vehicleUuid as string | undefined) !== vehicleUuid) continue;
      if (t < from || t >= to || seen.has(n.dedupeKey)) continue;
      seen.add(n.dedupeKey);
      out.push(t);
    }
    return out;
  }

  async insertGeofenceEvents(_c: string, events: readonly GeofenceEvent[]): Promise<number> {
    const same = (a: GeofenceEvent, b: GeofenceEvent) =>
      a.vehicleId === b.vehicleId && a.geofenceId === b.geofenceId && a.time === b.time && a.kind === b.kind;
    let inserted = 0;
    for (const e of events) {
      if (this.geofenceEvents.some((x) => same(x, e))) continue;
      this.geofenceEvents.push(e);
      inserted++;
    }
    return inserted;
  }

  async insertSalikEvents(_c: string, crossings: readonly SalikCrossing[]): Promise<number> {
    let inserted = 0;
    for (const c of crossings) {
      if (this.salikEvents.some((x) => x.id === c.id)) continue;
      this.salikEvents.push(c);
      inserted++;
    }
    return inserted;
  }

  async recipients(companyUuid: string): Promise<Recipient[]> {
    return this.users.get(companyUuid) ?? [];
  }

  async guardianRecipients(_c: string, passengerIds: readonly string[]): Promise<Recipient[]> {
    const out = new Map<string, Recipient>();
    for (const p of passengerIds) for (const g of this.guardians.get(p) ?? []) out.set(g.userUuid, g);
    return [...out.values()];
  }

  async insertNotifications(
    rows: readonly NotificationInput[],
  ): Promise<(NotificationOut & { userUuid: string })[]> {
    const out: (NotificationOut & { userUuid: string; dedupeKey: string })[] = [];
    for (const row of rows) {
      const key = row.alert.dedupeKey;
      if (row.alert.update) {
        // An episode ended: the stored notification takes its text, peak and times (see sql/alerts.ts).
        const at = this.notifications.findIndex((x) => x.dedupeKey === key && x.userUuid === row.userUuid);
        const n = this.notifications[at];
        if (n) {
          this.notifications[at] = {
            ...n,
            message: row.message,
            violation_value: row.alert.violationValue,
            data: { ...n.data, ...(row.alert.data ?? {}) },
          };
        }
        continue;
      }
      if (this.notifications.some((n) => n.dedupeKey === key && n.userUuid === row.userUuid)) continue;
      const n = {
        uuid: `00000000-0000-4000-8000-${String(++this.seq).padStart(12, '0')}`,
        type: row.alert.type,
        title: row.title,
        message: row.message,
        created_at: new Date(this.clock()).toISOString(),
        device_created_at: row.alert.deviceCreatedAt,
        vehicle: null,
        violation_value: row.alert.violationValue,
        read: false,
        read_at: null,
        icon: null,
        data: {
          ...(row.alert.data ?? {}),
          ...(row.alert.vehicleId ? { vehicleUuid: row.alert.vehicleId } : {}),
          title_key: row.alert.titleKey,
          message_key: row.alert.messageKey,
          params: row.alert.params,
        },
        userUuid: row.userUuid,
        dedupeKey: key,
      };
      this.notifications.push(n);
      out.push(n);
    }
    return out.map(({ dedupeKey: _k, ...n }) => n);
  }

  async lastSeen(companyUuid: string): Promise<{ vehicleUuid: string; lastSeen: number | undefined }[]> {
    const setup = this.setups.get(companyUuid);
    return (setup?.vehicles ?? []).map((v) => {
      let last: number | undefined;
      for (const list of this.locations.values()) {
        for (const r of list)
          if (r.vehicleId === v.vehicleId && !r.ignored && (last === undefined || r.time > last))
            last = r.time;
      }
      return { vehicleUuid: v.vehicleId, lastSeen: last };
    });
  }

  async expiringDocuments(companyUuid: string): Promise<ExpiringDocument[]> {
    return this.documents.get(companyUuid) ?? [];
  }

  async scheduledTrips(companyUuid: string): Promise<ScheduledTripDef[]> {
    return this.trips.get(companyUuid) ?? [];
  }

  async saveTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      this.instances.set(i.id, i);
      this.instanceRevs.set(i.id, (this.instanceRevs.get(i.id) ?? -1) + 1);
    }
  }

  async createTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      if (this.instances.has(i.id)) continue;
      this.instances.set(i.id, i);
      this.instanceRevs.set(i.id, 0);
    }
  }

  private stored(i: TripInstance): StoredTripInstance {
    return { instance: i, rev: this.instanceRevs.get(i.id) ?? 0 };
  }

  async tripInstancesSince(companyUuid: string, sinceMs: number): Promise<StoredTripInstance[]> {
    return [...this.instances.values()]
      .filter((i) => i.companyId === companyUuid && i.plannedStart >= sinceMs)
      .map((i) => this.stored(i));
  }

  async openVehicleTripInstances(vehicleUuid: string): Promise<StoredTripInstance[]> {
    return [...this.instances.values()]
      .filter((i) => i.vehicleId === vehicleUuid && OPEN_STATUSES.includes(i.status))
      .map((i) => this.stored(i));
  }

  async openTripVehicles(companyUuid: string): Promise<string[]> {
    const out = new Set<string>();
    for (const i of this.instances.values())
      if (i.companyId === companyUuid && i.vehicleId && OPEN_STATUSES.includes(i.status))
        out.add(i.vehicleId);
    return [...out];
  }

  async updateTripInstance(instance: TripInstance, rev: number): Promise<boolean> {
    if ((this.instanceRevs.get(instance.id) ?? 0) !== rev) return false;
    this.instances.set(instance.id, instance);
    this.instanceRevs.set(instance.id, rev + 1);
    return true;
  }

  readonly deviceStates = new Map<string, { lastTime: number | null; state: string }>();

  async loadDeviceStates(deviceUuids: readonly string[]): Promise<Map<string, unknown>> {
    const out = new Map<string, unknown>();
    for (const d of deviceUuids) {
      const row = this.deviceStates.get(d);
      if (row) out.set(d, JSON.parse(row.state));
    }
    return out;
  }

  async saveDeviceStates(
    rows: readonly { deviceUuid: string; lastTime: number | null; state: unknown }[],
  ): Promise<void> {
    for (const r of rows) {
      const old = this.deviceStates.get(r.deviceUuid);
      if (old && (old.lastTime ?? -Infinity) > (r.lastTime ?? -Infinity)) continue;
      this.deviceStates.set(r.deviceUuid, { lastTime: r.lastTime, state: JSON.stringify(r.state) });
    }
  }

  async firedClockAlerts(companyUuid: string): Promise<string[]> {
    const prefix = `${companyUuid}:`;
    return [
      ...new Set(
        this.notifications
          .filter((n) => CLOCK_ALERT_TYPES.includes(n.type) && n.dedupeKey.startsWith(prefix))
          .map((n) => n.dedupeKey.slice(prefix.length)),
      ),
    ];
  }
}

const OPEN_STATUSES: readonly string[] = ['pending', 'delayed', 'started'];
const CLOCK_ALERT_TYPES: readonly string[] = ['device_offline', 'vehicle_inactive', 'document_expiry'];
