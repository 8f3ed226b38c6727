import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('entities');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const as = (token: string, company: string) => ({
  get: (url: string) => call(h.app, { method: 'GET', url, token, company }),
  post: (url: string, body: unknown) => call(h.app, { method: 'POST', url, token, company, body }),
  put: (url: string, body: unknown) => call(h.app, { method: 'PUT', url, token, company, body }),
  patch: (url: string, body: unknown) => call(h.app, { method: 'PATCH', url, token, company, body }),
  del: (url: string) => call(h.app, { method: 'DELETE', url, token, company }),
});

describe('entities', () => {
  it('vehicle with devices and a driver: create, assign once, list, search, status, delete with dependants', async () => {
    const a = as(w.users.adminA.token, w.a.uuid);
    const dev1 = await a.post('/v1/devices', {
      imei: '356307042441013',
      type: 'teltonika',
      make: 'Teltonika',
      model: 'FMB920',
    });
    expect(dev1.statusCode).toBe(201);
    expect(dev1.json().data).toMatchObject({
      imei: '356307042441013',
      current_status: 'offline',
      vehicle_uuid: null,
    });
    expect((await a.post('/v1/devices', { imei: '356307042441013', type: 'teltonika' })).statusCode).toBe(
      422,
    );
    const driver = (await a.post('/v1/drivers', { first_name: 'Omar', last_name: 'Saleh' })).json().data;
    const v1 = await a.post('/v1/vehicles', {
      license_plate_number: 'A 12345',
      type: 'bus',
      device_imei: '356307042441013',
      driver_uuid: driver.uuid,
      branch_uuid: w.a.branches[0]!.uuid,
      license_plate_state_code: 'DXB',
      seat_capacity: 40,
    });
    expect(v1.statusCode).toBe(201);
    const vehicle = v1.json().data;
    expect(vehicle).toMatchObject({
      license_plate_number: 'A 12345',
      driver_uuid: driver.uuid,
      branch_uuid: w.a.branches[0]!.uuid,
      station_uuid: w.a.stations[0]!.uuid,
      seat_capacity: 40,
      license_plate_state_code: 'DXB',
      status: 'active',
    });
    expect(JSON.stringify(vehicle)).not.toMatch(/"(id|company_id|driver_id|data)":/);
    // Double assignment.
    const v2 = await a.post('/v1/vehicles', {
      license_plate_number: 'B 1',
      type: 'car',
      device_imei: '356307042441013',
    });
    expect(v2.statusCode).toBe(422);
    expect(v2.json().errors.device_imei).toEqual(['This device is already assigned']);
    const v3 = await a.post('/v1/vehicles', {
      license_plate_number: 'B 2',
      type: 'car',
      driver_uuid: driver.uuid,
    });
    expect(v3.json().errors.driver_uuid).toEqual(['This driver is already assigned']);
    const ar = await call(h.app, {
      method: 'POST',
      url: '/v1/vehicles',
      token: w.users.adminA.token,
      company: w.a.uuid,
      headers: { 'x-locale': 'ar' },
      body: { license_plate_number: 'B 3', type: 'car', driver_uuid: driver.uuid },
    });
    expect(ar.json().errors.driver_uuid[0]).toBe('هذا السائق مُعيَّن بالفعل');
    // The device now points back to its vehicle; the driver too.
    expect((await a.get(`/v1/devices/${dev1.json().data.uuid}`)).json().data.vehicle_uuid).toBe(vehicle.uuid);
    expect((await a.get(`/v1/drivers/${driver.uuid}`)).json().data.vehicle_uuid).toBe(vehicle.uuid);
    // List with search and pagination envelope.
    for (let i = 0; i < 20; i++)
      await a.post('/v1/vehicles', { license_plate_number: `Z ${100 + i}`, type: 'car' });
    const page = (
      await a.get('/v1/vehicles?search=Z%201&limit=5&page=2&sort=license_plate_number&order=asc')
    ).json();
    expect(page).toMatchObject({ total: 20, current_page: 2, last_page: 4, per_page: 5 });
    expect(page.data.map((v: { license_plate_number: string }) => v.license_plate_number)).toEqual([
      'Z 105',
      'Z 106',
      'Z 107',
      'Z 108',
      'Z 109',
    ]);
    expect((await a.get('/v1/vehicles?sort=password')).statusCode).toBe(422);
    expect((await a.get('/v1/vehicles?limit=100000')).statusCode).toBe(422);
    // Status.
    const st = await a.patch(`/v1/vehicles/${vehicle.uuid}/status`, { status: 'maintenance' });
    expect(st.json().data.status).toBe('maintenance');
    expect((await a.patch(`/v1/vehicles/${vehicle.uuid}/status`, { status: 'flying' })).statusCode).toBe(422);
    // Deleting the device on a vehicle fails clearly; the driver too.
    const delDev = await a.del(`/v1/devices/${dev1.json().data.uuid}`);
    expect(delDev.statusCode).toBe(409);
    expect(delDev.json().message).toBe('This device cannot be deleted because vehicles still depend on it.');
    expect((await a.del(`/v1/drivers/${driver.uuid}`)).statusCode).toBe(409);
    expect((await a.del(`/v1/vehicles/${vehicle.uuid}`)).statusCode).toBe(200);
    expect((await a.del(`/v1/devices/${dev1.json().data.uuid}`)).statusCode).toBe(200);
    expect((await a.get(`/v1/vehicles/${vehicle.uuid}`)).statusCode).toBe(404);
    // Activity log recorded who/what/before/after.
    const log = (await a.get('/v1/activity-log?subject_uuid=' + vehicle.uuid + '&order=asc')).json();
    expect(log.data.map((e: { action: string }) => e.action)).toEqual([
      'created',
      'status_changed',
      'deleted',
    ]);
    expect(log.data[0].user.uuid).toBe(w.users.adminA.uuid);
    expect(log.data[2].before.license_plate_number).toBe('A 12345');
  });

  it('people, schools, geofences, scheduled trips with stops and exclusive passengers', async () => {
    const a = as(w.users.adminA.token, w.a.uuid);
    const school = (
      await a.post('/v1/schools', {
        name: 'Gulf School',
        type: 'private',
        education_level: 'all',
        branch_uuid: w.a.branches[1]!.uuid,
      })
    ).json().data;
    expect(school.branch_uuid).toBe(w.a.branches[1]!.uuid);
    const g = (
      await a.post('/v1/guardians', {
        first_name: 'Sara',
        last_name: 'Ali',
        phone: '+971500000001',
        relationship: 'mother',
      })
    ).json().data;
    const p1 = await a.post('/v1/passengers', {
      first_name: 'Kid',
      last_name: 'One',
      school_uuid: school.uuid,
      guardian_uuids: [g.uuid],
    });
    expect(p1.statusCode).toBe(201);
    expect(p1.json().data.guardian_uuids).toEqual([g.uuid]);
    expect((await a.get(`/v1/guardians/${g.uuid}`)).json().data.passenger_uuids).toEqual([
      p1.json().data.uuid,
    ]);
    const trip = await a.post('/v1/scheduled-trips', {
      name: 'Morning',
      type: 'round',
      departure_time: '06:30:00',
      return_time: '14:00:00',
      start_date: '2026-09-01',
      passenger_uuids: [p1.json().data.uuid],
      stops: [
        {
          name: 'Stop 1',
          location: { latitude: 25.2, longitude: 55.3 },
          arrival_offset_minutes: 10,
          passenger_uuids: [p1.json().data.uuid],
        },
      ],
      school_uuid: school.uuid,
    });
    expect(trip.statusCode).toBe(201);
    expect(trip.json().data.stops[0]).toMatchObject({
      name: 'Stop 1',
      passenger_uuids: [p1.json().data.uuid],
    });
    const again = await a.post('/v1/scheduled-trips', {
      name: 'Evening',
      type: 'one_way',
      departure_time: '16:30:00',
      start_date: '2026-09-01',
      passenger_uuids: [p1.json().data.uuid],
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.passenger_uuids).toEqual(['This passenger is already assigned']);
    expect((await a.del(`/v1/passengers/${p1.json().data.uuid}`)).statusCode).toBe(409);
    const geo = await a.post('/v1/geofences', {
      name: 'Depot',
      geometry: { shape: 'circle', center: { latitude: 25.2, longitude: 55.3 }, radius: 500 },
    });
    expect(geo.statusCode).toBe(201);
    expect(geo.json().data).toMatchObject({
      color: '#3388ff',
      tracking_rules: ['entry', 'exit'],
      vehicle_uuids: [],
    });
    const [bb] = await h.storage.db.query<{ min_lat: number; max_lat: number }>(
      'SELECT min_lat, max_lat FROM geofences',
    );
    expect(bb!.min_lat).toBeLessThan(25.2);
    expect(bb!.max_lat).toBeGreaterThan(25.2);
    const bad = await a.post('/v1/geofences', { name: 'X', geometry: { shape: 'polygon', points: [] } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(
      'Please check your entries and try again. Ensure all required fields are filled out correctly.',
    );
  });

  it('users: create with a set-password link, no escalation, scoped type needs its scope', async () => {
    const a = as(w.users.adminA.token, w.a.uuid);
    const u = await a.post('/v1/users', {
      name: 'Branch Boss',
      email: 'boss@fleet.test',
      user_type: 'branch_admin',
      branch_uuid: w.a.branches[0]!.uuid,
    });
    expect(u.statusCode).toBe(201);
    expect(u.json().data).toMatchObject({
      user_type: 'branch_admin',
      branch_uuid: w.a.branches[0]!.uuid,
      station_uuid: w.a.stations[0]!.uuid,
    });
    expect(h.messenger.last('set_password')?.to).toBe('boss@fleet.test');
    expect(
      (await a.post('/v1/users', { name: 'X', email: 'boss@fleet.test', user_type: 'admin' })).statusCode,
    ).toBe(422);
    expect(
      (await a.post('/v1/users', { name: 'X', email: 'sup@fleet.test', user_type: 'super_admin' }))
        .statusCode,
    ).toBe(403);
    const foreignBranch = await a.post('/v1/users', {
      name: 'X',
      email: 'x2@fleet.test',
      user_type: 'branch_admin',
      branch_uuid: w.b.branches[0]!.uuid,
    });
    expect(foreignBranch.statusCode).toBe(422);
    const list = (await a.get('/v1/users?limit=50')).json();
    expect(list.data.map((x: { email: string }) => x.email)).not.toContain('admin.b@fleet.test');
  });
});
