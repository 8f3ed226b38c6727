import { fuelLitres, type CalibrationTable } from '@fleet/core';
import type { DecodedRecord, IoValue } from '@fleet/device-protocols';
import type { Queryable } from '../storage/db';

/**
 * Sensors per device (issue 19), resolved at ingest so everything downstream (trips, idling, engine
 * hours, fuel, live map) reads the normal fields: io 239 is the ignition, io 16 the odometer and io 84
 * the fuel in litres (0.1 L units, as the IO catalogue scales it) whatever the wiring.
 *
 * - Ignition: the configured IO id, else the device type's default ({@link DEFAULT_IGNITION}). The
 *   defaults follow the common installations: Teltonika's own ignition element 239; Ruptela's 409 when
 *   the record carries it (extended records), else DIN4 (parameter 5 -> io 4), the input installers
 *   wire ignition to; iStartek input 2 (io 239 as decoded); GoSafe/OsmAnd/MQTT as decoded.
 * - Odometer: the configured IO id's value (metres) is written to io 16.
 * - Fuel: the configured IO's raw value through the calibration table ({@link fuelLitres}) to io 84.
 *
 * A setting applies from its `effective_from` on: the row in force for a record is the newest one with
 * effective_from <= the record's fix time, so a change back-dated over stored data is recorded here and
 * the repair of the stored window is the pipeline repair job's (see ./sensor-settings.ts).
 */

export interface SensorSetting {
  effectiveFrom: Date;
  ignitionIo: number | null;
  odometerIo: number | null;
  fuelIo: number | null;
  fuelCalibration: CalibrationTable | null;
}

/** Default ignition source per device type: an ordered list, the first IO the record carries wins. */
export const DEFAULT_IGNITION: Record<string, readonly number[]> = {
  teltonika: [239],
  ruptela: [239, 4],
  gosafe: [239],
  istartek: [239],
  door_technologies: [239],
  osmand: [239],
  mqtt: [239],
};

function numeric(v: IoValue | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** The setting in force at `at` (settings newest first). */
export function settingAt(settings: readonly SensorSetting[], at: number): SensorSetting | undefined {
  for (const s of settings) if (s.effectiveFrom.getTime() <= at) return s;
  return undefined;
}

/** The record with ignition, odometer and fuel resolved from the device's sensors (a copy when changed). */
export function applySensors(
  record: DecodedRecord,
  deviceType: string,
  settings: readonly SensorSetting[],
): DecodedRecord {
  const s = settingAt(settings, record.fixTime);
  const io = record.io;
  let out: Record<number, IoValue> | undefined;
  const set = (id: number, v: IoValue) => {
    out ??= { ...io };
    out[id] = v;
  };
  const sources = s?.ignitionIo != null ? [s.ignitionIo] : (DEFAULT_IGNITION[deviceType] ?? [239]);
  for (const id of sources) {
    const v = numeric(io[id]);
    if (v === undefined) continue;
    if (id !== 239 || s?.ignitionIo != null) set(239, v !== 0 ? 1 : 0);
    break;
  }
  if (s?.odometerIo != null && s.odometerIo !== 16) {
    const v = numeric(io[s.odometerIo]);
    if (v !== undefined) set(16, v);
  }
  if (s?.fuelIo != null && s.fuelCalibration) {
    const litres = fuelLitres(numeric(io[s.fuelIo]) ?? Number.NaN, s.fuelCalibration);
    if (litres !== null) set(84, Math.round(litres * 10));
  }
  return out ? { ...record, io: out } : record;
}

interface Row {
  effective_from: Date;
  ignition_io: number | null;
  odometer_io: number | null;
  fuel_io: number | null;
  fuel_calibration: [number, number][] | null;
}

const toSetting = (r: Row): SensorSetting => ({
  effectiveFrom: r.effective_from,
  ignitionIo: r.ignition_io,
  odometerIo: r.odometer_io,
  fuelIo: r.fuel_io,
  fuelCalibration: r.fuel_calibration,
});

export async function loadSensorSettings(db: Queryable, deviceId: number): Promise<SensorSetting[]> {
  const rows = await db.query<Row>(
    `SELECT effective_from, ignition_io, odometer_io, fuel_io, fuel_calibration FROM device_sensor_settings
     WHERE device_id = $1 ORDER BY effective_from DESC, id DESC LIMIT 50`,
    [deviceId],
  );
  return rows.map(toSetting);
}

/** The settings of many devices in one query (newest first, at most 50 each); absent ids have none. */
export async function loadSensorSettingsMany(
  db: Queryable,
  deviceIds: readonly number[],
): Promise<Map<number, SensorSetting[]>> {
  const rows = await db.query<Row & { device_id: number }>(
    `SELECT device_id::int AS device_id, effective_from, ignition_io, odometer_io, fuel_io, fuel_calibration
     FROM (SELECT s.*, row_number() OVER (PARTITION BY device_id ORDER BY effective_from DESC, id DESC) AS k
           FROM device_sensor_settings s WHERE device_id = ANY($1::bigint[])) x
     WHERE k <= 50 ORDER BY device_id, effective_from DESC, id DESC`,
    [deviceIds],
  );
  const out = new Map<number, SensorSetting[]>(deviceIds.map((id) => [id, []]));
  for (const r of rows) out.get(r.device_id)?.push(toSetting(r));
  return out;
}

/** How long a gateway node may go on with a device's previous settings (its cache lifetime). */
export const SENSOR_SETTINGS_TTL_MS = 30_000;

/**
 * Per-device settings for the gateway, refreshed after `ttlMs` (a change reaches every node soon).
 *
 * Loaded in batches: the devices asked for in one turn of the event loop are read with one query, and
 * every cached device past half its lifetime rides along, so a fleet's refreshes come as a few queries
 * per lifetime instead of one per device (1,000 devices: 33 queries a second before).
 */
export class SensorSettingsCache {
  private readonly cache = new Map<number, { at: number; settings: SensorSetting[] }>();
  private batch: Map<
    number,
    { resolve: (s: SensorSetting[]) => void; reject: (e: unknown) => void }[]
  > | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = SENSOR_SETTINGS_TTL_MS,
  ) {}

  get(deviceId: number): Promise<SensorSetting[]> {
    const hit = this.cache.get(deviceId);
    if (hit && Date.now() - hit.at < this.ttlMs) return Promise.resolve(hit.settings);
    return new Promise((resolve, reject) => {
      if (!this.batch) {
        this.batch = new Map();
        setImmediate(() => void this.load());
      }
      const waiting = this.batch.get(deviceId) ?? [];
      waiting.push({ resolve, reject });
      this.batch.set(deviceId, waiting);
    });
  }

  private async load(): Promise<void> {
    const batch = this.batch!;
    this.batch = null;
    const ids = new Set(batch.keys());
    const now = Date.now();
    for (const [id, e] of this.cache) if (now - e.at >= this.ttlMs / 2) ids.add(id);
    try {
      const got = await loadSensorSettingsMany(this.db, [...ids]);
      for (const [id, settings] of got) this.cache.set(id, { at: now, settings });
      for (const [id, waiting] of batch) for (const w of waiting) w.resolve(got.get(id) ?? []);
    } catch (err) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
    }
  }

  invalidate(deviceId?: number): void {
    if (deviceId === undefined) this.cache.clear();
    else this.cache.delete(deviceId);
  }
}
