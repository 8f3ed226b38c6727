import { randomBytes } from 'node:crypto';
import type { Queryable } from '../storage/db';

interface Column {
  column_name: string;
  data_type: string;
}

/**
 * Insert one row into `table` for `companyId`, filling every NOT NULL column without a default with a
 * plain value of its type (text 'sec-…', numbers 1, dates, '{}' JSON), plus `values`. Used to give the
 * "other company" one record of every table behind an endpoint of the contract, without knowing each
 * entity's input shape; the storage layer's own constraints still apply.
 */
export async function insertMinimal(
  db: Queryable,
  table: string,
  values: Record<string, unknown>,
): Promise<{ id: number; uuid: string }> {
  const cols = await db.query<Column>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_nullable = 'NO' AND column_default IS NULL
       AND is_identity = 'NO' AND is_generated = 'NEVER'`,
    [table],
  );
  const row: Record<string, unknown> = {};
  for (const c of cols) {
    if (c.column_name in values) continue;
    const t = c.data_type;
    if (/char|text/.test(t)) row[c.column_name] = `sec-${randomBytes(4).toString('hex')}`;
    else if (/int|numeric|real|double/.test(t)) row[c.column_name] = 1;
    else if (t === 'boolean') row[c.column_name] = false;
    else if (t === 'date') row[c.column_name] = '2026-01-01';
    else if (t.startsWith('timestamp')) row[c.column_name] = '2026-11-01T00:00:00Z';
    else if (t.startsWith('time')) row[c.column_name] = '08:00';
    else if (t === 'jsonb' || t === 'json') row[c.column_name] = '{}';
    else if (t === 'ARRAY') row[c.column_name] = '{}';
    else throw new Error(`insertMinimal: no default for ${table}.${c.column_name} (${t})`);
  }
  Object.assign(row, values);
  const names = Object.keys(row);
  const [r] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id, uuid`,
    names.map((n) => row[n]),
  );
  return r!;
}

export type Body = Record<string, unknown>;

/** Valid create bodies of the managed entities, given records they may refer to. */
export const CREATE: Record<string, (n: number, d: Record<string, string>) => Body> = {
  drivers: (n) => ({ first_name: 'Fuzz', last_name: `D${n}` }),
  devices: (n) => ({ imei: `35111100000${String(n).padStart(4, '0')}`, type: 'teltonika' }),
  vehicles: (n) => ({ license_plate_number: `FZ ${n}`, type: 'car' }),
  geofences: (n) => ({
    name: `FG${n}`,
    geometry: { shape: 'circle', center: { latitude: 25, longitude: 55 }, radius: 100 },
  }),
  guardians: (n) => ({ first_name: 'G', last_name: `${n}`, phone: '+971500000001', relationship: 'father' }),
  passengers: (n, d) => ({ first_name: 'P', last_name: `${n}`, school_uuid: d.school }),
  supervisors: (n) => ({ first_name: 'S', last_name: `${n}` }),
  trips: (n) => ({ name: `T${n}`, start_at: '2026-11-20T06:00:00Z' }),
  scheduledTrips: (n) => ({
    name: `ST${n}`,
    type: 'one_way',
    departure_time: '06:00:00',
    start_date: '2026-09-01',
  }),
  tripsApp: (_n, d) => ({ driver_uuid: d.drivers, vehicle_uuid: d.vehicles }),
  schools: (n) => ({ name: `Sch${n}`, type: 'public', education_level: 'primary' }),
  branches: (n) => ({ name: `Br${n}` }),
  stations: (n) => ({ name: `St${n}` }),
  users: (n) => ({ name: `U${n}`, email: `fuzz${n}@fleet.test`, user_type: 'admin' }),
  notificationRules: (n) => ({ name: `R${n}`, type: 'overspeed', speed_limit: 120 }),
};

/** Other write bodies that pass their schema (the first one that parses is used). */
export const OTHER_BODIES: Body[] = [
  { expires_in_minutes: 60 },
  { type: 'get_status' },
  { report: 'trips', format: 'csv', from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' },
  { token: 'fuzz-token-1', platform: 'android', device_id: 'android-1-abcdefghi' },
  { token: 'fuzz-token-1' },
  { status: 'inactive' },
  { status: 'cancelled' },
];
