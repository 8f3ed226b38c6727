// The fuel report shows litres from the device's configured fuel sensor (issue 19): a Teltonika whose
// tank sender is wired to AIN1 (IO 9, millivolts) with a non-linear calibration table (uploaded as CSV),
// and whose own fuel level IO 89 (percent) reads something else, drives through the real gateway and
// the pipeline. The report's level chart is in litres, from the calibration table, not the percentage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeTeltonikaAvl, encodeTeltonikaImei, IO, type DecodedRecord } from '@fleet/device-protocols';
import { fuelReportRowSchema } from '@fleet/api-client';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { registerReportRoutes } from './routes';
import { fuelLevelSeries } from './sensors';
import { PipelineService } from '../pipeline/service/service';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import { loadSalik } from '../pipeline/salik/load';
import { startGateway, type Gateway } from '../gateway/gateway';
import { addDevices, RawClient, waitFor, GATEWAY_SERVER_TEST_ENV } from '../gateway/test-helpers';

const ENV = GATEWAY_SERVER_TEST_ENV;

let storage: Storage;
let app: FastifyInstance;
let w: World;
let gw: Gateway;
let pipeline: PipelineService;
let stopPipeline: () => void;
const bus = new InProcessBus();
// Two hours ago, on a whole hour (UTC) so the hourly level points are predictable.
const T0 = Math.floor((Date.now() - 2 * 3_600_000) / 3_600_000) * 3_600_000;

/** Calibration of the tank sender (mV -> litres): steeper at the bottom of a saddle tank. */
const CALIBRATION_CSV = 'raw,litres\n0,0\n1000,20\n3000,70\n5000,120\n';
/** Litres of a voltage by that table (linear between points). */
const litresOf = (mv: number) =>
  mv <= 1000 ? mv / 50 : mv <= 3000 ? 20 + (mv - 1000) / 40 : 70 + (mv - 3000) / 40;

beforeAll(async () => {
  storage = await openTestStorage('fuel_litres');
  const config = loadConfig(ENV);
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
}, 60_000);

afterAll(async () => {
  stopPipeline?.();
  await pipeline?.flush();
  await gw?.close();
  await app?.close();
  await storage?.close();
});

describe('fuel report with a calibrated fuel sensor', () => {
  it('shows the level in litres from the calibration table, not the percentage of IO 89', async () => {
    const imei = '352093081433001';
    const [dev] = (await addDevices(storage.db, w.a.id, [{ imei, type: 'teltonika' }])).devices;
    // A 200 L tank: the device's 12 % would read 24 L, the sender's voltage says otherwise.
    await storage.db.query(
      `UPDATE vehicles SET data = data || '{"fuel_tank_capacity": 200}'::jsonb WHERE uuid = $1`,
      [dev!.vehicleUuid],
    );
    const put = await call(app, {
      method: 'PUT',
      url: `/v1/devices/${dev!.uuid}/sensors`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: {
        fuel_io: IO.analogInput,
        fuel_calibration_csv: CALIBRATION_CSV,
        effective_from: new Date(T0 - 3_600_000).toISOString(),
      },
    });
    expect(put.statusCode, put.body).toBe(200);

    // 60 minutes driving east at 50 km/h; the sender falls from 3,600 mV to 3,300 mV (85 L -> 77.5 L),
    // then 30 minutes parked at 3,300 mV.
    const mv = (i: number) => (i < 60 ? 3600 - i * 5 : 3300);
    const records: DecodedRecord[] = [];
    for (let i = 0; i < 90; i++) {
      const driving = i < 60;
      records.push({
        imei,
        protocol: 'teltonika',
        fixTime: T0 + i * 60_000,
        valid: true,
        latitude: 25.2,
        longitude: 55.15 + Math.min(i, 60) * 0.0083,
        altitude: 10,
        speed: driving ? 50 : 0,
        course: 90,
        satellites: 9,
        eventId: 0,
        io: { [IO.ignition]: driving ? 1 : 0, [IO.analogInput]: mv(i), [IO.fuelLevel]: 12 },
      });
    }
    const c = new RawClient(gw.ports.teltonika!);
    await c.send(encodeTeltonikaImei(imei));
    expect([...(await c.take(1))]).toEqual([1]);
    for (let i = 0; i < records.length; i += 30) {
      const part = records.slice(i, i + 30);
      await c.send(encodeTeltonikaAvl(part));
      expect((await c.take(4)).readUInt32BE(0)).toBe(part.length);
    }
    c.close();
    await waitFor(async () => {
      await pipeline.flush();
      const [r] = await storage.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM locations WHERE device_id = $1',
        [dev!.id],
      );
      return r!.n === 90;
    });
    await pipeline.flush();

    const range = `from=${encodeURIComponent(new Date(T0 - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date(T0 + 3 * 3_600_000).toISOString())}`;
    const r = await call(app, {
      method: 'GET',
      url: `/v1/reports/fuel?${range}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(r.statusCode, r.body).toBe(200);
    const rows = fuelReportRowSchema.array().parse((r.json() as { data: unknown[] }).data);
    const row = rows.find((x) => x.vehicle.uuid === dev!.vehicleUuid)!;
    expect(row.level_unit).toBe('litres');
    // One point per hour: the last (smoothed) level of each hour, in litres by the table.
    expect(row.level.map((p) => p.at)).toEqual([
      new Date(T0).toISOString(),
      new Date(T0 + 3_600_000).toISOString(),
    ]);
    expect(Number(row.level[0]!.value)).toBeCloseTo(litresOf(mv(59)), 0);
    expect(Number(row.level[1]!.value)).toBeCloseTo(litresOf(3300), 1);
    expect(row.level.every((p) => Number(p.value) > 70)).toBe(true); // never the 12 % (or its 24 L)
    // What was burnt comes from the same litres: 85 L -> 77.5 L.
    expect(row.fuel_used_litres).toBeGreaterThan(6);
    expect(row.fuel_used_litres).toBeLessThan(9);
  }, 60_000);
});

describe('fuel level series', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 0, 5, h)).toISOString();
  it.each([
    ['litres win over percent', [{ at: at(1), pct: 12, litres: 80 }], 200, 'litres', [80]],
    [
      'a percent-only bucket next to litres is converted with the tank',
      [
        { at: at(1), pct: 50, litres: null },
        { at: at(2), pct: null, litres: 80 },
      ],
      200,
      'litres',
      [100, 80],
    ],
    [
      'a percent-only bucket without a tank capacity is left out',
      [
        { at: at(1), pct: 50, litres: null },
        { at: at(2), pct: null, litres: 80 },
      ],
      0,
      'litres',
      [80],
    ],
    ['no litres at all: percent', [{ at: at(1), pct: 38, litres: null }], 100, 'percent', [38]],
  ] as const)('%s', (_name, rows, tank, unit, values) => {
    const out = fuelLevelSeries(rows, tank);
    expect(out.unit).toBe(unit);
    expect(out.level.map((p) => p.value)).toEqual(values);
  });
});
