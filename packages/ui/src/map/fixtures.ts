/**
 * Deterministic demo data for stories, screenshots and benchmarks (seeded, no Math.random), placed
 * around Dubai. Not part of the runtime API.
 */
import type { StatusTone, VehicleStatus } from '@fleet/core';
import type { RoutePoint } from './route-playback';
import type { VehicleMarker, VehiclePositionUpdate } from './vehicle-index';

/** mulberry32: a tiny seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const DUBAI: [number, number] = [25.2048, 55.2708];

const kinds = ['car', 'car', 'car', 'bus', 'motorcycle'] as const;
const statuses: VehicleStatus[] = ['live', 'live', 'live', 'idle', 'offline', 'inactive', 'no-data'];
const toneOf: Record<VehicleStatus, StatusTone> = {
  live: 'live',
  idle: 'idle',
  offline: 'offline',
  inactive: 'inactive',
  'no-data': 'noData',
};

export interface DemoVehicle extends VehicleMarker {
  status: VehicleStatus;
  plate: string;
}

/** `count` vehicles spread over `spread` degrees around a centre. */
export function demoVehicles(count: number, seed = 1, centre = DUBAI, spread = 0.35): DemoVehicle[] {
  const rnd = seededRandom(seed);
  const out: DemoVehicle[] = [];
  for (let i = 0; i < count; i++) {
    const status = statuses[Math.floor(rnd() * statuses.length)]!;
    const plate = `${String.fromCharCode(65 + (i % 26))} ${String(10000 + ((i * 7919) % 89999))}`;
    out.push({
      id: `v${i + 1}`,
      lat: centre[0] + (rnd() - 0.5) * spread,
      lng: centre[1] + (rnd() - 0.5) * spread * 1.4,
      heading: status === 'live' ? Math.floor(rnd() * 360) : null,
      kind: kinds[Math.floor(rnd() * kinds.length)]!,
      tone: toneOf[status],
      violation: status !== 'offline' && rnd() < 0.08,
      status,
      plate,
      label: plate,
    });
  }
  return out;
}

/** One position update per vehicle: a small move along its heading (or a random one). */
export function demoUpdates(
  vehicles: readonly VehicleMarker[],
  seed = 2,
  step = 0.002,
): VehiclePositionUpdate[] {
  const rnd = seededRandom(seed);
  return vehicles.map((v) => {
    const heading = v.heading ?? Math.floor(rnd() * 360);
    const rad = (heading * Math.PI) / 180;
    return {
      id: v.id,
      lat: v.lat + Math.cos(rad) * step * rnd(),
      lng: v.lng + Math.sin(rad) * step * rnd(),
      heading: (heading + Math.floor(rnd() * 30) - 15 + 360) % 360,
    };
  });
}

/** A plausible route: `count` records every `intervalMs`, starting at `start`. */
export function demoRoute(
  count = 120,
  seed = 3,
  start = Date.UTC(2026, 10, 20, 6, 0, 0),
  intervalMs = 30_000,
): RoutePoint[] {
  const rnd = seededRandom(seed);
  let lat = DUBAI[0] - 0.05;
  let lng = DUBAI[1] - 0.08;
  let heading = 60;
  const out: RoutePoint[] = [];
  for (let i = 0; i < count; i++) {
    const speed = Math.round(20 + rnd() * 80);
    out.push({ lat, lng, time: start + i * intervalMs, speed });
    heading += (rnd() - 0.5) * 40;
    const dist = (speed / 3600) * (intervalMs / 1000) * 0.009;
    lat += Math.cos((heading * Math.PI) / 180) * dist;
    lng += Math.sin((heading * Math.PI) / 180) * dist;
  }
  return out;
}
