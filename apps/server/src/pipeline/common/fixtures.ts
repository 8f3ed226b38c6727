import type { PositionRecord } from './types';

/** Test fixture builder for records: Dubai-ish defaults, receipt time equal to device time. */
export function rec(p: Partial<PositionRecord> & { time: number }): PositionRecord {
  return {
    deviceId: 'dev-1',
    vehicleId: 'veh-1',
    receivedAt: p.time,
    lat: 25.2,
    lon: 55.3,
    speed: 0,
    ...p,
  };
}

/** Deterministic PRNG (mulberry32) for shuffles and synthetic data in tests and benchmarks. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const MIN = 60_000;
export const HOUR = 3_600_000;
