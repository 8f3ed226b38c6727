// Gateway hygiene (issue 18, gateway/hygiene.ts): records with a fix time before the device's
// installation date or too far in the future are stored flagged, and every read path leaves them out.
//
// Two Teltonika trackers send the same frames through the real gateway: a drive yesterday at noon (UTC),
// a short parked stretch after midnight today, and one record three days in the future. One device was
// installed today (installation_date, set through the device API), the other has no installation date:
// the control shows what each read path would show if the flagged records were trusted, so every
// assertion below fails when the flag is not set or not honoured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeTeltonikaAvl, encodeTeltonikaImei, IO, type DecodedRecord } from '@fleet/device-protocols';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { registerReportRoutes } from '../reports/routes';
import { PipelineService } from '../pipeline/service/service';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import { loadSalik } from '../pipeline/salik/load';
import { startGateway, type Gateway } from './gateway';
import { addDevices, RawClient, waitFor, GATEWAY_SERVER_TEST_ENV } from './test-helpers';

const GATEWAY_ENV = GATEWAY_SERVER_TEST_ENV;

let storage: Storage;
let app: FastifyInstance;
let w: World;
let gw: Gateway;
let pipeline: PipelineService;
let stopPipeline: () => void;
const bus = new InProcessBus();
const live: { vehicle: string; latitude: number | null }[] = [];

const NOW = Date.now();
const TODAY = Math.floor(NOW / 86_400_000) * 86_400_000;
const INSTALLATION_DATE = new Date(TODAY).toISOString().slice(0, 10);
/** Yesterday 12:00 UTC: 12 to 36 hours ago, inside the pipeline's live repair horizon. */
const DRIVE_AT = TODAY - 12 * 3_600_000;
/** After the installation (00:00 UTC today) and not after now (+ a few minutes at most). */
const PARKED_AT = Math.max(TODAY + 60_000, NOW - 20 * 60_000);
const PARKED_LAT = 25.3;
const FUTURE_LAT = 30.1;

function rec(imei: string, fixTime: number, lat: number, lon: number, speed: number, ignition: 0 | 1) {
  const r: DecodedRecord = {
    imei,
    protocol: 'teltonika',
    fixTime,
    valid: true,
    latitude: lat,
    longitude: lon,
    altitude: 10,
    speed,
    course: 90,
    satellites: 9,
    eventId: 0,
    io: { [IO.ignition]: ignition, [IO.fuelLevel]: 50 },
  };
  return r;
}

/** 25 minutes driving east at 40 km/h, 5 parked, then 5 parked after the installation, then one future. */
function frames(imei: string): DecodedRecord[] {
  const out: DecodedRecord[] = [];
  for (let i = 0; i < 30; i++) {
    const driving = i < 25;
    out.push(
      rec(
        imei,
        DRIVE_AT + i * 60_000,
        25.2,
        55.15 + Math.min(i, 25) * 0.0067,
        driving ? 40 : 0,
        driving ? 1 : 0,
      ),
    );
  }
  for (let i = 0; i < 5; i++) out.push(rec(imei, PARKED_AT + i * 60_000, PARKED_LAT, 55.3, 0, 0));
  out.push(rec(imei, NOW + 3 * 86_400_000, FUTURE_LAT, 55.3, 0, 0));
  return out;
}

const IMEI_INSTALLED = '352093081432001';
const IMEI_CONTROL = '352093081432002';
let installed: { id: number; uuid: string; vehicleUuid: string };
let control: { id: number; uuid: string; vehicleUuid: string };

const range = () =>
  `from=${encodeURIComponent(new Date(TODAY - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(NOW + 3_600_000).toISOString())}`;

async function get(url: string) {
  const r = await call(app, { method: 'GET', url, token: w.users.adminA.token, company: w.a.uuid });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { total: number; data: Record<string, unknown>[] };
}

beforeAll(async () => {
  storage = await openTestStorage('gateway_hygiene');
  const config = loadConfig(GATEWAY_ENV);
  app = await createServer({ config, storage, bus, messenger: new MemoryMessenger(), logger: false });
  registerReportRoutes(app, { rollupTimeZone: 'UTC' });
  await app.ready();
  w = await buildWorld(storage.db);
  gw = await startGateway({ config, storage, bus, counterFlushMs: 0 });
  pipeline = new PipelineService({
    store: new SqlPipelineStore(storage.db),
    bus,
    salik: loadSalik(),
    timeZone: 'UTC',
    flushDelayMs: 5,
    repairIntervalMs: 0,
  });
  stopPipeline = pipeline.start();
  bus.subscribe<{ event: string; vehicle_uuid?: string | null; data: { latitude?: number | null } }>(
    'realtime.*',
    (m) => {
      if (m.event === 'device-location' && m.vehicle_uuid)
        live.push({ vehicle: m.vehicle_uuid, latitude: m.data.latitude ?? null });
    },
  );
  const { devices } = await addDevices(storage.db, w.a.id, [
    { imei: IMEI_INSTALLED, type: 'teltonika' },
    { imei: IMEI_CONTROL, type: 'teltonika' },
  ]);
  installed = devices[0]!;
  control = devices[1]!;
  // The installation date goes through the device contract (PUT /v1/devices/{uuid}).
  const put = await call(app, {
    method: 'PUT',
    url: `/v1/devices/${installed.uuid}`,
    token: w.users.adminA.token,
    company: w.a.uuid,
    body: { imei: IMEI_INSTALLED, type: 'teltonika', installation_date: INSTALLATION_DATE },
  });
  expect(put.statusCode, put.body).toBe(200);
  expect((put.json() as { data: { installation_date: string } }).data.installation_date).toBe(
    INSTALLATION_DATE,
  );

  for (const imei of [IMEI_INSTALLED, IMEI_CONTROL]) {
    const c = new RawClient(gw.ports.teltonika!);
    await c.send(encodeTeltonikaImei(imei));
    expect([...(await c.take(1))]).toEqual([1]);
    const recs = frames(imei);
    await c.send(encodeTeltonikaAvl(recs));
    // Acknowledged: every record is stored (flagged ones included), so the device does not resend them.
    expect((await c.take(4)).readUInt32BE(0)).toBe(recs.length);
    c.close();
  }
  await waitFor(async () => {
    await pipeline.flush();
    const [r] = await storage.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM locations WHERE device_id = ANY($1::bigint[])',
      [[installed.id, control.id]],
    );
    return r!.n === 72;
  });
  await pipeline.flush();
}, 60_000);

afterAll(async () => {
  stopPipeline?.();
  await pipeline?.flush();
  await gw?.close();
  await app?.close();
  await storage?.close();
});

describe('records flagged by the gateway hygiene', () => {
  it('are stored flagged: before the installation date, and too far in the future', async () => {
    const flagged = async (id: number) =>
      (
        await storage.db.query<{ valid: boolean; n: number }>(
          'SELECT valid, count(*)::int AS n FROM locations WHERE device_id = $1 GROUP BY valid ORDER BY valid',
          [id],
        )
      ).map((r) => [r.valid, r.n]);
    expect(await flagged(installed.id)).toEqual([
      [false, 31],
      [true, 5],
    ]);
    expect(await flagged(control.id)).toEqual([
      [false, 1],
      [true, 35],
    ]);
  });

  it('are not in the route history (vehicle locations)', async () => {
    const url = (v: string) =>
      `/v1/device-locations/vehicle/locations?vehicle_uuid=${v}&${range()}&limit=500`;
    const mine = await get(url(installed.vehicleUuid));
    expect(mine.total).toBe(5);
    expect(mine.data.map((l) => l.latitude)).toEqual([
      PARKED_LAT,
      PARKED_LAT,
      PARKED_LAT,
      PARKED_LAT,
      PARKED_LAT,
    ]);
    const other = await get(url(control.vehicleUuid));
    expect(other.total).toBe(35);
    expect(other.data.some((l) => l.latitude === FUTURE_LAT)).toBe(false);
  });

  it('are not in the route report', async () => {
    const mine = await get(`/v1/reports/route?vehicle_uuid=${installed.vehicleUuid}&${range()}`);
    expect(mine.total).toBe(5);
    const other = await get(`/v1/reports/route?vehicle_uuid=${control.vehicleUuid}&${range()}`);
    expect(other.total).toBe(35);
  });

  it('make no trips', async () => {
    const trips = await get(`/v1/reports/trips?${range()}`);
    const of = (v: string) => trips.data.find((x) => (x.vehicle as { uuid: string }).uuid === v);
    expect(Number(of(installed.vehicleUuid)?.trips ?? 0)).toBe(0);
    expect(Number(of(control.vehicleUuid)?.trips)).toBe(1);
  });

  it('count in no report built from the rollups (engine hours)', async () => {
    const engine = await get(`/v1/reports/engine?${range()}`);
    const of = (v: string) => engine.data.find((x) => (x.vehicle as { uuid: string }).uuid === v);
    expect(Number(of(installed.vehicleUuid)?.engine_hours ?? 0)).toBe(0);
    expect(Number(of(control.vehicleUuid)?.engine_hours)).toBeGreaterThan(0.3);
  });

  it('never reach the live map: neither the latest position nor the live feed', async () => {
    const body = await get('/v1/vehicles/live?per_page=100');
    const loc = (v: string) =>
      (body.data.find((x) => x.uuid === v)?.location as { latitude: number; created_at: string } | null) ??
      null;
    expect(loc(installed.vehicleUuid)?.latitude).toBe(PARKED_LAT);
    expect(loc(control.vehicleUuid)?.latitude).toBe(PARKED_LAT);
    expect(Date.parse(loc(installed.vehicleUuid)!.created_at)).toBeLessThan(NOW + 3_600_000);
    const feed = (v: string) => live.filter((m) => m.vehicle === v).map((m) => m.latitude);
    expect(feed(installed.vehicleUuid)).toEqual([PARKED_LAT, PARKED_LAT, PARKED_LAT, PARKED_LAT, PARKED_LAT]);
    // The control's drive is on its feed (the feed works), its future record is not.
    expect(feed(control.vehicleUuid).filter((l) => l === 25.2)).toHaveLength(30);
    expect(feed(control.vehicleUuid)).not.toContain(FUTURE_LAT);
  });
});
