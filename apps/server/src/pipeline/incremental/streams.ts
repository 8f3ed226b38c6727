import { destination } from '../common/geo';
import { prng } from '../common/fixtures';
import { IO } from '../common/io';
import type { PositionRecord } from '../common/types';

/**
 * Random but deterministic device streams for the incremental pipeline's property tests: a device
 * alternates parking, idling, driving and silence (gaps), with ignition flapping, GPS jumps, invalid
 * fixes, an odometer that sometimes resets, a fuel counter or a sloshing fuel level with refuels and
 * drops, RPM and temperature, over several days (so local midnights fall inside trips and stops).
 */

export interface StreamOptions {
  readonly deviceId?: string;
  readonly vehicleId?: string;
  readonly start: number;
  readonly hours: number;
  /** Mean seconds between records while reporting. */
  readonly intervalS?: number;
  /**
   * The device reports ignition only from this time on (wired up later): the records before it carry
   * no ignition reading, so a trip fold's mode turns from motion to ignition within the stream.
   */
  readonly ignitionFrom?: number;
}

export function randomStream(seed: number, opts: StreamOptions): PositionRecord[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const deviceId = opts.deviceId ?? 'dev-1';
  const vehicleId = opts.vehicleId ?? 'veh-1';
  const interval = opts.intervalS ?? pick([10, 30, 60]);
  const hasIgnition = rand() < 0.8 || opts.ignitionFrom !== undefined;
  const fuelKind = pick(['level', 'counter', 'percent', 'none'] as const);
  const hasOdometer = rand() < 0.6;
  const hasRpm = rand() < 0.5;
  const hasTemp = rand() < 0.3;
  const end = opts.start + opts.hours * 3_600_000;
  const out: PositionRecord[] = [];
  let t = opts.start + Math.floor(rand() * 600_000);
  let lat = 25.1 + rand() * 0.2;
  let lon = 55.1 + rand() * 0.3;
  let heading = rand() * 360;
  let odometer = Math.floor(rand() * 1e6);
  let fuel = 20 + rand() * 40;
  let counter = Math.floor(rand() * 1e5);
  while (t < end) {
    const kind = pick(['park', 'park', 'idle', 'drive', 'drive', 'drive', 'gap', 'flap'] as const);
    const minutes = kind === 'gap' ? 5 + rand() * 120 : 1 + rand() * (kind === 'drive' ? 60 : 40);
    const segEnd = Math.min(end, t + minutes * 60_000);
    if (kind === 'gap') {
      t = segEnd;
      continue;
    }
    if (kind === 'park' && rand() < 0.15) fuel += 10 + rand() * 30; // refuel
    if (kind === 'park' && rand() < 0.1) fuel = Math.max(0, fuel - 6 - rand() * 10); // drop
    while (t < segEnd) {
      const moving = kind === 'drive' ? rand() > 0.08 : kind === 'flap' ? rand() < 0.5 : false;
      const speed = moving ? 10 + rand() * 110 : rand() < 0.1 ? rand() * 4 : 0;
      const ignition = kind === 'park' ? rand() < 0.03 : kind === 'flap' ? rand() < 0.5 : rand() > 0.02;
      const dt = Math.max(1, Math.round(interval * (0.5 + rand())));
      if (moving) {
        heading += (rand() - 0.5) * 40;
        const p = destination(lat, lon, heading, (speed / 3.6) * dt);
        lat = p.lat;
        lon = p.lon;
        odometer += Math.round((speed / 3.6) * dt);
        fuel = Math.max(0, fuel - 0.002 * dt * (speed / 50));
        counter += rand() < 0.3 ? 1 : 0;
      } else if (ignition) {
        fuel = Math.max(0, fuel - 0.0003 * dt);
        if (rand() < 0.2) counter += 1;
      }
      if (hasOdometer && rand() < 0.002) odometer = Math.floor(rand() * 1000); // reset
      const io: Record<number, number> = {};
      if (hasIgnition && rand() > 0.01 && t >= (opts.ignitionFrom ?? -Infinity))
        io[IO.ignition] = ignition ? 1 : 0;
      if (hasOdometer) io[IO.odometer] = odometer;
      if (fuelKind === 'level') io[IO.fuelLitres] = Math.round((fuel + (rand() - 0.5) * 1.5) * 10);
      if (fuelKind === 'percent') io[IO.fuelLevel] = Math.max(0, Math.min(100, Math.round(fuel)));
      if (fuelKind === 'counter') io[IO.fuelConsumed] = counter;
      if (hasRpm) io[IO.engineRpm] = ignition ? Math.round(800 + speed * 30 + rand() * 800) : 0;
      if (hasTemp) io[IO.temperature] = Math.round(2000 + rand() * 1500);
      let rLat = lat;
      let rLon = lon;
      const roll = rand();
      if (roll < 0.01) {
        // GPS jump (a spike), sometimes two in a row
        const p = destination(lat, lon, rand() * 360, 20_000 + rand() * 50_000);
        rLat = p.lat;
        rLon = p.lon;
      } else if (roll < 0.013) {
        rLat = 0;
        rLon = 0; // null island
      }
      out.push({
        deviceId,
        vehicleId,
        time: t,
        receivedAt: t + Math.floor(rand() * 5000),
        lat: rLat,
        lon: rLon,
        speed: Math.round(speed * 10) / 10,
        io,
        ...(rand() < 0.005 ? { ignored: true } : {}),
      });
      t += dt * 1000;
    }
  }
  return out;
}

/**
 * Delivers a stream as a device with a flaky link would: mostly in order, batches of a few records,
 * some batches resent (duplicates), some held back and delivered late (out of order).
 */
export function deliveries(
  records: readonly PositionRecord[],
  seed: number,
  opts: { lateProbability?: number; duplicateProbability?: number } = {},
): PositionRecord[][] {
  const rand = prng(seed ^ 0x5bd1e995);
  const late = opts.lateProbability ?? 0.03;
  const dup = opts.duplicateProbability ?? 0.05;
  const batches: PositionRecord[][] = [];
  const held: PositionRecord[][] = [];
  let i = 0;
  while (i < records.length) {
    const n = 1 + Math.floor(rand() * 6);
    const batch = records.slice(i, i + n);
    i += n;
    if (rand() < late) {
      held.push(batch);
      continue;
    }
    batches.push(batch);
    if (rand() < dup) batches.push(batch.slice(0, 1 + Math.floor(rand() * batch.length)));
    if (held.length && rand() < 0.2) batches.push(held.shift()!);
  }
  batches.push(...held);
  return batches;
}
