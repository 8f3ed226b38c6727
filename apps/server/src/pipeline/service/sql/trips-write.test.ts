// writeTripDays with the embedded server's memory of what it wrote (incremental/write-changed.ts,
// WrittenRows.days) must leave exactly the rows that comparing with the stored rows leaves, flush after
// flush of a growing day, across rebuilt folds (new objects for the same items), late records that
// change items in the middle of the day, and detections it cannot diff; and it must not rewrite a row
// whose item did not change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../../../test/db';
import type { Storage } from '../../../storage/storage';
import { sortAndDedupe, type PositionRecord } from '../../common/types';
import { localDate } from '../../common/zoned-time';
import { randomStream } from '../../incremental/streams';
import { newTripFold, tripFoldPush, tripFoldResult, type TripFoldState } from '../../incremental/trip-fold';
import { WrittenRows, type WriteBatch } from '../../incremental/write-changed';
import type { Stop, Trip, TripDetection } from '../../trips/trips';
import type { VehicleRow } from './results';
import { writeTripDays, type DeviceRow } from './trips';

let storage: Storage;
let company: number;
const devices = new Map<string, DeviceRow>();
const vehicles = new Map<string, VehicleRow>();
beforeAll(async () => {
  storage = await openTestStorage('trips_write');
  const db = storage.db;
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Acme') RETURNING id`,
  );
  company = c!.id;
  for (const [name, imei] of [
    ['memo', '356307042441001'],
    ['plain', '356307042441002'],
  ] as const) {
    const [d] = await db.query<{ id: number }>(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, $2, 'teltonika') RETURNING id`,
      [company, imei],
    );
    devices.set(name, { id: d!.id, uuid: name, imei, company_id: company });
    const [v] = await db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING id`,
      [company, `W ${name}`, imei],
    );
    vehicles.set(name, { id: v!.id, uuid: name, company_id: company });
  }
});
afterAll(async () => {
  await storage.close();
});

const ref = (name: 'memo' | 'plain') => ({ companyUuid: 'c', deviceUuid: name, vehicleUuid: name });

/** One flush of one device-day, in a transaction, the memo moving on only once it committed. */
async function write(name: 'memo' | 'plain', date: string, det: TripDetection, memo?: WrittenRows) {
  const batch: WriteBatch | undefined = memo?.begin();
  await storage.db.transaction((tx) =>
    writeTripDays(tx, [{ ref: ref(name), date, detection: det }], vehicles, devices, batch),
  );
  batch?.commit();
}

/** The stored rows of a device, without what names the device (for comparing the two devices). */
async function stored(name: 'memo' | 'plain') {
  const dev = devices.get(name)!.id;
  const trips = await storage.db.query<{ ctid: string; row: string }>(
    `SELECT ctid::text, concat_ws('|', data->>'day', (extract(epoch FROM started_at) * 1000)::float8,
              (extract(epoch FROM ended_at) * 1000)::float8, distance_m, (data - 'device_imei')::text) AS row
     FROM device_trips WHERE device_id = $1 ORDER BY started_at`,
    [dev],
  );
  const stops = await storage.db.query<{ ctid: string; row: string }>(
    `SELECT ctid::text, concat_ws('|', day::text, kind, (extract(epoch FROM started_at) * 1000)::float8,
              (extract(epoch FROM ended_at) * 1000)::float8, minutes, latitude, longitude) AS row
     FROM device_stops WHERE device_id = $1 ORDER BY day, kind, started_at`,
    [dev],
  );
  return { trips, stops };
}

const rowsOf = (s: Awaited<ReturnType<typeof stored>>) => ({
  trips: s.trips.map((r) => r.row),
  stops: s.stops.map((r) => r.row),
});

/** The ctid of each stored row by its text: a row not written again keeps its ctid. */
const ctids = (s: Awaited<ReturnType<typeof stored>>) =>
  new Map([...s.trips, ...s.stops].map((r) => [r.row, r.ctid]));

describe('writing trip days with the memo of what was written', () => {
  it('leaves the same rows as comparing with the stored rows, and rewrites only changed items', async () => {
    const tz = 'Asia/Dubai';
    let flushes = 0;
    let kept = 0;
    for (const seed of [5, 23, 61]) {
      const memo = new WrittenRows();
      const stream = sortAndDedupe(randomStream(seed, { start: Date.UTC(2026, 5, 1, 20, 0), hours: 30 }));
      const date = localDate(stream[Math.floor(stream.length / 2)]!.time, tz);
      // Every 97th record arrives late (after the next 60): the fold is rebuilt from scratch with it,
      // as a late record's repair does (new objects for the same items, and items that change).
      const late = new Set(stream.filter((_, i) => i % 97 === 4 && i + 60 < stream.length));
      const fed: PositionRecord[] = [];
      let fold: TripFoldState = newTripFold(date, tz);
      let before = new Map<string, string>();
      let prevDet: TripDetection | null = null;
      for (const [i, r] of stream.entries()) {
        if (!late.has(r)) {
          fed.push(r);
          tripFoldPush(fold, r);
        }
        const lateOne = stream[i - 60];
        if (lateOne && late.has(lateOne)) {
          fed.push(lateOne);
          fed.sort((a, b) => a.time - b.time);
          fold = newTripFold(date, tz);
          for (const x of fed) tripFoldPush(fold, x);
        }
        if (i % 25 !== 0 && i !== stream.length - 1) continue; // a flush
        const det = tripFoldResult(fold);
        await write('memo', date, det, memo);
        await write('plain', date, det);
        flushes++;
        const mine = await stored('memo');
        expect(rowsOf(mine)).toEqual(rowsOf(await stored('plain')));
        // What the detection holds, exactly: no more, no less.
        expect(mine.trips.length).toBe(det.trips.length);
        expect(mine.stops.length).toBe(det.stops.length + det.idles.length);
        // An item that is the same object as in the last flush was not written again.
        const now = ctids(mine);
        if (prevDet) {
          const same = new Set<Trip | Stop>(
            [...prevDet.trips, ...prevDet.stops, ...prevDet.idles].filter((x) =>
              [...det.trips, ...det.stops, ...det.idles].includes(x),
            ),
          );
          for (const [row, ctid] of now) {
            if (before.get(row) === undefined) continue;
            if ([...same].some((x) => row.includes(`|${x.startTime}|${x.endTime}|`))) {
              expect(ctid).toBe(before.get(row));
              kept++;
            }
          }
        }
        before = now;
        prevDet = det;
      }
      // The next day's write of nothing clears the day.
      const empty: TripDetection = { mode: 'motion', trips: [], stops: [], idles: [] };
      await write('memo', date, empty, memo);
      await write('plain', date, empty);
      expect(rowsOf(await stored('memo'))).toEqual({ trips: [], stops: [] });
      expect(rowsOf(await stored('plain'))).toEqual({ trips: [], stops: [] });
    }
    expect(flushes).toBeGreaterThan(100);
    expect(kept).toBeGreaterThan(200);
  });

  const DAY = '2026-06-02';
  const T = Date.UTC(2026, 5, 2, 4, 0);
  const mkTrip = (k: number, min: number): Trip => ({
    deviceId: 'd',
    startTime: T + k * 3_600_000,
    endTime: T + k * 3_600_000 + min * 60_000,
    start: { lat: 25.1, lon: 55.1 },
    end: { lat: 25.2, lon: 55.2 },
    distanceM: min * 1000,
    distanceSource: 'gps',
    durationS: min * 60,
    maxSpeedKmh: 80,
    avgSpeedKmh: 60,
    idleS: 0,
    recordCount: min * 6,
  });
  const mkStop = (k: number, min: number): Stop => ({
    deviceId: 'd',
    startTime: T + k * 3_600_000 + 45 * 60_000,
    endTime: T + k * 3_600_000 + (45 + min) * 60_000,
    place: { lat: 25.2, lon: 55.2 },
    minutes: min,
  });
  const det = (trips: Trip[], stops: Stop[] = [], idles: Stop[] = []): TripDetection => ({
    mode: 'ignition',
    trips,
    stops,
    idles,
  });

  const stopRow = (p: Stop) =>
    `${DAY}|stop|${p.startTime}|${p.endTime}|${p.minutes}|${p.place.lat}|${p.place.lon}`;

  it('diffs items in the middle of the day by start, and falls back when items share a start', async () => {
    const memo = new WrittenRows();
    const both = async (d: TripDetection) => {
      await write('memo', DAY, d, memo);
      await write('plain', DAY, d);
      expect(rowsOf(await stored('memo'))).toEqual(rowsOf(await stored('plain')));
      return stored('memo');
    };
    const [a, b, c] = [mkTrip(0, 20), mkTrip(1, 30), mkTrip(2, 10)];
    const s = mkStop(0, 10);
    const first = await both(det([a, b, c], [s], [mkStop(1, 5)]));
    expect(first.trips).toHaveLength(3);
    // b vanished, c changed (a new object with another end), d is new; a and the stop are the same.
    const second = await both(det([a, mkTrip(2, 15), mkTrip(3, 5)], [s], []));
    expect(second.trips.map((t) => t.row.split('|')[2])).toEqual([
      String(a.endTime),
      String(mkTrip(2, 15).endTime),
      String(mkTrip(3, 5).endTime),
    ]);
    expect(second.trips[0]!.ctid).toBe(first.trips[0]!.ctid);
    expect(second.stops).toHaveLength(1);
    expect(ctids(second).get(stopRow(s))).toBe(ctids(first).get(stopRow(s)));
    // A new object equal to the written one is not written again either.
    const third = await both(det([mkTrip(0, 20), mkTrip(2, 15), mkTrip(3, 5)], [mkStop(0, 10)], []));
    expect(third.trips.map((t) => t.ctid)).toEqual(second.trips.map((t) => t.ctid));
    expect(third.stops.map((x) => x.ctid)).toEqual(second.stops.map((x) => x.ctid));
    // Two trips with one start (never from the folds): the day is not remembered, and is written by
    // comparing with the stored rows, as a process without the memo writes it.
    const dupe = det([mkTrip(0, 20), mkTrip(0, 20), mkTrip(3, 5)]);
    await write('memo', DAY, dupe, memo);
    await write('plain', DAY, dupe);
    expect(rowsOf(await stored('memo'))).toEqual(rowsOf(await stored('plain')));
    expect(memo.days.has(`${devices.get('memo')!.id}|${DAY}`)).toBe(false);
    // And the day after that is remembered again.
    await both(det([a, mkTrip(3, 5)]));
    expect(memo.days.has(`${devices.get('memo')!.id}|${DAY}`)).toBe(true);
    await both(det([]));
  });

  it('is not changed by a write whose transaction did not commit, and forgets old days', async () => {
    const memo = new WrittenRows();
    const key = `${devices.get('memo')!.id}|${DAY}`;
    const a = mkTrip(0, 20);
    await write('memo', DAY, det([a]), memo);
    // Written but never committed (the transaction failed): the memo still says trip a only, and the
    // next flush writes b.
    const batch = memo.begin();
    await storage.db
      .transaction(async (tx) => {
        await writeTripDays(
          tx,
          [{ ref: ref('memo'), date: DAY, detection: det([a, mkTrip(1, 5)]) }],
          vehicles,
          devices,
          batch,
        );
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(memo.days.get(key)!.trips).toEqual([a]);
    await write('memo', DAY, det([a, mkTrip(1, 5)]), memo);
    expect((await stored('memo')).trips).toHaveLength(2);
    // A write four days later drops the memo of this day.
    await write('memo', '2026-06-06', det([]), memo);
    expect(memo.days.has(key)).toBe(false);
    await write('memo', DAY, det([]));
    expect((await stored('memo')).trips).toEqual([]);
  });
});
