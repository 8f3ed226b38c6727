// Who may do what on the field-device endpoints (raw frames, counters, sensors), and bad sensor input.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { addDevices } from '../gateway/test-helpers';

let h: Harness;
let w: World;
let device: { uuid: string; id: number };
beforeAll(async () => {
  h = await createHarness('device-field');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
  device = (await addDevices(h.storage.db, w.a.id, [{ imei: '868204005541111', type: 'ruptela' }]))
    .devices[0]!;
});

const put = (token: string, body: unknown, company = w.a.uuid, locale = 'en') =>
  call(h.app, {
    method: 'PUT',
    url: `/v1/devices/${device.uuid}/sensors`,
    token,
    company,
    body,
    headers: { 'x-locale': locale },
  });

describe('field-device endpoints', () => {
  it('raw frames and their replay: super admins only', async () => {
    for (const [method, url] of [
      ['GET', `/v1/devices/${device.uuid}/raw-frames`],
      ['POST', `/v1/devices/${device.uuid}/raw-frames/replay`],
    ] as const) {
      const admin = await call(h.app, {
        method,
        url,
        token: w.users.adminA.token,
        company: w.a.uuid,
        body: {},
      });
      expect(admin.statusCode).toBe(403);
      const sup = await call(h.app, { method, url, token: w.users.super.token, company: w.a.uuid, body: {} });
      expect(sup.statusCode).toBe(200);
    }
  });

  it('another company sees neither counters nor sensors of the device (404); no permission is 403', async () => {
    for (const url of [`/v1/devices/${device.uuid}/frame-counters`, `/v1/devices/${device.uuid}/sensors`]) {
      const other = await call(h.app, { method: 'GET', url, token: w.users.adminB.token, company: w.b.uuid });
      expect(other.statusCode).toBe(404);
      const none = await call(h.app, { method: 'GET', url, token: w.users.noPerms.token, company: w.a.uuid });
      expect(none.statusCode).toBe(403);
    }
    expect((await put(w.users.adminB.token, { ignition_io: 4 }, w.b.uuid)).statusCode).toBe(404);
    expect((await put(w.users.noPerms.token, { ignition_io: 4 })).statusCode).toBe(403);
  });

  it('a setting with a CSV calibration is kept as history; defaults are named; bad CSV is refused in the user language', async () => {
    const bad = await put(
      w.users.adminA.token,
      { fuel_io: 9, fuel_calibration_csv: 'raw,litres\n0,0\n10,x' },
      w.a.uuid,
      'ar',
    );
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('السطر 3');
    expect((await put(w.users.adminA.token, { fuel_io: 9 })).statusCode).toBe(422);
    const first = await put(w.users.adminA.token, {
      ignition_io: 4,
      fuel_io: 9,
      fuel_calibration_csv: 'value;litres\n4500;120\n0;0\n1000;20,5',
      effective_from: '2026-11-01T00:00:00Z',
    });
    expect(first.statusCode).toBe(200);
    const body = first.json() as {
      data: {
        current: { ignition_io: number; fuel_calibration: [number, number][] };
        history: unknown[];
        default_ignition_io: number[];
      };
    };
    expect(body.data.current.ignition_io).toBe(4);
    expect(body.data.current.fuel_calibration).toEqual([
      [0, 0],
      [1000, 20.5],
      [4500, 120],
    ]);
    expect(body.data.default_ignition_io).toEqual([239, 4]);
    await put(w.users.adminA.token, { ignition_io: 3, effective_from: '2026-11-10T00:00:00Z' });
    const got = await call(h.app, {
      method: 'GET',
      url: `/v1/devices/${device.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    const d = (got.json() as { data: { current: { ignition_io: number }; history: unknown[] } }).data;
    expect(d.current.ignition_io).toBe(3);
    expect(d.history).toHaveLength(2);
  });

  it('a back-dated change queues a durable repair request for the window from then to now', async () => {
    await put(w.users.adminA.token, { ignition_io: 4, effective_from: '2026-11-15T00:00:00Z' });
    // Applying from the future repairs nothing.
    await put(w.users.adminA.token, { ignition_io: 3, effective_from: '2026-12-01T00:00:00Z' });
    const rows = await h.storage.db.query<{
      device_id: number;
      from_time: Date;
      to_time: Date;
      status: string;
    }>('SELECT device_id, from_time, to_time, status FROM sensor_repair_requests ORDER BY id');
    expect(
      rows.map((r) => [
        Number(r.device_id),
        new Date(r.from_time).toISOString(),
        new Date(r.to_time).toISOString(),
        r.status,
      ]),
    ).toEqual([[device.id, '2026-11-15T00:00:00.000Z', '2026-11-20T10:00:00.000Z', 'queued']]);
    // A refused setting queues nothing (same transaction).
    const bad = await put(w.users.adminA.token, { fuel_io: 10, effective_from: '2026-11-16T00:00:00Z' });
    expect(bad.statusCode).toBe(422);
    expect(await h.storage.db.query('SELECT id FROM sensor_repair_requests')).toHaveLength(1);
  });
});
