import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
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

function open(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ ws: WebSocket; messages: unknown[] } | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base}${path}`, { headers });
    const messages: unknown[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
    ws.on('open', () => resolve({ ws, messages }));
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
      data: { speed: 1 },
    });
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'device-location',
      path: vehicleA1,
      vehicle_uuid: vehicleA1,
      data: { speed: 2 },
    });
    await publishRealtime(h.bus, {
      company_uuid: w.a.uuid,
      event: 'notification',
      path: 'notifications',
      user_uuid: w.users.branchA1.uuid,
      data: { title: 'x' },
    });
    await until(() => admin.messages.length >= 2 && branch1.messages.length >= 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(admin.messages).toEqual([
      { event: 'device-location', path: vehicleA2, data: { speed: 1 } },
      { event: 'device-location', path: vehicleA1, data: { speed: 2 } },
    ]);
    expect(branch1.messages).toEqual([
      { event: 'device-location', path: vehicleA1, data: { speed: 2 } },
      { event: 'notification', path: 'notifications', data: { title: 'x' } },
    ]);
    expect(other.messages).toEqual([]);
    for (const c of [admin, branch1, other]) c.ws.close();
    await until(() => h.app.ctx.hub.size === 0);
    expect(h.app.ctx.hub.size).toBe(0);
  });

  it('words an alert notification in the language of each socket', async () => {
    const q = `token=${w.users.adminA.token}`;
    const ar = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?${q}&locale=ar`);
    const en = await open(`/ws/${w.a.uuid}/${w.users.adminA.uuid}?${q}&locale=en`);
    if (typeof ar === 'number' || typeof en === 'number') throw new Error('not open');
    const data = {
      uuid: '00000000-0000-4000-8000-000000000001',
      title: 'Overspeed',
      message: 'A1 was driving at 93 km/h, over the 80 km/h limit.',
      data: {
        title_key: 'alerts.overspeed.title',
        message_key: 'alerts.overspeed.message',
        params: { plate: 'A1', speed: 93, limit: 80 },
      },
    };
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
    await until(() => h.app.ctx.hub.size === 0);
  });
});
