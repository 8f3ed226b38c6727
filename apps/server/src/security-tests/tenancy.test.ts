import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '@fleet/api-client';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { entityDefs } from '../entities/definitions';
import { insertMinimal } from './fixtures';

/**
 * Attackers' view of tenancy: a signed-in admin of company A takes company B's real uuids and tries
 * them on EVERY endpoint of the contract that takes a record uuid (read, update, delete, status,
 * details, and the extra ones: commands, share, notifications read, events). Each answer must be 403
 * or 404 (never 2xx, never 500), B's uuid must not come back in any answer, and B's row must be
 * byte-for-byte unchanged afterwards. The endpoint list is read from @fleet/api-client's table, so
 * an endpoint added later is attacked without a new test.
 */
let h: Harness;
let w: World;
/** table name -> B's record */
const bRows = new Map<string, { id: number; uuid: string }>();

beforeAll(async () => {
  h = await createHarness('security_tenancy');
  w = await buildWorld(h.storage.db);
  const db = h.storage.db;
  const b = w.b;
  const known: Record<string, { id: number; uuid: string }> = {
    sub_companies: b.stations[0]!,
    branches: b.branches[0]!,
    schools: b.schools[0]!,
  };
  for (const [t, r] of Object.entries(known)) bRows.set(t, r);
  const add = async (table: string, values: Record<string, unknown>) => {
    const r = await insertMinimal(db, table, { company_id: b.id, ...values });
    bRows.set(table, r);
    return r;
  };
  await add('devices', { imei: '356307049990001', type: 'teltonika' });
  const driver = await add('drivers', {});
  const vehicle = await add('vehicles', { device_imei: '356307049990001', driver_id: driver.id });
  await add('guardians', {});
  await add('passengers', { school_id: b.schools[0]!.id });
  await add('supervisors', {});
  const geofence = await add('geofences', {});
  await add('trips', {});
  await add('scheduled_trips', {});
  await add('trips_app', {});
  await add('notification_rules', {});
  await add('notifications', { user_id: w.users.adminB.id, vehicle_id: vehicle.id });
  await add('geofence_events', { vehicle_id: vehicle.id, geofence_id: geofence.id });
  await add('salik_events', { vehicle_id: vehicle.id });
  const [device] = await db.query<{ id: number }>('SELECT id FROM devices WHERE company_id = $1', [b.id]);
  await add('device_trips', { vehicle_id: vehicle.id, device_id: device!.id });
  await add('message_outbox', { channel: 'email' });
  bRows.set('users', { id: w.users.adminB.id, uuid: w.users.adminB.uuid });
}, 120_000);
afterAll(() => h.close());

/** Which table's B record to use for an endpoint's :uuid (undefined = not company data). */
function tableFor(name: EndpointName): string | undefined {
  if (name === 'devices.unknownDismiss') return undefined;
  const group = name.split('.')[0]!;
  if (group === 'users') return 'users';
  const def = entityDefs.find((d) => d.name === group);
  if (def) return def.table;
  const extra: Record<string, string> = {
    'vehicles.share': 'vehicles',
    'devices.commandSend': 'devices',
    'devices.commandList': 'devices',
    'geofenceEvents.show': 'geofence_events',
    'salikEvents.show': 'salik_events',
    'deviceTrips.show': 'device_trips',
    'notifications.show': 'notifications',
    'notifications.read': 'notifications',
    'messages.show': 'message_outbox',
  };
  return extra[name];
}

/**
 * A body that passes the endpoint's own validation, so that the scope check (not a 422) decides:
 * for an update, the record as B's admin reads it; for a status change, the first valid status; for
 * other writes, the first candidate the endpoint's schema accepts.
 */
async function plausibleBody(name: EndpointName, uuid: string): Promise<unknown> {
  const ep = endpoints[name] as {
    method: string;
    path: string;
    body?: { safeParse(v: unknown): { success: boolean } };
  };
  if (ep.method === 'GET' || ep.method === 'DELETE' || !ep.body) return undefined;
  const candidates: unknown[] = [];
  if (name.endsWith('.update')) {
    const view = await call(h.app, {
      method: 'GET',
      url: ep.path.replace(':uuid', uuid),
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    if (view.statusCode === 200) candidates.push((view.json() as { data: unknown }).data);
  }
  for (const status of ['inactive', 'maintenance', 'cancelled', 'completed', 'active'])
    candidates.push({ status });
  candidates.push({ type: 'get_status', attributes: {} }, { type: 'get_status' }, {});
  return candidates.find((c) => ep.body!.safeParse(c).success) ?? candidates[0];
}

const provenByScope = new Set<string>();

const snapshot = async (table: string, id: number) =>
  JSON.stringify(await h.storage.db.query(`SELECT * FROM ${table} WHERE id = $1`, [id]));

const withUuid = (Object.keys(endpoints) as EndpointName[]).filter(
  (n) => endpoints[n].path.includes(':uuid') && endpoints[n].auth !== 'none',
);

describe("another company's uuids on every endpoint", () => {
  it('covers every uuid endpoint of the table with a real record of company B', () => {
    // Endpoints on data that is not owned by a company (global Salik gates, refused-IMEI list, report
    // exports and report schedules of the caller) are attacked with the same calls below, with a random
    // uuid (a schedule of another user is refused in reports/schedules.test.ts).
    const unmapped = withUuid.filter((n) => !tableFor(n));
    expect(unmapped.sort()).toEqual(
      withUuid
        .filter((n) => /^(salikGates|devices\.unknownDismiss|reports\.(exportShow|scheduleDelete))/.test(n))
        .sort(),
    );
    expect(withUuid.length).toBeGreaterThanOrEqual(4 * entityDefs.length);
  });

  it.each(withUuid)('%s refuses company B records to an admin of company A', async (name) => {
    const ep = endpoints[name];
    const table = tableFor(name);
    const target = table ? bRows.get(table) : { id: -1, uuid: crypto.randomUUID() };
    expect(target, `no company B record for ${table}`).toBeDefined();
    const before = table ? await snapshot(table, target!.id) : '';
    // A plausible body: B's own view of the record (so validation passes and the scope check decides).
    const body = await plausibleBody(name, target!.uuid);
    const url = ep.path.replace(':uuid', target!.uuid);
    const res = await call(h.app, {
      method: ep.method,
      url,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body,
    });
    // A body our fixture could not make schema-valid may be refused by validation first (422); the
    // scope is then still proven by the unchanged row and the foreign-header call below.
    const schema = (ep as { body?: { safeParse(v: unknown): { success: boolean } } }).body;
    const validBody = body === undefined || !schema || schema.safeParse(body).success;
    if (validBody) provenByScope.add(name);
    expect(
      validBody ? [403, 404] : [403, 404, 422],
      `${ep.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
    ).toContain(res.statusCode);
    expect(res.body).not.toContain(target!.uuid);
    if (table) expect(await snapshot(table, target!.id)).toBe(before);

    // The header of a company the user does not belong to is refused outright.
    const foreign = await call(h.app, {
      method: ep.method,
      url,
      token: w.users.adminA.token,
      company: w.b.uuid,
      body,
    });
    expect([403, 404], `${name} with X-Transport-Uuid of B`).toContain(foreign.statusCode);
    if (table) expect(await snapshot(table, target!.id)).toBe(before);
  });

  it('most uuid endpoints were refused by the scope check itself, with a valid body', () => {
    expect(provenByScope.size).toBeGreaterThanOrEqual(withUuid.length - 10);
  });

  it('lists of company A never contain a company B uuid', async () => {
    const lists = (Object.keys(endpoints) as EndpointName[]).filter(
      (n) =>
        endpoints[n].method === 'GET' && endpoints[n].auth === 'company' && !endpoints[n].path.includes(':'),
    );
    const bUuids = [...bRows.values()].map((r) => r.uuid);
    for (const name of lists) {
      const res = await call(h.app, {
        method: 'GET',
        url: endpoints[name].path,
        token: w.users.adminA.token,
        company: w.a.uuid,
      });
      expect(res.statusCode, `${name} -> ${res.body.slice(0, 200)}`).toBeLessThan(500);
      for (const u of bUuids) expect(res.body, `${name} leaks ${u}`).not.toContain(u);
    }
  });
});
