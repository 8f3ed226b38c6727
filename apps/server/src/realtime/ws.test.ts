import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { parseRealtimeFrame, type LiveLocation, type Notification } from '@fleet/api-client';
import { publishRealtime } from './hub';

let h: Harness;
let w: World;
let base: string;
let vehicleA1: string;
let vehicleA2: string;

beforeAll(async () => {
  h = await createHarness('ws');
  w = await buildWorld(h.storage.db);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address() as { port: number };
  base = `ws://127.0.0.1:${addr.port}`;
  const v = await h.storage.db.query<{ uuid: string }>(
    `INSERT INTO vehicles (company_id, sub_company_id, branch_id, license_plate_number) VALUES
       ($1, $2, $3, 'A1'), ($1, $4, $5, 'A2') RETURNING uuid`,
    [w.a.id, w.a.stations[0]!.id, w.a.branches[0]!.id, w.a.stations[1]!.id, w.a.branches[1]!.id],
  );
  vehicleA1 = v[0]!.uuid;
  vehicleA2 = v[1]!.uuid;
});
afterAll(() => h.close());

/** A live location of the contract (every field the schema asks for). */
function loc(vehicleUuid: string, speed: number, at = '2026-11-21T08:00:00.000Z'): LiveLocation {
  return {
    created_at: at,
    ignition: 1,
    is_idle: false,
    latitude: 25.2,
    longitude: 55.3,
    speed,
    io_elements: { '239': { value: 1 } },
    digital_output1: 0,
    digital_output2: 0,
    vehicle_uuid: vehicleUuid,
  };
}

/** A notification of the contract. */
function note(over: Partial<Notification> = {}): Notification {
  return {
    uuid: '00000000-0000-4000-8000-000000000001',
    type: 'overspeed',
    title: 'x',
    message: 'y',
    created_at: '2026-11-21T08:00:00.000Z',
    device_created_at: null,
    vehicle: null,
    violation_value: null,
    read: false,
    read_at: null,
    icon: null,
    ...over,
  };
}

/**
 * A client socket: `messages` has every message received (a batch frame counted message by message,
 * each one checked against the contract: one that does not fit fails the test), `frames` the frames.
 */
function open(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; messages: unknown[]; frames: number } | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base}${path}`, { headers });
    const messages: unknown[] = [];
    const client = { ws, messages, frames: 0 };
    ws.on('message', (d) => {
      client.frames += 1;
      const text = d.toString();
      expect(parseRealtimeFrame(text).invalid).toBe(0);
      const frame = JSON.parse(text) as unknown;
      messages.push(...(Array.isArray(frame) ? frame : [frame]));
    });
    ws.on('open', () => resolve(client));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(-1));
  });
}

const until = async (fn: () => boolean) => {
  for (let i = 0; i < 100 && !fn(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('WebSocket', () => {
  it('refuses missing, forged and foreign access before the upgrade', async () => {
    expect(await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}`)).toBe(401);
    expect(await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?token=${'x'.repeat(43)}`)).toBe(401);
    expect(await open(`/ws/${w.b.uuid}/${w.users.adminA.uuid}?token=${w.users.adminA.token}`)).toBe(403);
    expect(await open(`/ws/${w.a.uuid}/${w.users.adminB.uuid}?token=${w.users.adminA.token}`)).toBe(403);
  });

  it('words its refusals in the locale query parameter or X-Locale', async () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'GET', url, headers });
    const noToken = `/ws/${w.a.uuid}/${w.users.adminA.uuid}`;
    const foreign = `/ws/${w.b.uuid}/${w.users.adminA.uuid}?token=${w.users.adminA.token}`;
    expect((await get(noToken)).json()).toEqual({ message: 'Unauthenticated.' });
    expect((await get(`${noToken}?locale=ar`)).json()).toEqual({ message: 'غير مصادق.' });
    expect((await get(noToken, { 'x-locale': 'ar' })).json()).toEqual({ message: 'غير مصادق.' });
    expect((await get(`${noToken}?locale=en`, { 'x-locale': 'ar' })).json()).toEqual({
      message: 'Unauthenticated.',
    });
    const r = await get(`${foreign}&locale=ar`);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual({ message: 'هذا الإجراء غير مصرح به.' });
    expect((await get(foreign)).json()).toEqual({ message: 'This action is unauthorized.' });
  });

  it('answers pong and delivers events only to users allowed to see the vehicle', async () => {
    const admin = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?token=${w.users.adminA.token}`);
    const branch1 = await open(`/ws/${w.a.uuid}/${w.users.branchA1.uuid}`, {
      authorization: `Bearer ${w.users.branchA1.token}`,
    });
    const other = await open(`/ws/${w.b.uuid}/${w.users.adminB.uuid}?token=${w.users.adminB.token}`);
    if (typeof admin === 'number' || typeof branch1 === 'number' || typeof other === 'number')
      throw new Error('not open');
    admin.ws.send(JSON.stringify({ event: 'ping' }));
    admin.ws.send('not json');
    await until(() => admin.messages.length > 0);
    expect(admin.messages[0]).toEqual({ event: 'pong' });
    admin.messages.length = 0;
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'device-location',
      path: vehicleA2,
      vehicle_uuid: vehicleA2,
      data: loc(vehicleA2, 1),
    });
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'device-location',
      path: vehicleA1,
      vehicle_uuid: vehicleA1,
      data: loc(vehicleA1, 2),
    });
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'notification',
      path: 'notifications',
      user_uuid: w.users.branchA1.uuid,
      data: note(),
    });
    await until(() => admin.messages.length >= 2 && branch1.messages.length >= 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(admin.messages).toEqual([
      { event: 'device-location', path: vehicleA2, data: loc(vehicleA2, 1) },
      { event: 'device-location', path: vehicleA1, data: loc(vehicleA1, 2) },
    ]);
    expect(branch1.messages).toEqual([
      { event: 'device-location', path: vehicleA1, data: loc(vehicleA1, 2) },
      { event: 'notification', path: 'notifications', data: note() },
    ]);
    expect(other.messages).toEqual([]);
    for (const c of [admin, branch1, other]) c.ws.close();
    await until(() => h.app.ctx.hub!.size === 0);
    expect(h.app.ctx.hub!.size).toBe(0);
  });

  it('words an alert notification in the language of each socket', async () => {
    const q = `token=${w.users.adminA.token}`;
    const ar = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?${q}&locale=ar`);
    const en = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?${q}&locale=en`);
    if (typeof ar === 'number' || typeof en === 'number') throw new Error('not open');
    const data = note({
      title: 'Overspeed',
      message: 'A1 was driving at 93 km/h, over the 80 km/h limit.',
      data: {
        title_key: 'alerts.overspeed.title',
        message_key: 'alerts.overspeed.message',
        params: { plate: 'A1', speed: 93, limit: 80 },
      },
    });
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'notification',
      path: 'notifications',
      user_uuid: w.users.adminA.uuid,
      data,
    });
    await until(() => ar.messages.length > 0 && en.messages.length > 0);
    const [arEvent] = ar.messages as { data: typeof data }[];
    const [enEvent] = en.messages as { data: typeof data }[];
    expect(arEvent!.data.title).toBe('تجاوز السرعة');
    expect(arEvent!.data.message).toBe('كانت المركبة A1 تسير بسرعة 93 كم/س متجاوزة الحد 80 كم/س.');
    expect(arEvent!.data.uuid).toBe(data.uuid);
    expect(enEvent!.data).toEqual(data);
    for (const c of [ar, en]) c.ws.close();
    await until(() => h.app.ctx.hub!.size === 0);
  });

  it('sends a burst as a few frames carrying many vehicles, with the same final state (issue 13)', async () => {
    const fleet = await h.storage.db.query<{ uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number)
         SELECT $1, 'B' || g FROM generate_series(1, 50) AS g RETURNING uuid`,
      [w.a.id],
    );
    const admin = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?token=${w.users.adminA.token}`);
    if (typeof admin === 'number') throw new Error('not open');
    // A burst: 50 vehicles report 4 times each (200 records), as the gateway publishes them.
    const published: LiveLocation[] = [];
    const sends: Promise<void>[] = [];
    for (let round = 0; round < 4; round++) {
      for (const [i, v] of fleet.entries()) {
        const data = loc(v.uuid, round * 10 + (i % 10), `2026-11-21T08:00:0${round}.000Z`);
        published.push(data);
        sends.push(
          publishRealtime(h.bus, {
            company_uuid: w.a.uuid,
            event: 'device-location',
            path: v.uuid,
            vehicle_uuid: v.uuid,
            data,
          }),
        );
      }
    }
    await Promise.all(sends);
    await until(() => admin.messages.length >= published.length);
    await new Promise((r) => setTimeout(r, 50));
    // Every record arrived, each as its own message of the contract, in order per vehicle ...
    expect(admin.messages).toHaveLength(published.length);
    const got = admin.messages as { path: string; data: LiveLocation }[];
    for (const v of fleet) {
      expect(got.filter((m) => m.path === v.uuid).map((m) => m.data)).toEqual(
        published.filter((p) => p.vehicle_uuid === v.uuid),
      );
    }
    // ... in far fewer frames than records ...
    expect(admin.frames).toBeLessThanOrEqual(published.length / 20);
    // ... and the final state per vehicle is the last record published for it.
    const last = new Map<string, LiveLocation>();
    for (const m of got) last.set(m.path, m.data);
    for (const v of fleet) {
      expect(last.get(v.uuid)).toEqual(published.filter((p) => p.vehicle_uuid === v.uuid).at(-1));
    }
    admin.ws.close();
    await until(() => h.app.ctx.hub!.size === 0);
  });
});
