import { ioElementCatalogue } from '@fleet/core';
import { IO, ioNumber } from '../common/io';
import type { PositionRecord } from '../common/types';

/**
 * Fuel analysis from the device's fuel IO elements.
 *
 * Units (Teltonika conventions, configurable): IO 83 "fuel consumed" is a cumulative counter in 0.1 L;
 * IO 84 "fuel litres" is the tank level in 0.1 L; IO 89 "fuel level" is the tank level in percent and
 * needs the vehicle's fuel tank capacity to become litres.
 *
 * Level analysis: levels are median-smoothed (window 5) to remove slosh, then cut into monotonic runs
 * (changes under `noiseL` do not break a run). A rising run of at least `refuelMinL` is a refuel; a
 * falling run of at least `dropMinL` within `dropMaxS` while the vehicle is (almost) not moving is a drop
 * (siphoning or a sensor event). All other falls are consumption.
 */

export interface FuelOptions {
  readonly tankCapacityL?: number;
  readonly consumedScale: number;
  readonly litresScale: number;
  readonly refuelMinL: number;
  readonly dropMinL: number;
  readonly dropMaxS: number;
  readonly noiseL: number;
}

/** Scales of IO 83 and 84 as @fleet/core's catalogue defines them (0.1 L), so server and portal agree. */
export const defaultFuelOptions: FuelOptions = {
  consumedScale: ioElementCatalogue[IO.fuelConsumed]?.scale ?? 0.1,
  litresScale: ioElementCatalogue[IO.fuelLitres]?.scale ?? 0.1,
  refuelMinL: 5,
  dropMinL: 5,
  dropMaxS: 15 * 60,
  noiseL: 0.3,
};

export interface FuelEvent {
  readonly kind: 'refuel' | 'drop';
  readonly litres: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly lat: number;
  readonly lon: number;
  readonly levelBeforeL: number;
  readonly levelAfterL: number;
}

export interface FuelSample {
  readonly time: number;
  readonly litres: number;
  readonly record: PositionRecord;
}

/** Fuel level in litres of a record, from IO 84 or IO 89 with the tank capacity. */
export function fuelLevelL(r: PositionRecord, opts: FuelOptions = defaultFuelOptions): number | undefined {
  const litres = ioNumber(r.io, IO.fuelLitres);
  if (litres !== undefined) return litres * opts.litresScale;
  const pct = ioNumber(r.io, IO.fuelLevel);
  if (pct !== undefined && opts.tankCapacityL !== undefined && pct >= 0 && pct <= 100) {
    return (pct / 100) * opts.tankCapacityL;
  }
  return undefined;
}

export function median5(values: readonly number[], i: number): number {
  const w: number[] = [];
  for (let k = Math.max(0, i - 2); k <= Math.min(values.length - 1, i + 2); k++) w.push(values[k]!);
  w.sort((a, b) => a - b);
  return w[Math.floor(w.length / 2)]!;
}

export interface FuelAnalysis {
  readonly samples: FuelSample[];
  readonly events: FuelEvent[];
  /** Consumption intervals: litres used between two smoothed samples, keyed by the earlier sample's time. */
  readonly consumption: { readonly time: number; readonly litres: number }[];
}

/** Level-based fuel analysis of sorted, accepted records. */
export function analyseFuelLevel(
  records: readonly PositionRecord[],
  opts: FuelOptions = defaultFuelOptions,
): FuelAnalysis {
  const raw: FuelSample[] = [];
  for (const r of records) {
    const l = fuelLevelL(r, opts);
    if (l !== undefined && Number.isFinite(l) && l >= 0) raw.push({ time: r.time, litres: l, record: r });
  }
  const levels = raw.map((s) => s.litres);
  const samples = raw.map((s, i) => ({ ...s, litres: median5(levels, i) }));
  const events: FuelEvent[] = [];
  const consumption: { time: number; litres: number }[] = [];
  let i = 0;
  while (i < samples.length - 1) {
    // Find the direction of the next real change.
    let j = i;
    let dir = 0;
    while (j < samples.length - 1) {
      const d = samples[j + 1]!.litres - samples[i]!.litres;
      if (Math.abs(d) > opts.noiseL) {
        dir = Math.sign(d);
        break;
      }
      j++;
    }
    if (dir === 0) break;
    // Extend the run while the level keeps moving that way (small counter-moves under the noise allowed).
    let end = j + 1;
    let extreme = samples[end]!.litres;
    for (let k = end + 1; k < samples.length; k++) {
      const v = samples[k]!.litres;
      // A new extreme moves the end; a flat stretch is scanned through without extending the run.
      if (dir > 0 ? v > extreme : v < extreme) {
        extreme = v;
        end = k;
      } else if (Math.abs(v - extreme) > opts.noiseL) break;
    }
    // The run starts at the last sample still level with samples[i] (a plateau before it is not part of it).
    const a = samples[j]!;
    const b = samples[end]!;
    const change = b.litres - a.litres;
    const seconds = (b.time - a.time) / 1000;
    let moving = 0;
    for (let k = j; k <= end; k++) if (samples[k]!.record.speed >= 5) moving++;
    const stationary = moving <= (end - j + 1) / 4;
    if (dir > 0 && change >= opts.refuelMinL) {
      events.push(fuelEvent('refuel', a, b));
    } else if (dir < 0 && -change >= opts.dropMinL && seconds <= opts.dropMaxS && stationary) {
      events.push(fuelEvent('drop', a, b));
    } else if (dir < 0) {
      for (let k = i; k < end; k++) {
        const used = samples[k]!.litres - samples[k + 1]!.litres;
        if (used > 0) consumption.push({ time: samples[k]!.time, litres: used });
      }
    }
    i = end;
  }
  return { samples, events, consumption };
}

function fuelEvent(kind: 'refuel' | 'drop', a: FuelSample, b: FuelSample): FuelEvent {
  return {
    kind,
    litres: Math.round(Math.abs(b.litres - a.litres) * 10) / 10,
    startTime: a.time,
    endTime: b.time,
    lat: a.record.lat,
    lon: a.record.lon,
    levelBeforeL: Math.round(a.litres * 10) / 10,
    levelAfterL: Math.round(b.litres * 10) / 10,
  };
}

/** Fuel used from the cumulative counter IO 83: positive steps only (a reset restarts the count). */
export function counterConsumption(
  records: readonly PositionRecord[],
  opts: FuelOptions = defaultFuelOptions,
): { time: number; litres: number }[] | undefined {
  const out: { time: number; litres: number }[] = [];
  let prev: { time: number; v: number } | undefined;
  let seen = false;
  for (const r of records) {
    const v = ioNumber(r.io, IO.fuelConsumed);
    if (v === undefined) continue;
    seen = true;
    if (prev && v > prev.v) out.push({ time: prev.time, litres: (v - prev.v) * opts.consumedScale });
    prev = { time: r.time, v };
  }
  return seen ? out : undefined;
}
