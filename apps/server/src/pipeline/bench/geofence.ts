/**
 * Micro benchmark: geofence entry/exit tracking with 10,000 geofences (polygons and circles spread over
 * Dubai) for a fleet of vehicles driving random walks. Prints positions per second; the last line is a
 * JSON summary. Run with `npm run bench:geofence` from the repo root.
 */
import { loadavg } from 'node:os';
import { prng } from '../common/fixtures';
import { destination } from '../common/geo';
import type { PositionRecord } from '../common/types';
import type { GeofenceShape } from '../geofence/geometry';
import { GeofenceTracker, type Geofence } from '../geofence/tracker';

const FENCES = 10_000;
const VEHICLES = 1_000;
const POSITIONS = 200_000;
// "10,000 geofences cheap per position": at most 50 µs per position on one core.
const GOAL_POSITIONS_PER_S = 20_000;

const rand = prng(2026);
const fences: Geofence[] = [];
for (let i = 0; i < FENCES; i++) {
  const lat = 24.95 + rand() * 0.4;
  const lon = 55.0 + rand() * 0.45;
  let shape: GeofenceShape;
  if (i % 2 === 0) {
    shape = { kind: 'circle', lat, lon, radiusM: 50 + rand() * 450 };
  } else {
    const n = 5 + Math.floor(rand() * 20);
    const ring = Array.from({ length: n }, (_, k) => {
      const p = destination(lat, lon, (k * 360) / n, 80 + rand() * 420);
      return [p.lat, p.lon] as const;
    });
    shape = { kind: 'polygon', rings: [ring] };
  }
  fences.push({ id: `g${i}`, shape, tracking: ['entry', 'exit'] });
}

const buildStart = performance.now();
const tracker = new GeofenceTracker(fences);
const buildMs = performance.now() - buildStart;

// Pre-generate positions so the timing covers tracking only.
const positions: PositionRecord[] = [];
const pos = Array.from({ length: VEHICLES }, () => ({
  lat: 24.95 + rand() * 0.4,
  lon: 55 + rand() * 0.45,
  b: rand() * 360,
}));
const t0 = Date.UTC(2026, 0, 5);
for (let k = 0; k < POSITIONS; k++) {
  const v = k % VEHICLES;
  const p = pos[v]!;
  p.b += (rand() - 0.5) * 40;
  const next = destination(p.lat, p.lon, p.b, 150);
  p.lat = Math.min(25.35, Math.max(24.95, next.lat));
  p.lon = Math.min(55.45, Math.max(55.0, next.lon));
  const time = t0 + Math.floor(k / VEHICLES) * 10_000;
  positions.push({ deviceId: `d${v}`, time, receivedAt: time, lat: p.lat, lon: p.lon, speed: 54 });
}

let events = 0;
const start = performance.now();
const cpu0 = process.cpuUsage();
for (const r of positions) events += tracker.update(r.deviceId, r).length;
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - start;
// On a shared machine wall time mostly measures the neighbours; CPU time is the cost per position.
const cpuMs = (cpu.user + cpu.system) / 1000;
const wallPerS = Math.round((POSITIONS / ms) * 1000);
const perS = Math.round((POSITIONS / cpuMs) * 1000);

console.log(`geofences:            ${FENCES} (index built in ${buildMs.toFixed(1)} ms)`);
console.log(`vehicles:             ${VEHICLES}`);
console.log(`positions:            ${POSITIONS}`);
console.log(`entry/exit events:    ${events}`);
console.log(`elapsed:              ${ms.toFixed(0)} ms wall, ${cpuMs.toFixed(0)} ms CPU`);
console.log(
  `positions per second: ${wallPerS} wall, ${perS} per CPU second (goal >= ${GOAL_POSITIONS_PER_S} per CPU second)`,
);
console.log(`CPU per position:     ${((cpuMs * 1000) / POSITIONS).toFixed(1)} µs`);
console.log(
  `load average (1 min): ${loadavg()[0]!.toFixed(2)} (shared machine: figures scale with free CPU)`,
);
console.log(
  JSON.stringify({
    bench: 'geofence',
    geofences: FENCES,
    vehicles: VEHICLES,
    positions: POSITIONS,
    events,
    index_build_ms: Number(buildMs.toFixed(1)),
    elapsed_ms: Math.round(ms),
    cpu_ms: Math.round(cpuMs),
    positions_per_s_wall: wallPerS,
    positions_per_cpu_s: perS,
    goal_positions_per_s: GOAL_POSITIONS_PER_S,
    pass: perS >= GOAL_POSITIONS_PER_S,
    load_avg_1m: Number(loadavg()[0]!.toFixed(2)),
  }),
);
