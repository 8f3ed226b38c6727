import { vehicleSchema } from '@fleet/api-client';
import { liveStatusSql } from '../../modules/locations';
import { assignedError, invalidRef, type EntityDef, type WriteContext } from '../entity-def';
import { scopeSql } from '../scope';
import { ruleDependent } from './notification-rules';

/** Vehicles link devices by IMEI: the device must be visible to the tenant and on no other vehicle. */
async function vehicleDevices(input: Record<string, unknown>, ctx: WriteContext) {
  const out: Record<string, unknown> = {};
  const pairs: [string, string][] = [
    ['device_imei', 'Device IMEI'],
    ['gps_device_imei', 'GPS device IMEI'],
  ];
  if (input.device_imei && input.device_imei === input.gps_device_imei)
    throw assignedError('gps_device_imei', 'device');
  for (const [field, label] of pairs) {
    const imei = input[field];
    if (imei === undefined) continue;
    if (imei === null) {
      out[field] = null;
      continue;
    }
    const params: unknown[] = [imei];
    const rows = await ctx.tx.query<{ imei: string }>(
      `SELECT r.imei FROM devices r WHERE r.imei = $1 AND ${scopeSql('devices', 'r', ctx.tenant, params)}`,
      params,
    );
    if (!rows[0]) throw invalidRef(field, label);
    // Serialises two requests putting the same device on vehicles at once (the unique indexes are per
    // column, so device_imei on one vehicle and gps_device_imei on another would both pass them).
    await ctx.tx.query('SELECT 1 FROM devices WHERE imei = $1 FOR NO KEY UPDATE', [imei]);
    const taken = await ctx.tx.query(
      `SELECT 1 FROM vehicles WHERE (device_imei = $1 OR gps_device_imei = $1) AND id <> $2 LIMIT 1`,
      [imei, ctx.id ?? -1],
    );
    if (taken.length) throw assignedError(field, 'device');
    out[field] = imei;
  }
  return out;
}

/**
 * The latest stored fix of a vehicle's trackers (main and GPS device), as the live list reads it: the
 * row for the live-status rule, and its time for the list's last-seen sort and filter.
 */
const VEHICLE_LATEST_FIX = `SELECT ll.fix_time, ll.is_idle, ll.ignition FROM latest_locations ll
  JOIN devices d ON d.id = ll.device_id WHERE d.imei IN (e.device_imei, e.gps_device_imei)
  ORDER BY ll.fix_time DESC LIMIT 1`;
const VEHICLE_LAST_FIX = `SELECT max(ll.fix_time) FROM latest_locations ll
  JOIN devices d ON d.id = ll.device_id WHERE d.imei IN (e.device_imei, e.gps_device_imei)`;

export const vehicleEntity: EntityDef = {
  name: 'vehicles',
  table: 'vehicles',
  label: 'vehicle',
  permission: 'vehicles',
  item: vehicleSchema,
  columns: ['license_plate_number', 'type', 'make', 'model', 'device_imei', 'gps_device_imei'],
  refs: {
    branch_uuid: { table: 'branches', column: 'branch_id', label: 'Branch' },
    station_uuid: { table: 'sub_companies', column: 'sub_company_id', label: 'Station' },
    school_uuid: { table: 'schools', column: 'school_id', label: 'School' },
    driver_uuid: { table: 'drivers', column: 'driver_id', label: 'Driver', exclusive: 'driver' },
  },
  search: ['e.license_plate_number', 'e.make', 'e.model', 'e.device_imei', "e.data->>'chassis_number'"],
  // The contract's vehicleSortColumns: every one of them has an expression here.
  sort: {
    license_plate_number: 'e.license_plate_number',
    type: 'e.type',
    make: 'e.make',
    model: 'e.model',
    device_imei: 'e.device_imei',
    status: 'e.status',
    last_seen: `(${VEHICLE_LAST_FIX})`,
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  filters: {
    live_status: `coalesce((SELECT ${liveStatusSql('l', 'now()')} FROM (${VEHICLE_LATEST_FIX}) l), 'no-data') = $?`,
    last_seen: `(CASE WHEN (${VEHICLE_LAST_FIX}) IS NULL THEN 'never'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '1 hour' THEN 'hour'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '24 hours' THEN 'day'
        WHEN (${VEHICLE_LAST_FIX}) > now() - interval '7 days' THEN 'week'
        ELSE 'older' END) = $?`,
  },
  defaultSort: 'created_at',
  dependents: [
    { sql: 'SELECT 1 FROM scheduled_trips WHERE vehicle_id = $1 LIMIT 1', label: 'scheduled trips' },
    { sql: 'SELECT 1 FROM trips WHERE vehicle_id = $1 LIMIT 1', label: 'trips' },
    { sql: 'SELECT 1 FROM trips_app WHERE vehicle_id = $1 LIMIT 1', label: 'trips app records' },
    { sql: 'SELECT 1 FROM supervisors WHERE vehicle_id = $1 LIMIT 1', label: 'supervisors' },
    ruleDependent('vehicles', 'vehicle_uuids'),
  ],
  prepare: (input, ctx) => vehicleDevices(input, ctx),
  onChange: (app, row) => {
    app.ctx.hub?.invalidateVehicle(row.uuid);
    app.ctx.storage.invalidateDevices();
  },
};
