import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpoints, vehicleSchema, scheduledTripSchema } from '@fleet/api-client';
import { call, createHarness, PASSWORD, type Harness } from '../test/harness';
import { buildWorld, type World } from '../test/fixtures';
import { seedDemo, demoImei, luhnDigit } from './seed/demo';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('app', {
    CORS_ORIGINS: 'http://portal.test',
    UPLOAD_LIMIT: '4096',
    BODY_LIMIT: '2048',
  });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
function multipart(content: Buffer, filename = 'a.png', type = 'image/png') {
  const boundary = '----fleetboundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('demo seed', () => {
  it('seeds once: Demo Transport, 50 vehicles with 15-digit IMEIs of mixed types, a second company, sign-in works', async () => {
    await h.reset();
    const first = await seedDemo(h.storage.db, 'demo-pass-123');
    expect(first.seeded).toBe(true);
    expect((await seedDemo(h.storage.db, 'demo-pass-123')).seeded).toBe(false);
    const [counts] = await h.storage.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM vehicles WHERE company_id = c.id) AS vehicles,
              (SELECT count(*)::int FROM devices WHERE company_id = c.id) AS devices,
              (SELECT count(DISTINCT type)::int FROM devices WHERE company_id = c.id) AS device_types,
              (SELECT count(*)::int FROM sub_companies WHERE company_id = c.id) AS stations,
              (SELECT count(*)::int FROM drivers WHERE company_id = c.id) AS drivers,
              (SELECT count(*)::int FROM passengers WHERE company_id = c.id) AS passengers,
              (SELECT count(*)::int FROM guardians WHERE company_id = c.id) AS guardians,
              (SELECT count(*)::int FROM supervisors WHERE company_id = c.id) AS supervisors,
              (SELECT count(*)::int FROM geofences WHERE company_id = c.id) AS geofences,
              (SELECT count(*)::int FROM scheduled_trips WHERE company_id = c.id) AS scheduled,
              (SELECT count(*)::int FROM devices WHERE company_id = c.id AND imei ~ '^[0-9]{15}$') AS imei15
       FROM transport_companies c WHERE c.name = 'Demo Transport'`,
    );
    expect(counts).toMatchObject({ vehicles: 50, devices: 50, stations: 2, imei15: 50 });
    // The second, unrelated company (issue 18) has its own vehicles and devices with valid IMEIs.
    const [second] = await h.storage.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM vehicles v WHERE v.company_id = c.id) AS vehicles,
              (SELECT count(*)::int FROM devices d WHERE d.company_id = c.id AND d.imei ~ '^[0-9]{15}$') AS devices
       FROM transport_companies c WHERE c.name = 'Gulf Freight Services'`,
    );
    expect(second).toEqual({ vehicles: 8, devices: 8 });
    expect(counts!.device_types).toBeGreaterThanOrEqual(4);
    for (const k of ['drivers', 'passengers', 'guardians', 'supervisors', 'geofences', 'scheduled'])
      expect(counts![k]).toBeGreaterThan(0);
    const login = await call(h.app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: 'demo@fleet.test', password: 'demo-pass-123' },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.token as string;
    const me = (await call(h.app, { method: 'GET', url: '/v1/auth', token })).json();
    // The demo super admin sees every company; Demo Transport sorts first.
    expect(me.data.transport_companies.map((c: { name: string }) => c.name)).toEqual([
      'Demo Transport',
      'Gulf Freight Services',
    ]);
    const company = me.data.transport_companies[0].uuid as string;
    const vehicles = await call(h.app, { method: 'GET', url: '/v1/vehicles?limit=100', token, company });
    expect(vehicles.json().total).toBe(50);
    for (const v of vehicles.json().data) vehicleSchema.parse(v);
    const trips = await call(h.app, { method: 'GET', url: '/v1/scheduled-trips?limit=100', token, company });
    for (const t of trips.json().data) expect(scheduledTripSchema.parse(t).stops.length).toBe(3);
  });

  it('IMEIs carry a Luhn check digit', () => {
    expect(luhnDigit('49015420323751')).toBe(8);
    expect(demoImei(1)).toMatch(/^\d{15}$/);
  });
});

describe('OpenAPI', () => {
  it('documents every endpoint of the contract', async () => {
    const r = await h.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    const ops = Object.values(doc.paths as Record<string, Record<string, unknown>>).reduce(
      (n, p) => n + Object.keys(p).length,
      0,
    );
    expect(ops).toBe(Object.keys(endpoints).length);
    expect(
      doc.paths['/v1/vehicles/{uuid}'].put.requestBody.content['application/json'].schema.properties
        .license_plate_number,
    ).toBeTruthy();
    expect((await h.app.inject({ method: 'GET', url: '/v1/docs' })).headers['content-type']).toMatch(
      /text\/html/,
    );
  });
});

describe('files', () => {
  it('uploads an image checked by magic bytes and serves it to members only', async () => {
    const { body, contentType } = multipart(PNG);
    const up = await h.app.inject({
      method: 'POST',
      url: '/v1/files/images',
      payload: body,
      headers: {
        'content-type': contentType,
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
      },
    });
    expect(up.statusCode).toBe(201);
    const file = up.json().data;
    expect(file).toMatchObject({ kind: 'images', content_type: 'image/png', size: PNG.length });
    const got = await h.app.inject({ method: 'GET', url: `${file.url}?token=${w.users.adminA.token}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect((await h.app.inject({ method: 'GET', url: file.url })).statusCode).toBe(401);
    expect(
      (await h.app.inject({ method: 'GET', url: `${file.url}?token=${w.users.adminB.token}` })).statusCode,
    ).toBe(404);
  });

  it.each([
    ['html disguised as png', Buffer.from('<html><script>alert(1)</script></html>'), 422],
    ['too large', Buffer.concat([PNG, Buffer.alloc(8000)]), 413],
    ['empty', Buffer.alloc(0), 422],
  ])('refuses %s', async (_name, content, status) => {
    const { body, contentType } = multipart(content);
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/files/images',
      payload: body,
      headers: {
        'content-type': contentType,
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
      },
    });
    expect(r.statusCode).toBe(status);
  });

  it.each([
    '/v1/file/images/..%2F..%2Fetc%2Fpasswd',
    '/v1/file/../../etc/passwd',
    '/v1/file/secrets/x.png',
    '/v1/file/images/a%00.png',
  ])('path traversal %s never serves a file', async (url) => {
    const r = await h.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${w.users.adminA.token}` },
    });
    expect([400, 404, 422]).toContain(r.statusCode);
  });
});

describe('HTTP hardening', () => {
  it('sets security headers and honours the CORS allow-list', async () => {
    const r = await h.app.inject({
      method: 'GET',
      url: '/v1/auth',
      headers: { origin: 'http://portal.test' },
    });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    expect(r.headers['access-control-allow-origin']).toBe('http://portal.test');
    const pre = await h.app.inject({
      method: 'OPTIONS',
      url: '/v1/vehicles',
      headers: { origin: 'http://portal.test' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toContain('X-Transport-Uuid');
    const evil = await h.app.inject({
      method: 'OPTIONS',
      url: '/v1/vehicles',
      headers: { origin: 'http://evil.test' },
    });
    expect(evil.statusCode).toBe(403);
    const plain = await h.app.inject({
      method: 'GET',
      url: '/v1/auth',
      headers: { origin: 'http://evil.test' },
    });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    [
      'oversize body',
      {
        method: 'POST',
        url: '/v1/login',
        payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5000) }),
      },
      413,
    ],
    ['malformed JSON', { method: 'POST', url: '/v1/login', payload: '{"email":' }, 400],
    [
      'wrong content type',
      {
        method: 'POST',
        url: '/v1/login',
        payload: 'email=a',
        contentType: 'application/x-www-form-urlencoded',
      },
      415,
    ],
  ] as const)('%s is a clear 4xx', async (_n, req, status) => {
    const r = await h.app.inject({
      method: req.method,
      url: req.url,
      payload: req.payload,
      headers: { 'content-type': 'contentType' in req ? req.contentType : 'application/json' },
    });
    expect(r.statusCode).toBe(status);
    expect(r.json().message).toEqual(expect.any(String));
  });

  it('never answers 500 to hostile input', async () => {
    const token = w.users.adminA.token;
    const company = w.a.uuid;
    const urls = [
      '/v1/vehicles?page=-1',
      '/v1/vehicles?page=abc&limit=0',
      '/v1/vehicles?search=%27%3B%20DROP%20TABLE%20vehicles%3B--',
      '/v1/vehicles?search=%25%5C_',
      '/v1/vehicles/not-a-uuid',
      '/v1/vehicles?sort=id;drop',
      '/v1/vehicles?status[]=x',
      '/v1/device-locations/vehicle/locations?vehicle_uuid=x',
      '/v1/device-locations/vehicle/locations?vehicle_uuid=00000000-0000-0000-0000-000000000000&from=yesterday',
      '/v1/notifications?read=maybe',
      '/v1/vehicles/live?live_status=zzz',
      '/v1/configurations/options/vehicle/states/XYZ',
    ];
    for (const url of urls) {
      const r = await call(h.app, { method: 'GET', url, token, company });
      expect(r.statusCode, url).toBeLessThan(500);
    }
    for (const body of [
      [],
      'x',
      { license_plate_number: { $gt: '' } },
      { license_plate_number: 'A'.repeat(10_000) },
      null,
    ]) {
      const r = await call(h.app, {
        method: 'POST',
        url: '/v1/vehicles',
        token,
        company,
        body: body as never,
      });
      expect(r.statusCode, JSON.stringify(body).slice(0, 50)).toBeLessThan(500);
    }
    const badCompany = await call(h.app, {
      method: 'GET',
      url: '/v1/vehicles',
      token,
      company: "'; select 1",
    });
    expect(badCompany.statusCode).toBe(403);
    const login = await call(h.app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: w.users.adminA.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });
});
