import type { PositionRecord } from '../common/types';
import type { GeofenceShape } from './geometry';
import { GeofenceGridIndex } from './grid-index';

/**
 * Geofence entry/exit tracking per vehicle.
 *
 * State per vehicle: the set of geofences it is inside and since when. Each accepted position is tested
 * against the spatial index; a fence newly containing the vehicle gives an entry, a fence it left gives an
 * exit carrying the dwell time. Events are emitted only for the tracking rules the fence has (entry
 * and/or exit); the state is kept either way so dwell times are right.
 *
 * Design decisions (the spec does not show geofence transitions):
 *  - The first position seen for a vehicle establishes its state without events (we cannot know whether
 *    it just entered). Entry events need a previous position outside.
 *  - Positions flagged `ignored` and positions older than the vehicle's last processed one are skipped:
 *    late data cannot re-order past transitions. The wiring feeds each device batch sorted by time.
 *  - A fence that is removed while a vehicle is inside closes silently (no exit event).
 */

export type TrackingRule = 'entry' | 'exit';

export interface Geofence {
  readonly id: string;
  readonly companyId?: string;
  readonly name?: string;
  readonly shape: GeofenceShape;
  /** Which transitions produce events; the spec's "tracking rules (entry or exit event)". */
  readonly tracking: readonly TrackingRule[];
}

export interface GeofenceEvent {
  readonly kind: 'entry' | 'exit';
  readonly geofenceId: string;
  readonly vehicleId: string;
  readonly deviceId: string;
  readonly time: number;
  readonly lat: number;
  readonly lon: number;
  /** Entry time of the visit (for exits). */
  readonly enteredAt?: number;
  /** Seconds inside, for exits. */
  readonly dwellS?: number;
}

export interface VehicleGeofenceState {
  readonly lastTime: number;
  /** geofence id -> entry time */
  readonly inside: Readonly<Record<string, number>>;
}

export class GeofenceTracker {
  private index: GeofenceGridIndex<Geofence>;
  private readonly states = new Map<string, VehicleGeofenceState>();

  constructor(geofences: readonly Geofence[]) {
    this.index = GeofenceTracker.build(geofences);
  }

  private static build(geofences: readonly Geofence[]): GeofenceGridIndex<Geofence> {
    return new GeofenceGridIndex(geofences.map((g) => ({ id: g.id, shape: g.shape, data: g })));
  }

  /** Replaces the geofence set (admin edits); vehicle states are kept. */
  setGeofences(geofences: readonly Geofence[]): void {
    this.index = GeofenceTracker.build(geofences);
  }

  /** Geofences containing a point (used by the API and by other engines). */
  fencesAt(lat: number, lon: number): Geofence[] {
    return this.index.query(lat, lon).map((f) => f.data);
  }

  /** Processes one position of a vehicle; returns the entry/exit events it causes. */
  update(vehicleId: string, r: PositionRecord): GeofenceEvent[] {
    if (r.ignored) return [];
    const prev = this.states.get(vehicleId);
    if (prev && r.time <= prev.lastTime) return [];
    const now = this.index.query(r.lat, r.lon);
    const inside: Record<string, number> = {};
    const events: GeofenceEvent[] = [];
    const base = { vehicleId, deviceId: r.deviceId, time: r.time, lat: r.lat, lon: r.lon };
    for (const f of now) {
      const since = prev?.inside[f.id];
      if (since !== undefined) {
        inside[f.id] = since;
      } else {
        inside[f.id] = r.time;
        if (prev && f.data.tracking.includes('entry'))
          events.push({ kind: 'entry', geofenceId: f.id, ...base });
      }
    }
    if (prev) {
      for (const [id, since] of Object.entries(prev.inside)) {
        if (id in inside) continue;
        const fence = this.lookup(id);
        if (fence?.tracking.includes('exit')) {
          events.push({
            kind: 'exit',
            geofenceId: id,
            ...base,
            enteredAt: since,
            dwellS: (r.time - since) / 1000,
          });
        }
      }
    }
    this.states.set(vehicleId, { lastTime: r.time, inside });
    return events;
  }

  private lookup(id: string): Geofence | undefined {
    return this.byId().get(id);
  }

  private byIdCache?: { index: GeofenceGridIndex<Geofence>; map: Map<string, Geofence> };

  private byId(): Map<string, Geofence> {
    if (!this.byIdCache || this.byIdCache.index !== this.index) {
      this.byIdCache = { index: this.index, map: new Map(this.index.all().map((f) => [f.id, f.data])) };
    }
    return this.byIdCache.map;
  }

  /** Serialisable per-vehicle state, for persisting across restarts. */
  /** One vehicle's state, for persisting. */
  stateOf(vehicleId: string): VehicleGeofenceState | undefined {
    return this.states.get(vehicleId);
  }

  /** Puts a vehicle's persisted state back (undefined: the vehicle starts afresh). */
  setState(vehicleId: string, state: VehicleGeofenceState | undefined): void {
    if (state) this.states.set(vehicleId, state);
    else this.states.delete(vehicleId);
  }

  snapshot(): Record<string, VehicleGeofenceState> {
    return Object.fromEntries(this.states);
  }

  restore(snapshot: Readonly<Record<string, VehicleGeofenceState>>): void {
    this.states.clear();
    for (const [k, v] of Object.entries(snapshot)) this.states.set(k, v);
  }
}
