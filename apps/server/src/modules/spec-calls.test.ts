/**
 * Spec section 7, call by call, with the headers the portal sends (Authorization, Timezone,
 * X-Transport-Uuid, X-User-Uuid, X-Locale) and asserting exactly what the client reads from each
 * answer: data.user and data.transport_companies; data.data lists and objects; the location page's
 * data, total, current_page and last_page at limit 500; the push token's success flag and stored data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, PASSWORD, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('modules_spec_calls');
  w = await buildWorld(h.storage.db);
}, 60_000);
afterAll(() => h.close());

const portal = (token = w.users.adminA.token) => ({
  authorization: `Bearer ${token}`,
  timezone: 'Asia/Dubai',
  'x-transport-uuid': w.a.uuid,
  'x-user-uuid': w.users.adminA.uuid,
  'x-locale': 'en',
});
const get = (url: string) => h.app.inject({ method: 'GET', url, headers: portal() });

describe('spec section 7', () => {
  it('sign-in answers token, media_app_token and the user uuid', async () => {
    const r = await call(h.app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: w.users.adminA.email, password: PASSWORD },
    });
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d.token).toEqual(expect.any(String));
    expect(d.media_app_token).toEqual(expect.any(String));
    expect(d.user.uuid).toBe(w.users.adminA.uuid);
  });

  it('GET auth: data.user and data.transport_companies (uuid, country_code, settings, configurations, name, features)', async () => {
    const r = await get('/v1/auth');
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d.user.uuid).toBe(w.users.adminA.uuid);
    expect(d.transport_companies).toHaveLength(1);
    expect(d.transport_companies[0]).toMatchObject({
      uuid: w.a.uuid,
      name: expect.any(String),
      country_code: expect.any(String),
      settings: expect.any(Object),
      configurations: expect.any(Object),
      features: { emergency_driver_alert_enabled: true },
    });
  });

  it('configuration options: data.data lists', async () => {
    const devices = await get('/v1/configurations/options/devices');
    expect(Array.isArray(devices.json().data.data)).toBe(true);
    const types = (await get('/v1/configurations/options/vehicle-types')).json().data.data;
    expect(types.map((t: { value: string }) => t.value)).toEqual([
      'bus',
      'car',
      'truck',
      'motorcycle',
      'motor-bike',
    ]);
    const states = (await get('/v1/configurations/options/vehicle/states/AE')).json().data.data;
    expect(states.length).toBeGreaterThan(0);
    // An unknown country has no states: an empty list, not an error (the portal falls back to empty).
    const none = await get('/v1/configurations/options/vehicle/states/ZZ');
    expect(none.statusCode).toBe(200);
    expect(none.json().data.data).toEqual([]);
  });

  it('device/commands/supported: data.data is an object', async () => {
    const d = (await get('/v1/device/commands/supported')).json().data.data;
    expect(d).toBeTypeOf('object');
    expect(Array.isArray(d)).toBe(false);
  });

  it('device-locations/vehicle/locations: data, total, current_page, last_page with page and limit 500', async () => {
    const [v] = await h.storage.db.query<{ uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, type) VALUES ($1, 'SPEC 7', 'car') RETURNING uuid`,
      [w.a.id],
    );
    const r = await get(`/v1/device-locations/vehicle/locations?vehicle_uuid=${v!.uuid}&page=1&limit=500`);
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(Array.isArray(body.data)).toBe(true);
    expect(body).toMatchObject({ total: expect.any(Number), current_page: 1, last_page: expect.any(Number) });
  });

  it('fcm-tokens/register answers success and the stored record; deactivate accepts the token', async () => {
    const reg = await h.app.inject({
      method: 'POST',
      url: '/v1/fcm-tokens/register',
      headers: portal(),
      payload: { token: 'spec-token-1', platform: 'android', device_id: 'android-1700000000000-abcdefghi' },
    });
    expect(reg.statusCode, reg.body).toBeLessThan(300);
    expect(reg.json().success).toBe(true);
    expect(reg.json().data).toMatchObject({ token: 'spec-token-1', platform: 'android', app_version: null });
    const withVersion = await h.app.inject({
      method: 'POST',
      url: '/v1/fcm-tokens/register',
      headers: portal(),
      payload: {
        token: 'spec-token-2',
        platform: 'ios',
        device_id: 'ios-1700000000000-abcdefghi',
        app_version: '1.2.3',
      },
    });
    expect(withVersion.json().data.app_version).toBe('1.2.3');
    const off = await h.app.inject({
      method: 'POST',
      url: '/v1/fcm-tokens/deactivate',
      headers: portal(),
      payload: { token: 'spec-token-1' },
    });
    expect(off.statusCode).toBeLessThan(300);
  });

  it('DELETE logout ends the session: the token then gets 401 (which the portal turns into logout)', async () => {
    const out = await h.app.inject({
      method: 'DELETE',
      url: '/v1/logout',
      headers: portal(w.users.multi.token),
    });
    expect(out.statusCode).toBeLessThan(300);
    const after = await h.app.inject({
      method: 'GET',
      url: '/v1/auth',
      headers: portal(w.users.multi.token),
    });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Unauthenticated.');
  });
});
