// Devices as they are in the field (issue 19), through the real gateway over loopback TCP/HTTP into the
// API. Every frame here is written by hand after the public layouts (not by our encoders).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGoSafeSession, createIStartekSession, type DecodeResult } from '@fleet/device-protocols';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { startGateway, type Gateway } from './gateway';
import { addDevices, RawClient, waitFor, GATEWAY_TEST_ENV } from './test-helpers';
import { replayDecoders } from './replay';

const GATEWAY_ENV = GATEWAY_TEST_ENV;

let h: Harness;
let w: World;
let gw: Gateway | undefined;
beforeAll(async () => {
  h = await createHarness('field-devices', GATEWAY_ENV);
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const start = () =>
  startGateway({ config: h.config, storage: h.storage, bus: h.bus, counterFlushMs: 0 }).then((g) => (gw = g));

const latin1 = (t: string) => Buffer.from(t, 'latin1');
const sum8 = (t: string) => {
  let s = 0;
  for (const c of latin1(t)) s += c;
  return (s & 0xff).toString(16).toUpperCase().padStart(2, '0');
};
function istartek(imei: string, index: string, type: string, content: string): Buffer {
  const body = `,${imei},${type},${content}`;
  const head = `&&${index}${body.length}${body}`;
  return latin1(`${head}${sum8(head)}\r\n`);
}
function istartekReply(imei: string, index: string, type: string, n: number): string {
  const body = `,${imei},${type},${n}`;
  const head = `$$${index}${body.length}${body}`;
  return `${head}${sum8(head)}\r\n`;
}
function kermit(bytes: number[]): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc & 0xffff;
}
const be = (n: number, size: number) =>
  Array.from({ length: size }, (_, i) => (n >>> ((size - 1 - i) * 8)) & 0xff);
function ruptela(imei: string, command: number, body: number[]): Buffer {
  const id = BigInt(imei);
  const inner = [
    ...Array.from({ length: 8 }, (_, i) => Number((id >> BigInt((7 - i) * 8)) & 0xffn)),
    command,
    ...body,
  ];
  return Buffer.from([...be(inner.length, 2), ...inner, ...be(kermit(inner), 2)]);
}
/** Ruptela command-1 record: Dubai Marina, 42 km/h, DIN1..DIN4 as given, AIN2 in mV. */
function ruptelaRecord(t: number, din: [number, number, number, number], ain2 = 0): number[] {
  return [
    ...be(t, 4),
    0,
    0,
    ...be(Math.round(55.18072 * 1e7), 4),
    ...be(Math.round(25.07836 * 1e7), 4),
    ...be(125, 2),
    ...be(27500, 2),
    11,
    ...be(42, 2),
    9,
    0,
    4,
    ...[2, din[0]],
    ...[3, din[1]],
    ...[4, din[2]],
    ...[5, din[3]],
    1,
    ...[23, ...be(ain2, 2)],
    0,
    0,
  ];
}
const RUPTELA_ACK = '0002640113bc';

const T0 = Date.UTC(2026, 10, 18, 10, 0, 0);
const ISTARTEK_POSITION =
  '0,,261118100000,A,25.078360,55.180720,12,0.8,54,90,12,123456,424|2|2B0C|00A1B2C3,28,0000001D,02,01,04B0|0190|0000|0000,1';

interface ApiLocation {
  created_at: string;
  ignition: 0 | 1;
  latitude: number | null;
  longitude: number | null;
  speed: number;
  io_elements: Record<string, { value: number | string }>;
}

async function apiLocations(vehicleUuid: string): Promise<ApiLocation[]> {
  const r = await call(h.app, {
    method: 'GET',
    url: `/v1/device-locations/vehicle/locations?vehicle_uuid=${vehicleUuid}&from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z&limit=500`,
    token: w.users.adminA.token,
    company: w.a.uuid,
  });
  expect(r.statusCode).toBe(200);
  return (r.json() as { data: ApiLocation[] }).data;
}

const rawFrames = async (deviceUuid: string, token = w.users.super.token) =>
  call(h.app, { method: 'GET', url: `/v1/devices/${deviceUuid}/raw-frames`, token, company: w.a.uuid });

async function replay(deviceUuid: string) {
  const r = await call(h.app, {
    method: 'POST',
    url: `/v1/devices/${deviceUuid}/raw-frames/replay`,
    token: w.users.super.token,
    company: w.a.uuid,
    body: {},
  });
  expect(r.statusCode).toBe(200);
  return (r.json() as { data: { result: string; stored: number; reason: string | null }[] }).data;
}

/** Runs `fn` with one protocol's replay decoder swapped (a decoder update), restoring it after. */
async function withDecoder<T>(
  protocol: string,
  decoder: (bytes: Uint8Array, imei: string) => DecodeResult,
  fn: () => Promise<T>,
): Promise<T> {
  const before = replayDecoders[protocol]!;
  replayDecoders[protocol] = decoder;
  try {
    return await fn();
  } finally {
    replayDecoders[protocol] = before;
  }
}

describe('field variants through the gateway into the API', () => {
  it('iStartek 000, 010 (answered as the vendor document requires) and 020 are stored', async () => {
    const g = await start();
    const imei = '868703050178631';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'istartek' }])).devices;
    const c = new RawClient(g.ports.istartek!);
    await c.send(istartek(imei, 'q', '010', ISTARTEK_POSITION));
    expect((await c.take(istartekReply(imei, 'q', '010', 1).length)).toString('latin1')).toBe(
      istartekReply(imei, 'q', '010', 1),
    );
    const later = ISTARTEK_POSITION.replace('261118100000', '261118100030').replace(',02,01,', ',00,01,');
    const latest = ISTARTEK_POSITION.replace('261118100000', '261118100100');
    await c.send(istartek(imei, 'r', '020', `${later}\r\n${latest}`));
    expect((await c.take(istartekReply(imei, 'r', '020', 2).length)).toString('latin1')).toBe(
      istartekReply(imei, 'r', '020', 2),
    );
    await c.send(istartek(imei, 's', '000', ISTARTEK_POSITION.replace('261118100000', '261118100200')));
    await waitFor(async () => (await apiLocations(dev!.vehicleUuid)).length === 4, 5000, '4 stored');
    const locs = (await apiLocations(dev!.vehicleUuid)).sort((a, b) =>
      a.created_at.localeCompare(b.created_at),
    );
    expect(locs[0]).toMatchObject({
      created_at: new Date(T0).toISOString(),
      ignition: 1,
      latitude: 25.07836,
      longitude: 55.18072,
      speed: 54,
    });
    expect(locs[0]!.io_elements['16']).toEqual({ value: 123456 });
    expect(locs[0]!.io_elements['66']).toEqual({ value: 12000 });
    expect(locs[1]!.ignition).toBe(0);
    expect(c.received.length).toBe(0); // 000 is not answered
    c.close();
  });

  it('GoSafe tag-first layout (GPS with time, STT/MGR/ADC) is stored with ignition, odometer and supply', async () => {
    const g = await start();
    const imei = '358696043774648';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'gosafe' }])).devices;
    const c = new RawClient(g.ports.gosafe!);
    await c.send(
      latin1(
        `*GS02,${imei},GPS:100000;2;N25.078360;E55.180720;42;275;1.10;181126,STT:104;0,MGR:1234567,ADC:0;12.6;1;31.5;2;4.1#`,
      ),
    );
    expect((await c.take(4)).toString('latin1')).toBe('1234');
    const [loc] = await waitFor(async () => {
      const l = await apiLocations(dev!.vehicleUuid);
      return l.length === 1 ? l : null;
    });
    expect(loc).toMatchObject({
      created_at: new Date(T0).toISOString(),
      ignition: 1,
      latitude: 25.07836,
      speed: 42,
    });
    expect(loc!.io_elements['16']).toEqual({ value: 1234567 });
    expect(loc!.io_elements['66']).toEqual({ value: 12600 });
    c.close();
  });

  it('Ruptela command-1: DIN4 is the ignition by default, DIN3 after a sensor setting', async () => {
    const g = await start();
    const imei = '868204005544720';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'ruptela' }])).devices;
    const c = new RawClient(g.ports.ruptela!);
    const t = T0 / 1000;
    await c.send(ruptela(imei, 1, [0, 1, ...ruptelaRecord(t, [0, 0, 0, 1], 3300)]));
    expect((await c.take(6)).toString('hex')).toBe(RUPTELA_ACK);
    // The installer wired ignition to DIN3: the setting applies from T0 + 60 s.
    const put = await call(h.app, {
      method: 'PUT',
      url: `/v1/devices/${dev!.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { ignition_io: 3, effective_from: new Date(T0 + 60_000).toISOString() },
    });
    expect(put.statusCode).toBe(200);
    g.sensors.invalidate();
    await c.send(ruptela(imei, 1, [0, 1, ...ruptelaRecord(t + 120, [0, 0, 1, 0])]));
    expect((await c.take(6)).toString('hex')).toBe(RUPTELA_ACK);
    const locs = await waitFor(async () => {
      const l = await apiLocations(dev!.vehicleUuid);
      return l.length === 2 ? l.sort((a, b) => a.created_at.localeCompare(b.created_at)) : null;
    });
    expect(locs.map((l) => l.ignition)).toEqual([1, 1]);
    expect(locs[0]!.io_elements).toMatchObject({ '4': { value: 1 }, '10': { value: 3300 } });
    expect(locs[1]!.io_elements).toMatchObject({ '3': { value: 1 }, '4': { value: 0 } });
    c.close();
  });

  it('an OsmAnd phone can be registered as such and reports', async () => {
    const g = await start();
    const created = await call(h.app, {
      method: 'POST',
      url: '/v1/devices',
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { imei: 'phone4711', type: 'osmand' },
    });
    expect(created.statusCode).toBe(201);
    const res = await fetch(
      `http://127.0.0.1:${g.ports.osmand}/?id=phone4711&lat=25.07836&lon=55.18072&timestamp=${T0 / 1000}&speed=10`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
    const n = await h.storage.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM locations l JOIN devices d ON d.id = l.device_id WHERE d.imei = 'phone4711'`,
    );
    expect(n[0]!.n).toBe(1);
  });
});

describe('nothing acknowledged that is not stored; archive and replay', () => {
  it('GoSafe: an undecodable message is not answered, is archived with its bytes, and stored after a decoder update + replay', async () => {
    const g = await start();
    const imei = '358696043774648';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'gosafe' }])).devices;
    const bad = `*GS02,${imei},GPS:100000;2;N25.078360;E55.180720;42;275;1.10;181126,MGR:12k#`;
    const good = `*GS02,${imei},GPS:100100;3;N25.079000;E55.181000;40;270;1.0;181126#`;
    const c = new RawClient(g.ports.gosafe!);
    await c.send(latin1(bad + good));
    // Exactly one answer: the good message's.
    expect((await c.take(4)).toString('latin1')).toBe('1234');
    await waitFor(async () => (await apiLocations(dev!.vehicleUuid)).length === 1, 5000, 'good stored');
    const frames = await waitFor(async () => {
      const r = await rawFrames(dev!.uuid);
      const d = (r.json() as { data: { bytes_hex: string; reason: string; remote_address: string }[] }).data;
      return d.length === 1 ? d : null;
    });
    expect(Buffer.from(frames[0]!.bytes_hex, 'hex').toString('latin1')).toBe(bad);
    expect(frames[0]!.reason).toMatch(/MGR/);
    expect(frames[0]!.remote_address).toMatch(/^127\.0\.0\.1:/);
    expect(c.received.length).toBe(0);
    // Only super admins see the archive.
    expect((await rawFrames(dev!.uuid, w.users.adminA.token)).statusCode).toBe(403);
    // Replay with today's decoder: still undecodable, nothing stored.
    expect((await replay(dev!.uuid))[0]).toMatchObject({ result: 'undecodable', stored: 0 });
    // A decoder update that reads a kilometre-suffixed MGR: the frame is stored on replay.
    const updated = await withDecoder(
      'gosafe',
      (bytes) =>
        createGoSafeSession().decode(
          latin1(Buffer.from(bytes).toString('latin1').replace('MGR:12k', 'MGR:12000')),
        ),
      () => replay(dev!.uuid),
    );
    expect(updated[0]).toMatchObject({ result: 'stored', stored: 1 });
    const locs = await apiLocations(dev!.vehicleUuid);
    expect(locs).toHaveLength(2);
    expect(locs.map((l) => l.created_at)).toContain(new Date(T0).toISOString());
    expect(locs.find((l) => l.created_at === new Date(T0).toISOString())!.io_elements['16']).toEqual({
      value: 12000,
    });
    // Replaying again stores nothing twice.
    const again = await withDecoder(
      'gosafe',
      (bytes) =>
        createGoSafeSession().decode(
          latin1(Buffer.from(bytes).toString('latin1').replace('MGR:12k', 'MGR:12000')),
        ),
      () => replay(dev!.uuid),
    );
    expect(again[0]).toMatchObject({ result: 'stored', stored: 0 });
    // Counters: decoded 1, refused 1, archived 1 (after the gateway flushed on close).
    await g.close();
    gw = undefined;
    const counters = await call(h.app, {
      method: 'GET',
      url: `/v1/devices/${dev!.uuid}/frame-counters`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect((counters.json() as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ protocol: 'gosafe', decoded: 1, refused: 1, archived: 1 }),
    ]);
    c.close();
  });

  it('iStartek: an undecodable 010 is not answered, archived, and stored after a decoder update + replay', async () => {
    const g = await start();
    const imei = '868703050178631';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'istartek' }])).devices;
    const bad = istartek(
      imei,
      'a',
      '010',
      ISTARTEK_POSITION.replace('261118100000', '261118100500').replace('25.078360', '25,078360'),
    );
    const c = new RawClient(g.ports.istartek!);
    await c.send(bad);
    const frames = await waitFor(async () => {
      const d = ((await rawFrames(dev!.uuid)).json() as { data: { bytes_hex: string }[] }).data;
      return d.length === 1 ? d : null;
    });
    expect(Buffer.from(frames[0]!.bytes_hex, 'hex').equals(bad)).toBe(true);
    // The connection stays usable: a good frame after it is answered (and only that one).
    await c.send(istartek(imei, 'b', '010', ISTARTEK_POSITION));
    expect((await c.take(istartekReply(imei, 'b', '010', 1).length)).toString('latin1')).toBe(
      istartekReply(imei, 'b', '010', 1),
    );
    expect(c.received.length).toBe(0);
    const out = await withDecoder(
      'istartek',
      (bytes) => {
        // Updated decoder: accepts a decimal comma inside the latitude by re-framing the content.
        const text = Buffer.from(bytes).toString('latin1');
        const content = text
          .slice(text.indexOf(',010,') + 5, text.length - 4)
          .replace('25,078360', '25.078361');
        return createIStartekSession().decode(istartek(imei, 'a', '010', content));
      },
      () => replay(dev!.uuid),
    );
    expect(out[0]).toMatchObject({ result: 'stored', stored: 1 });
    const locs = await apiLocations(dev!.vehicleUuid);
    expect(locs.map((l) => l.latitude).sort()).toEqual([25.07836, 25.078361]);
    c.close();
  });

  it('Ruptela: a frame with an unknown command is not answered and archived; stored after replay', async () => {
    const g = await start();
    const imei = '868204005544720';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'ruptela' }])).devices;
    const unknown = ruptela(imei, 99, [0, 1, ...ruptelaRecord(T0 / 1000, [0, 0, 0, 1])]);
    const c = new RawClient(g.ports.ruptela!);
    await c.send(unknown);
    await waitFor(async () => ((await rawFrames(dev!.uuid)).json() as { data: unknown[] }).data.length === 1);
    await c.send(ruptela(imei, 1, [0, 1, ...ruptelaRecord(T0 / 1000 + 30, [0, 0, 0, 0])]));
    expect((await c.take(6)).toString('hex')).toBe(RUPTELA_ACK);
    expect(c.received.length).toBe(0);
    const frames = ((await rawFrames(dev!.uuid)).json() as { data: { bytes_hex: string }[] }).data;
    expect(Buffer.from(frames[0]!.bytes_hex, 'hex').equals(unknown)).toBe(true);
    // Decoder update: command 99 is a records message of a new firmware.
    const out = await withDecoder(
      'ruptela',
      (bytes) => rewriteCommand(bytes),
      () => replay(dev!.uuid),
    );
    expect(out[0]).toMatchObject({ result: 'stored', stored: 1 });
    expect(await apiLocations(dev!.vehicleUuid)).toHaveLength(2);
    c.close();
  });

  it('Teltonika: a frame of an unknown codec closes the connection unanswered and is archived', async () => {
    const g = await start();
    const imei = '356307042441013';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }])).devices;
    const c = new RawClient(g.ports.teltonika!);
    const handshake = Buffer.from([0x00, 0x0f, ...latin1(imei)]);
    await c.send(handshake);
    expect([...(await c.take(1))]).toEqual([1]);
    // Preamble, data length 4, codec 0x99, count 1, one byte, count 1, CRC-16/IBM over the data field.
    const data = [0x99, 0x01, 0xaa, 0x01];
    let crc = 0;
    for (const b of data) {
      crc ^= b;
      for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
    }
    const frame = Buffer.from([0, 0, 0, 0, ...be(data.length, 4), ...data, ...be(crc, 4)]);
    await c.send(frame);
    await waitFor(() => c.closed, 5000, 'close');
    expect(c.received.length).toBe(0);
    const frames = ((await rawFrames(dev!.uuid)).json() as { data: { bytes_hex: string; reason: string }[] })
      .data;
    expect(frames).toHaveLength(1);
    expect(Buffer.from(frames[0]!.bytes_hex, 'hex').equals(frame)).toBe(true);
    expect(frames[0]!.reason).toMatch(/codec/);
    // Replayed with today's decoder it stays undecodable (and says why).
    expect((await replay(dev!.uuid))[0]).toMatchObject({ result: 'undecodable', stored: 0 });
  });

  it('OsmAnd: a request without a position gets 400, is archived under the device and stored after replay', async () => {
    const g = await start();
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei: 'phone4712', type: 'osmand' }])).devices;
    const res = await fetch(
      `http://127.0.0.1:${g.ports.osmand}/?id=phone4712&latitude=25.07836&longitude=55.18072&timestamp=${T0 / 1000}`,
      { method: 'POST' },
    );
    expect(res.status).toBe(400);
    const frames = await waitFor(async () => {
      const d = ((await rawFrames(dev!.uuid)).json() as { data: { bytes_hex: string }[] }).data;
      return d.length === 1 ? d : null;
    });
    expect(Buffer.from(frames[0]!.bytes_hex, 'hex').toString()).toContain('latitude=25.07836');
    const out = await withDecoder(
      'osmand',
      (bytes, imei) => osmandWithLongNames(bytes, imei),
      () => replay(dev!.uuid),
    );
    expect(out[0]).toMatchObject({ result: 'stored', stored: 1 });
    expect(await apiLocations(dev!.vehicleUuid)).toHaveLength(1);
  });
});

// "Decoder updates" used by the replay tests: today's decoders after a small, named change.
const baseRuptela = replayDecoders['ruptela']!;
function rewriteCommand(bytes: Uint8Array): DecodeResult {
  const b = [...bytes];
  if (b[10] !== 99) return baseRuptela(bytes, '');
  b[10] = 1;
  const inner = b.slice(2, b.length - 2);
  const crc = kermit(inner);
  b[b.length - 2] = crc >> 8;
  b[b.length - 1] = crc & 0xff;
  return baseRuptela(Uint8Array.from(b), '');
}
const baseOsmand = replayDecoders['osmand']!;
function osmandWithLongNames(bytes: Uint8Array, imei: string): DecodeResult {
  const text = Buffer.from(bytes).toString('utf8').replace('latitude=', 'lat=').replace('longitude=', 'lon=');
  return baseOsmand(Buffer.from(text), imei);
}

describe('MQTT JSON: archive and replay', () => {
  const mqttUrl = process.env.MQTT_URL;
  it.skipIf(!mqttUrl)(
    'a payload that does not validate is archived under the topic IMEI and stored after a decoder update + replay (MQTT_URL)',
    async () => {
      const topicRoot = `fleet-i19-${process.pid}`;
      const g = await startGateway({
        config: { ...h.config, MQTT_URL: mqttUrl!, MQTT_TOPIC: `${topicRoot}/+/location` },
        storage: h.storage,
        bus: h.bus,
        counterFlushMs: 0,
      });
      gw = g;
      const imei = '861234567899999';
      const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'mqtt' }])).devices;
      const mqtt = await import('mqtt');
      const pub = await mqtt.connectAsync(mqttUrl!);
      try {
        // Written by hand: a firmware that names the coordinates lat/lng and the time in seconds.
        const payload = JSON.stringify({ lat: 25.07836, lng: 55.18072, ts: T0 / 1000, speed: 30 });
        await pub.publishAsync(`${topicRoot}/${imei}/location`, payload, { qos: 1 });
        const frames = await waitFor(async () => {
          const d = ((await rawFrames(dev!.uuid)).json() as { data: { bytes_hex: string }[] }).data;
          return d.length === 1 ? d : null;
        });
        expect(Buffer.from(frames[0]!.bytes_hex, 'hex').toString()).toBe(payload);
        const out = await withDecoder(
          'mqtt',
          (bytes, i) => {
            // Decoder update: also reads `lng` and a `ts` in epoch seconds.
            const p = JSON.parse(Buffer.from(bytes).toString()) as Record<string, number>;
            const mapped = { lat: p['lat'], lon: p['lng'], time: (p['ts'] ?? 0) * 1000, speed: p['speed'] };
            return baseMqtt(Buffer.from(JSON.stringify(mapped)), i);
          },
          () => replay(dev!.uuid),
        );
        expect(out[0]).toMatchObject({ result: 'stored', stored: 1 });
        const [loc] = await apiLocations(dev!.vehicleUuid);
        expect(loc).toMatchObject({ latitude: 25.07836, longitude: 55.18072, speed: 30 });
      } finally {
        await pub.endAsync();
      }
    },
  );
});

describe('fuzz through the gateway: no acknowledgement without a stored record', () => {
  it('GoSafe and iStartek 010: seeded mutations; every answer stands for a stored frame, every refusal is archived', async () => {
    const g = await start();
    const gsImei = '358696043775555';
    const isImei = '868703050175555';
    const [gsDev, isDev] = (
      await addDevices(h.storage.db, w.a.id, [
        { imei: gsImei, type: 'gosafe' },
        { imei: isImei, type: 'istartek' },
      ])
    ).devices;
    let seed = 19;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const corrupt = (text: string) => {
      // Replace one character of the content (never the frame markers) by a letter.
      const at = 20 + rnd(text.length - 24);
      return text.slice(0, at) + 'xQ#,;'[rnd(4)]!.replace('#', 'Z') + text.slice(at + 1);
    };
    const N = 40;
    let gsSent = '';
    let isSent = Buffer.alloc(0);
    const isReplies: string[] = [];
    for (let i = 0; i < N; i++) {
      const mm = String(Math.floor(i / 60)).padStart(2, '0');
      const ss = String(i % 60).padStart(2, '0');
      let gs = `*GS02,${gsImei},GPS:10${mm}${ss};3;N25.0${String(i).padStart(4, '0')};E55.180720;${i};90;1.0;181126,MGR:${1000 + i}#`;
      let is = ISTARTEK_POSITION.replace('261118100000', `26111810${mm}${ss}`);
      if (rnd(3) === 0) gs = corrupt(gs);
      if (rnd(3) === 0) is = corrupt(is);
      gsSent += gs;
      const index = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'[i]!;
      isSent = Buffer.concat([isSent, istartek(isImei, index, '010', is)]);
      isReplies.push(istartekReply(isImei, index, '010', 1));
    }
    const gc = new RawClient(g.ports.gosafe!);
    const ic = new RawClient(g.ports.istartek!);
    await gc.send(latin1(gsSent));
    await ic.send(isSent);
    const stored = async (deviceId: number) =>
      (
        await h.storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM locations WHERE device_id = $1`,
          [deviceId],
        )
      )[0]!.n;
    const archived = async (deviceId: number) =>
      (
        await h.storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM raw_frames WHERE device_id = $1`,
          [deviceId],
        )
      )[0]!.n;
    // Every frame ends up stored or archived (the connection stays up through undecodable frames).
    await waitFor(
      async () => (await stored(gsDev!.id)) + (await archived(gsDev!.id)) === N,
      10_000,
      'gosafe',
    );
    await waitFor(
      async () => (await stored(isDev!.id)) + (await archived(isDev!.id)) === N,
      10_000,
      'istartek',
    );
    await g.close();
    gw = undefined;
    // Everything written before the close is delivered before it.
    await waitFor(() => gc.closed && ic.closed, 5000, 'closed');
    // Answers: exactly one per stored frame, none for the archived ones.
    const gsAcks = gc.received.toString('latin1');
    expect(gsAcks).toBe('1234'.repeat(await stored(gsDev!.id)));
    const isAcks = ic.received.toString('latin1');
    const expected = isReplies.filter((_, i) => isAcks.includes(isReplies[i]!));
    expect(isAcks).toBe(expected.join(''));
    expect(expected.length).toBe(await stored(isDev!.id));
    expect(await archived(gsDev!.id)).toBeGreaterThan(0);
    expect(await archived(isDev!.id)).toBeGreaterThan(0);
  });
});

describe('gateway hygiene', () => {
  it('a fix time beyond GATEWAY_MAX_FUTURE_S is stored flagged: answered, kept, never the latest position', async () => {
    const g = await startGateway({
      config: { ...h.config, GATEWAY_MAX_FUTURE_S: 3600 },
      storage: h.storage,
      bus: h.bus,
      counterFlushMs: 0,
    });
    gw = g;
    const imei = '358696043770001';
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei, type: 'gosafe' }])).devices;
    const c = new RawClient(g.ports.gosafe!);
    await c.send(latin1(`*GS02,${imei},GPS:120000;3;N25.078360;E55.180720;42;275;1.0;311235#`));
    expect((await c.take(4)).toString('latin1')).toBe('1234');
    const rows = await waitFor(async () => {
      const r = await h.storage.db.query<{ valid: boolean }>(
        `SELECT valid FROM locations WHERE device_id = $1`,
        [dev!.id],
      );
      return r.length === 1 ? r : null;
    });
    expect(rows[0]!.valid).toBe(false);
    const latest = await h.storage.db.query(`SELECT 1 FROM latest_locations WHERE device_id = $1`, [dev!.id]);
    expect(latest).toHaveLength(0);
    c.close();
  });

  it('unknown IMEIs from one address are throttled after the per-minute limit and still counted', async () => {
    const g = await startGateway({
      config: { ...h.config, GATEWAY_UNKNOWN_PER_IP_PER_MIN: 2 },
      storage: h.storage,
      bus: h.bus,
      counterFlushMs: 0,
    });
    gw = g;
    const imei = '356307042449999';
    const hello = Buffer.from([0x00, 0x0f, ...latin1(imei)]);
    for (let i = 0; i < 2; i++) {
      const c = new RawClient(g.ports.teltonika!);
      await c.send(hello);
      expect([...(await c.take(1))]).toEqual([0]);
      await waitFor(() => c.closed, 3000, 'close');
    }
    // Third attempt within the minute: closed at once, nothing decoded or answered.
    const c = new RawClient(g.ports.teltonika!);
    await c.send(hello).catch(() => undefined);
    await waitFor(() => c.closed, 3000, 'close');
    expect(c.received.length).toBe(0);
    await g.close();
    gw = undefined;
    const list = await call(h.app, {
      method: 'GET',
      url: '/v1/devices/unknown',
      token: w.users.super.token,
      company: w.a.uuid,
    });
    const row = (list.json() as { data: { imei: string; attempts: number }[] }).data.find(
      (d) => d.imei === imei,
    );
    expect(row?.attempts).toBe(3);
  });
});
const baseMqtt = replayDecoders['mqtt']!;
