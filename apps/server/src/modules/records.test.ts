/**
 * Device-derived lists (device trips, geofence events, Salik events), the refused-IMEI list, the
 * activity log and notifications: the list query the contract offers (search, sort, order, from, to,
 * vehicle_uuid) is honoured, an unknown sort name is a 422 on `sort` (never silently ignored), and a
 * device trip has a details view scoped like the list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
const trips: string[] = [];

beforeAll(async () => {
  h = await createHarness('modules_records');
  w = await buildWorld(h.storage.db);
  const db = h.storage.db;
  const [dev] = await db.query<{ id: number }>(
    `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307040000011', 'teltonika') RETURNING id`,
    [w.a.id],
  );
  const vehicles: number[] = [];
  for (const plate of ['ALPHA 1', 'BRAVO 2']) {
    const [v] = await db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, license_plate_number, type) VALUES ($1, $2, 'bus') RETURNING id`,
      [w.a.id, plate],
    );
    vehicles.push(v!.id);
  }
  const [g] = await db.query<{ id: number }>(
    `INSERT INTO geofences (company_id, name, type, shape, geometry, min_lat, max_lat, min_lng, max_lng) VALUES ($1, 'School gate', 'school', 'circle', '{"shape":"circle","center":{"latitude":25,"longitude":55},"radius":50}', 24.9, 25.1, 54.9, 55.1) RETURNING id`,
    [w.a.id],
  );
  for (const [i, vid] of vehicles.entries()) {
    const [t] = await db.query<{ uuid: string }>(
      `INSERT INTO device_trips (company_id, vehicle_id, device_id, started_at, ended_at, distance_m, data)
       VALUES ($1, $2, $3, $4, $5, $6, '{"device_imei":"356307040000011","duration_seconds":600,"max_speed":80,"average_speed":40,"idle_seconds":0,"fuel_used_litres":null,"start_location":null,"end_location":null}') RETURNING uuid`,
      [w.a.id, vid, dev!.id, `2026-11-1${i}T06:00:00Z`, `2026-11-1${i}T06:10:00Z`, (i + 1) * 5000],
    );
    trips.push(t!.uuid);
    await db.query(
      `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        w.a.id,
        vid,
        g!.id,
        i === 0 ? 'entry' : 'exit',
        `2026-11-1${i}T06:05:00Z`,
        JSON.stringify({
          geofence_uuid: '00000000-0000-4000-8000-000000000001',
          geofence_name: 'School gate',
          latitude: 25,
          longitude: 55,
          speed: 10,
          dwell_seconds: null,
        }),
      ],
    );
    await db.query(
      `INSERT INTO salik_events (company_id, vehicle_id, gate, fee, at, data) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        w.a.id,
        vid,
        i === 0 ? 'Al Garhoud' : 'Al Maktoum',
        4 * (i + 1),
        `2026-11-1${i}T07:00:00Z`,
        JSON.stringify({
          gate_uuid: '00000000-0000-4000-8000-000000000002',
          bearing: 90,
          latitude: 25,
          longitude: 55,
          currency: 'AED',
          charged: true,
        }),
      ],
    );
  }
}, 60_000);
afterAll(() => h.close());

const get = (url: string, token = w.users.adminA.token, company = w.a.uuid) =>
  call(h.app, { method: 'GET', url, token, company });

describe.each([
  ['/v1/device-trips', 'started_at', 'distance_km'],
  ['/v1/geofences/events', 'occurred_at', 'event'],
  ['/v1/geofences/events/salik', 'crossed_at', 'fee'],
] as const)('%s', (path, timeField, otherSort) => {
  it('search finds by plate; an unmatched search finds nothing', async () => {
    const r = await get(`${path}?search=bravo`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().total).toBe(1);
    expect((await get(`${path}?search=zzz`)).json().total).toBe(0);
    expect((await get(`${path}?search=%25`)).json().total).toBe(0);
  });

  it('sorts by the allowed fields in both orders and refuses others with a 422 on sort', async () => {
    const asc = (await get(`${path}?sort=${timeField}&order=asc`)).json().data;
    const desc = (await get(`${path}?sort=${timeField}&order=desc`)).json().data;
    expect(asc.map((x: { uuid: string }) => x.uuid)).toEqual(
      desc.map((x: { uuid: string }) => x.uuid).reverse(),
    );
    expect((await get(`${path}?sort=${otherSort}&order=asc`)).statusCode).toBe(200);
    const bad = await get(`${path}?sort=password_hash`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.sort).toEqual(['Please enter a valid Sort']);
  });

  it('from / to bound the time column', async () => {
    const r = await get(`${path}?from=2026-11-11T00:00:00Z&to=2026-11-11T23:59:59Z`);
    expect(r.json().total).toBe(1);
  });
});

describe('device trip details', () => {
  it('shows a trip of the tenant and hides it from another company', async () => {
    const r = await get(`/v1/device-trips/${trips[1]}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data).toMatchObject({ uuid: trips[1], distance_km: 10, device_imei: '356307040000011' });
    const foreign = await get(`/v1/device-trips/${trips[1]}`, w.users.adminB.token, w.b.uuid);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Device trip not found.');
  });
});

describe('other lists refuse unknown sort names', () => {
  it.each(['/v1/activity-log', '/v1/notifications', '/v1/devices/unknown'])('%s', async (path) => {
    // The refused-IMEI list is the super admins' (see the refused-IMEI tenancy tests below).
    const token = path.includes('unknown') ? w.users.super.token : w.users.adminA.token;
    const bad = await get(`${path}?sort=password_hash`, token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.sort).toEqual(['Please enter a valid Sort']);
    expect(
      (await get(`${path}?sort=${path.includes('unknown') ? 'imei' : 'created_at'}&order=asc`, token))
        .statusCode,
    ).toBe(200);
  });
});

describe('activity log of the module actions', () => {
  it('a public share link and a dismissed refused IMEI are logged with who, what and before/after', async () => {
    const [v] = await h.storage.db.query<{ uuid: string }>(
      `SELECT uuid FROM vehicles WHERE company_id = $1 ORDER BY id LIMIT 1`,
      [w.a.id],
    );
    const share = await call(h.app, {
      method: 'POST',
      url: `/v1/vehicles/${v!.uuid}/share`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { expires_in_minutes: 60 },
    });
    expect(share.statusCode, share.body).toBeLessThan(300);
    const token = share.json().data.token as string;
    const [u] = await h.storage.db.query<{ uuid: string }>(
      `INSERT INTO unknown_devices (imei, protocol) VALUES ('356307049999999', 'teltonika') RETURNING uuid`,
    );
    const dismiss = await call(h.app, {
      method: 'DELETE',
      url: `/v1/devices/unknown/${u!.uuid}`,
      token: w.users.super.token,
      company: w.a.uuid,
    });
    expect(dismiss.statusCode).toBe(200);

    const shared = (await get(`/v1/activity-log?subject_uuid=${v!.uuid}`)).json();
    expect(shared.data[0]).toMatchObject({
      action: 'created',
      subject_type: 'vehicle share link',
      user: { uuid: w.users.adminA.uuid },
      after: { vehicle_uuid: v!.uuid, expires_at: share.json().data.expires_at },
    });
    expect(JSON.stringify(shared)).not.toContain(token);
    const dismissed = (await get(`/v1/activity-log?subject_uuid=${u!.uuid}`)).json();
    expect(dismissed.data[0]).toMatchObject({
      action: 'deleted',
      subject_type: 'unknown device',
      before: { imei: '356307049999999', protocol: 'teltonika' },
    });
  });
});

describe('refused (unknown) IMEIs: tenancy', () => {
  const unknownOf = (token: string, company: string, query = '') =>
    call(h.app, { method: 'GET', url: `/v1/devices/unknown${query}`, token, company });

  it('no company admin sees or dismisses them, in any company; a super admin sees all, with addresses', async () => {
    const db = h.storage.db;
    // Two IMEIs refused by the gateway: nothing says which company, if any, they will belong to.
    const [one] = await db.query<{ uuid: string }>(
      `INSERT INTO unknown_devices (imei, protocol, remote_address, attempts) VALUES ('356307041111111', 'teltonika', '203.0.113.7', 3) RETURNING uuid`,
    );
    await db.query(
      `INSERT INTO unknown_devices (imei, protocol, remote_address, attempts) VALUES ('868683022222222', 'ruptela', '198.51.100.9', 1)`,
    );
    const before = JSON.stringify(await db.query('SELECT * FROM unknown_devices ORDER BY id'));

    const companyAdmins = [
      [w.users.adminA.token, w.a.uuid],
      [w.users.adminB.token, w.b.uuid],
      [w.users.multi.token, w.a.uuid],
      [w.users.branchA1.token, w.a.uuid],
      [w.users.stationA1.token, w.a.uuid],
    ] as const;
    for (const [token, company] of companyAdmins) {
      for (const query of ['', '?search=3563', '?type=ruptela']) {
        const r = await unknownOf(token, company, query);
        expect(r.statusCode).toBe(403);
        expect(r.body).not.toContain('356307041111111');
        expect(r.body).not.toContain('203.0.113.7');
      }
      const dismiss = await call(h.app, {
        method: 'DELETE',
        url: `/v1/devices/unknown/${one!.uuid}`,
        token,
        company,
      });
      expect(dismiss.statusCode).toBe(403);
    }
    expect(JSON.stringify(await db.query('SELECT * FROM unknown_devices ORDER BY id'))).toBe(before);

    // The super admin, acting in either company, sees the whole list with the source addresses.
    for (const company of [w.a.uuid, w.b.uuid]) {
      const r = await unknownOf(w.users.super.token, company, '?sort=imei&order=asc');
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().data).toMatchObject([
        { imei: '356307041111111', type: 'teltonika', remote_address: '203.0.113.7', attempts: 3 },
        { imei: '868683022222222', type: 'ruptela', remote_address: '198.51.100.9', attempts: 1 },
      ]);
    }
  });
});
