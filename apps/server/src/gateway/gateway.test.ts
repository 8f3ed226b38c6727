import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  encodeMqttLocation,
  encodeTeltonikaUdp,
  IO,
  type DecodedRecord,
} from '@fleet/device-protocols';
import { liveLocationSchema } from '@fleet/api-client';
import { createSocket } from 'node:dgram';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { startGateway, type Gateway } from './gateway';
import { startSimulatedFleet, simulatedImei } from '../simulator/fleet';
import { addDevices, hubClient, RawClient, waitFor, GATEWAY_TEST_ENV } from './test-helpers';
import type { Storage } from '../storage/storage';
import { patterns, subscribeOn } from '../realtime/bus';

const GATEWAY_ENV = GATEWAY_TEST_ENV;

let h: Harness;
let w: World;
let gw: Gateway | undefined;
beforeAll(async () => {
  h = await createHarness('gateway', GATEWAY_ENV);
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

const start = (storage: Harness['storage'] = h.storage) =>
  startGateway({ config: h.config, storage, bus: h.bus }).then((g) => (gw = g));

function record(imei: string, fixTime: number, extra: Partial<DecodedRecord> = {}): DecodedRecord {
  return {
    imei,
    protocol: 'teltonika',
    fixTime,
    valid: true,
    latitude: 25.2,
    longitude: 55.27,
    altitude: 10,
    speed: 42,
    course: 90,
    satellites: 9,
    eventId: 0,
    io: { [IO.ignition]: 1, [IO.digitalOutput1]: 0, [IO.fuelLevel]: 55 },
    ...extra,
  };
}

const countLocations = async (deviceId?: number) =>
  (
    await h.storage.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM locations ${deviceId ? 'WHERE device_id = $1' : ''}`,
      deviceId ? [deviceId] : [],
    )
  )[0]!.n;

describe('gateway ingest', () => {
  it('a simulated fleet of every protocol over loopback TCP (and UDP) shows up in storage and on the hub', async () => {
    const g = await start();
    const list = [
      { imei: simulatedImei(1), type: 'teltonika' },
      { imei: simulatedImei(2), type: 'ruptela' },
      { imei: simulatedImei(3), type: 'gosafe' },
      { imei: simulatedImei(4), type: 'istartek' },
    ] as const;
    const fx = await addDevices(h.storage.db, w.a.id, list);
    const ws = hubClient(h.app.ctx.hub, {
      userId: w.users.adminA.id,
      userUuid: w.users.adminA.uuid,
      companyId: w.a.id,
      companyUuid: w.a.uuid,
    });
    const fleet = startSimulatedFleet({
      devices: list.map((d) => ({ imei: d.imei, protocol: d.type })),
      ports: {
        teltonika: g.ports.teltonika!,
        ruptela: g.ports.ruptela!,
        gosafe: g.ports.gosafe!,
        istartek: g.ports.istartek!,
      },
      intervalMs: 100,
      seed: 7,
      clock: 'virtual',
      virtualStartMs: Date.now() - 600_000,
      virtualStepMs: 1000,
      stagger: false,
    });
    try {
      for (const d of fx.devices) {
        await waitFor(async () => (await countLocations(d.id)) >= 3, 15_000, `${d.type} locations`);
      }
      // Status changes are coalesced by the StatusWriter (one UPDATE per 250 ms window), so the
      // stored status may trail the first records by up to that window: wait for it.
      for (const d of fx.devices) {
        const statusOf = async () =>
          (
            await h.storage.db.query<{ connection_status: string; last_connected_at: Date | null }>(
              'SELECT connection_status, last_connected_at FROM devices WHERE id = $1',
              [d.id],
            )
          )[0]!;
        await waitFor(
          async () => (await statusOf()).connection_status !== 'offline',
          5_000,
          `${d.type} status`,
        );
        const dev = await statusOf();
        expect(['online', 'unplugged']).toContain(dev.connection_status);
        expect(dev.last_connected_at).not.toBeNull();
      }
      // Realtime: every vehicle got device-location envelopes shaped like the contract.
      for (const d of fx.devices) {
        const mine = ws.messages.filter((m) => m.event === 'device-location' && m.path === d.vehicleUuid);
        expect(mine.length, d.type).toBeGreaterThan(0);
        expect(() => liveLocationSchema.parse(mine[0]!.data)).not.toThrow();
      }
      const [row] = await h.storage.db.query<{
        io_elements: Record<string, { value: number }>;
        latitude: number;
      }>('SELECT io_elements, latitude FROM locations WHERE device_id = $1 LIMIT 1', [fx.devices[0]!.id]);
      expect(row!.io_elements['239']).toHaveProperty('value');
      expect(row!.latitude).toBeGreaterThan(20);
    } finally {
      fleet.stop();
      ws.off();
    }
    // Disconnect -> offline.
    await waitFor(
      async () => {
        const rows = await h.storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM devices WHERE connection_status = 'offline'`,
        );
        return rows[0]!.n === fx.devices.length;
      },
      5000,
      'offline status',
    );
  });

  it('Teltonika over UDP is stored and acknowledged', async () => {
    const g = await start();
    const imei = simulatedImei(11);
    const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
    const fleet = startSimulatedFleet({
      devices: [{ imei, protocol: 'teltonika' }],
      ports: { teltonika: g.ports.teltonikaUdp! },
      transport: 'udp',
      intervalMs: 100,
      clock: 'virtual',
      stagger: false,
    });
    try {
      await waitFor(async () => (await countLocations(fx.devices[0]!.id)) >= 3, 10_000, 'udp locations');
      await waitFor(() => fleet.stats().acked >= 3, 5000, 'udp acks');
    } finally {
      fleet.stop();
    }
  });

  it('connectionless devices (UDP, OsmAnd) go offline after a silence and online again when they report', async () => {
    const g = await startGateway({
      config: { ...h.config, GATEWAY_CONNECTIONLESS_OFFLINE_S: 1 },
      storage: h.storage,
      bus: h.bus,
    });
    gw = g;
    const udpImei = simulatedImei(12);
    const httpImei = simulatedImei(13);
    const fx = await addDevices(h.storage.db, w.a.id, [
      { imei: udpImei, type: 'teltonika' },
      { imei: httpImei, type: 'teltonika' },
    ]);
    const statusOf = async (id: number) =>
      (
        await h.storage.db.query<{ connection_status: string | null; last_connected_at: Date | null }>(
          'SELECT connection_status, last_connected_at FROM devices WHERE id = $1',
          [id],
        )
      )[0]!;
    const sock = createSocket('udp4');
    const sendUdp = (packetId: number, at: number) =>
      new Promise<void>((resolve, reject) =>
        sock.send(
          encodeTeltonikaUdp(udpImei, [record(udpImei, at)], { packetId, avlPacketId: packetId }),
          g.ports.teltonikaUdp!,
          '127.0.0.1',
          (err) => (err ? reject(err) : resolve()),
        ),
      );
    try {
      const t0 = Date.now() - 60_000;
      await sendUdp(1, t0);
      const ts = Math.floor(Date.now() / 1000) - 30;
      const ok = await fetch(
        `http://127.0.0.1:${g.ports.osmand}/?id=${httpImei}&lat=25.2&lon=55.27&timestamp=${ts}`,
      );
      expect(ok.status).toBe(200);
      for (const d of fx.devices) {
        await waitFor(async () => (await statusOf(d.id)).connection_status === 'online', 5000, 'online');
      }
      const seenAt = (await statusOf(fx.devices[0]!.id)).last_connected_at;
      for (const d of fx.devices) {
        await waitFor(async () => (await statusOf(d.id)).connection_status === 'offline', 10_000, 'offline');
      }
      // Going offline keeps the last connection time.
      expect((await statusOf(fx.devices[0]!.id)).last_connected_at).toEqual(seenAt);
      await sendUdp(2, t0 + 1000);
      await waitFor(
        async () => (await statusOf(fx.devices[0]!.id)).connection_status === 'online',
        5000,
        'online again',
      );
    } finally {
      sock.close();
    }
  });

  it('at start, devices left shown online by a stopped gateway are marked offline; fresh ones are kept', async () => {
    const fx = await addDevices(h.storage.db, w.a.id, [
      { imei: simulatedImei(14), type: 'teltonika' },
      { imei: simulatedImei(15), type: 'teltonika' },
      { imei: simulatedImei(16), type: 'teltonika' },
    ]);
    const [left, fresh, unplugged] = fx.devices;
    // Idle time-out and connectionless silence 60 s: stale means no sign of life for 60 s + 2 minutes.
    const at = (agoS: number) => new Date(Date.now() - agoS * 1000).toISOString();
    const setStatus = (id: number, status: string, agoS: number) =>
      h.storage.db.query('UPDATE devices SET connection_status = $2, last_connected_at = $3 WHERE id = $1', [
        id,
        status,
        at(agoS),
      ]);
    await setStatus(left!.id, 'online', 3600);
    await setStatus(fresh!.id, 'online', 30);
    await setStatus(unplugged!.id, 'unplugged', 181);
    const leftSeen = (
      await h.storage.db.query<{ t: Date }>('SELECT last_connected_at AS t FROM devices WHERE id = $1', [
        left!.id,
      ])
    )[0]!.t;
    gw = await startGateway({
      config: { ...h.config, GATEWAY_IDLE_TIMEOUT_S: 60, GATEWAY_CONNECTIONLESS_OFFLINE_S: 60 },
      storage: h.storage,
      bus: h.bus,
    });
    const statusOf = async (id: number) =>
      (
        await h.storage.db.query<{ connection_status: string; last_connected_at: Date }>(
          'SELECT connection_status, last_connected_at FROM devices WHERE id = $1',
          [id],
        )
      )[0]!;
    await waitFor(async () => (await statusOf(left!.id)).connection_status === 'offline', 5000, 'swept');
    await waitFor(async () => (await statusOf(unplugged!.id)).connection_status === 'offline', 5000, 'swept');
    // The sweep keeps the last connection time, and leaves a device heard 30 s ago alone.
    expect((await statusOf(left!.id)).last_connected_at).toEqual(leftSeen);
    expect((await statusOf(fresh!.id)).connection_status).toBe('online');
  });

  it('refuses an unknown IMEI with 00, closes, and lists it for super admins', async () => {
    const g = await start();
    const c = new RawClient(g.ports.teltonika!);
    await c.send(encodeTeltonikaImei('356307042441013'));
    expect([...(await c.take(1))]).toEqual([0]);
    await waitFor(() => c.closed, 3000, 'close');
    // Super admins only: the row names no company (modules/records.ts).
    const r = await call(h.app, {
      method: 'GET',
      url: '/v1/devices/unknown',
      token: w.users.super.token,
      company: w.a.uuid,
    });
    expect(r.statusCode).toBe(200);
    const body = r.json() as { data: { imei: string; type: string | null; attempts: number }[] };
    expect(body.data.map((d) => d.imei)).toContain('356307042441013');
    expect(body.data[0]!.type).toBe('teltonika');
    expect(g.stats.unknownRefused).toBe(1);
  });

  it('ACKs only after the records are durable; a failed store ACKs nothing and a resend is stored once', async () => {
    let failures = 1;
    let gate: Promise<void> = Promise.resolve();
    let open: () => void = () => undefined;
    const storage: Storage = Object.assign(Object.create(h.storage) as Storage, {
      insertLocations: async (batch: Parameters<Storage['insertLocations']>[0]) => {
        await gate;
        if (failures > 0) {
          failures--;
          throw new Error('disk on fire');
        }
        return h.storage.insertLocations(batch);
      },
    });
    const g = await start(storage);
    const imei = simulatedImei(21);
    const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
    const t0 = Date.now() - 60_000;
    const frame = encodeTeltonikaAvl([record(imei, t0), record(imei, t0 + 1000), record(imei, t0 + 2000)]);

    // 1) storage fails: no ACK, connection closed, nothing stored.
    const a = new RawClient(g.ports.teltonika!);
    await a.send(encodeTeltonikaImei(imei));
    expect([...(await a.take(1))]).toEqual([1]);
    await a.send(frame);
    await waitFor(() => a.closed, 5000, 'close after storage failure');
    expect(a.received.length).toBe(0);
    expect(await countLocations()).toBe(0);

    // 2) the device resends on a new connection: while the commit is held back no ACK leaves.
    gate = new Promise<void>((r) => (open = r));
    const b = new RawClient(g.ports.teltonika!);
    await b.send(encodeTeltonikaImei(imei));
    expect([...(await b.take(1))]).toEqual([1]);
    await b.send(frame);
    await new Promise((r) => setTimeout(r, 150));
    expect(b.received.length).toBe(0);
    open();
    expect((await b.take(4)).readUInt32BE(0)).toBe(3);
    expect(await countLocations(fx.devices[0]!.id)).toBe(3);

    // 3) a resend of the same records (lost ACK) is ACKed again and stored once.
    await b.send(frame);
    expect((await b.take(4)).readUInt32BE(0)).toBe(3);
    expect(await countLocations(fx.devices[0]!.id)).toBe(3);
    b.close();
  });

  it('holds the next frame unstored and unacknowledged while the publish backlog is full, never dropping one', async () => {
    // The pipeline is slow: it keeps the first batch until `release`.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const unsubscribe = subscribeOn(h.bus, patterns.locations, () => held);
    try {
      const g = await startGateway({
        config: { ...h.config, GATEWAY_PUBLISH_BACKLOG: 100 },
        storage: h.storage,
        bus: h.bus,
      }).then((x) => (gw = x));
      const imei = simulatedImei(23);
      const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
      const t0 = Date.now() - 3_600_000;
      const c = new RawClient(g.ports.teltonika!);
      await c.send(encodeTeltonikaImei(imei));
      expect([...(await c.take(1))]).toEqual([1]);
      await c.send(encodeTeltonikaAvl(Array.from({ length: 100 }, (_, i) => record(imei, t0 + i * 1000))));
      expect((await c.take(4)).readUInt32BE(0)).toBe(100);
      expect(g.backlog.size).toBe(100);

      await c.send(encodeTeltonikaAvl([record(imei, t0 + 200_000)]));
      await new Promise((r) => setTimeout(r, 200));
      expect(c.received.length).toBe(0);
      expect(await countLocations(fx.devices[0]!.id)).toBe(100);

      release();
      expect((await c.take(4)).readUInt32BE(0)).toBe(1);
      expect(await countLocations(fx.devices[0]!.id)).toBe(101);
      expect(g.backlog.waits).toBe(1);
      c.close();
    } finally {
      release();
      unsubscribe();
    }
  });

  it('a malformed frame closes only that connection', async () => {
    const g = await start();
    const good = simulatedImei(31);
    const bad = simulatedImei(32);
    await addDevices(h.storage.db, w.a.id, [
      { imei: good, type: 'teltonika' },
      { imei: bad, type: 'teltonika' },
    ]);
    const a = new RawClient(g.ports.teltonika!);
    const b = new RawClient(g.ports.teltonika!);
    await a.send(encodeTeltonikaImei(good));
    await b.send(encodeTeltonikaImei(bad));
    await a.take(1);
    await b.take(1);
    const corrupt = Buffer.from(encodeTeltonikaAvl([record(bad, Date.now() - 5000)]));
    corrupt[corrupt.length - 1] = corrupt[corrupt.length - 1]! ^ 0xff; // CRC mismatch
    await b.send(corrupt);
    await waitFor(() => b.closed, 3000, 'bad connection closed');
    await a.send(encodeTeltonikaAvl([record(good, Date.now() - 4000)]));
    expect((await a.take(4)).readUInt32BE(0)).toBe(1);
    expect(a.closed).toBe(false);
    expect(g.stats.framesRejected).toBe(1);
    // Garbage on another protocol's port, too.
    const c = new RawClient(g.ports.istartek!);
    await c.send(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await waitFor(() => c.closed, 3000, 'garbage connection closed');
    a.close();
  });

  it('closes a connection announcing an oversized frame, and an idle one, marking the device offline', async () => {
    const g = await startGateway({
      config: { ...h.config, GATEWAY_IDLE_TIMEOUT_S: 1 },
      storage: h.storage,
      bus: h.bus,
    });
    try {
      const imei = simulatedImei(51);
      const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
      const big = new RawClient(g.ports.teltonika!);
      await big.send(encodeTeltonikaImei(imei));
      await big.take(1);
      const header = Buffer.alloc(8);
      header.writeUInt32BE(1_000_000, 4); // preamble 0, data length 1 MB
      await big.send(header);
      await waitFor(() => big.closed, 3000, 'oversized frame refused');
      const idle = new RawClient(g.ports.teltonika!);
      await idle.send(encodeTeltonikaImei(imei));
      await idle.take(1);
      await waitFor(() => g.isConnected(fx.devices[0]!.uuid), 3000, 'connected');
      await waitFor(() => idle.closed, 5000, 'idle connection closed');
      await waitFor(
        async () =>
          (
            await h.storage.db.query<{ connection_status: string }>(
              'SELECT connection_status FROM devices WHERE id = $1',
              [fx.devices[0]!.id],
            )
          )[0]!.connection_status === 'offline',
        3000,
        'offline',
      );
    } finally {
      await g.close();
    }
  });

  it('buffers partial frames (a frame split into single bytes)', async () => {
    const g = await start();
    const imei = simulatedImei(41);
    const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
    const c = new RawClient(g.ports.teltonika!);
    await c.send(encodeTeltonikaImei(imei));
    await c.take(1);
    const frame = encodeTeltonikaAvl([record(imei, Date.now() - 3000), record(imei, Date.now() - 2000)]);
    for (const byte of frame) {
      await c.send(Uint8Array.of(byte));
      if (byte % 7 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    expect((await c.take(4)).readUInt32BE(0)).toBe(2);
    expect(await countLocations(fx.devices[0]!.id)).toBe(2);
    c.close();
  });

  it('refuses connections over the per-address cap', async () => {
    const g = await startGateway({
      config: { ...h.config, GATEWAY_MAX_CONNECTIONS_PER_IP: 2 },
      storage: h.storage,
      bus: h.bus,
    });
    try {
      const conns = [0, 1, 2].map(() => new RawClient(g.ports.gosafe!));
      await waitFor(() => conns[2]!.closed, 3000, 'third connection refused');
      expect(conns[0]!.closed).toBe(false);
      expect(g.stats.connections).toBe(2);
      for (const c of conns) c.close();
    } finally {
      await g.close();
    }
  });
});

describe('generic trackers', () => {
  it('OsmAnd HTTP (Traccar Client) stores the position and publishes generic-device-location', async () => {
    const g = await start();
    const imei = '123456789012345';
    const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
    const ws = hubClient(h.app.ctx.hub, {
      userId: w.users.adminA.id,
      userUuid: w.users.adminA.uuid,
      companyId: w.a.id,
      companyUuid: w.a.uuid,
    });
    const ts = Math.floor(Date.now() / 1000) - 30;
    const ok = await fetch(
      `http://127.0.0.1:${g.ports.osmand}/?id=${imei}&lat=25.2048&lon=55.2708&timestamp=${ts}&speed=10&bearing=90&altitude=5`,
      { method: 'POST' },
    );
    expect(ok.status).toBe(200);
    expect(await countLocations(fx.devices[0]!.id)).toBe(1);
    await waitFor(
      () => ws.messages.find((m) => m.event === 'generic-device-location'),
      3000,
      'generic event',
    );
    const ev = ws.messages.find((m) => m.event === 'generic-device-location')!;
    expect(ev.path).toBe(fx.devices[0]!.vehicleUuid);
    expect(ev.data['latitude']).toBeCloseTo(25.2048, 4);
    expect(ev.data['speed']).toBeCloseTo(18.52, 1); // 10 knots in km/h
    const unknown = await fetch(`http://127.0.0.1:${g.ports.osmand}/?id=999&lat=1&lon=1`);
    expect(unknown.status).toBe(403);
    const bad = await fetch(`http://127.0.0.1:${g.ports.osmand}/?id=${imei}&lat=abc`);
    expect(bad.status).toBe(400);
    ws.off();
  });

  const mqttUrl = process.env.MQTT_URL;
  it.skipIf(!mqttUrl)(
    'JSON over MQTT (set MQTT_URL, e.g. mqtt://127.0.0.1:1883, to run this test)',
    async () => {
      const topicRoot = `fleet-test-${process.pid}`;
      const g = await startGateway({
        config: { ...h.config, MQTT_URL: mqttUrl!, MQTT_TOPIC: `${topicRoot}/+/location` },
        storage: h.storage,
        bus: h.bus,
      });
      const mqtt = await import('mqtt');
      const pub = await mqtt.connectAsync(mqttUrl!);
      const seen: string[] = [];
      const off = h.bus.subscribe<{ event: string }>('realtime.*', (m) => void seen.push(m.event));
      try {
        const imei = '861234567890123';
        const fx = await addDevices(h.storage.db, w.a.id, [{ imei, type: 'teltonika' }]);
        const rec = record(imei, Date.now() - 10_000);
        // The IMEI comes from the topic level here (the payload may omit it).
        const { imei: _drop, ...payload } = JSON.parse(encodeMqttLocation(rec)) as Record<string, unknown>;
        expect(_drop).toBe(imei);
        await pub.publishAsync(`${topicRoot}/${imei}/location`, JSON.stringify(payload), { qos: 1 });
        await waitFor(async () => (await countLocations(fx.devices[0]!.id)) === 1, 10_000, 'mqtt location');
        await waitFor(() => seen.includes('generic-device-location'), 3000, 'generic event');
        // An unknown tracker is refused and listed.
        await pub.publishAsync(`${topicRoot}/111222333444555/location`, JSON.stringify(payload), { qos: 1 });
        await waitFor(
          async () =>
            (
              await h.storage.db.query<{ n: number }>(
                `SELECT count(*)::int AS n FROM unknown_devices WHERE imei = '111222333444555'`,
              )
            )[0]!.n === 1,
          5000,
          'unknown mqtt tracker',
        );
      } finally {
        off();
        await pub.endAsync();
        await g.close();
      }
    },
  );
});
