import { describe, expect, it } from 'vitest';
import {
  createTeltonikaSession,
  createRuptelaSession,
  createGoSafeSession,
  createIStartekSession,
  encodeTeltonikaAvl,
  encodeRuptelaRecords,
  encodeGoSafeText,
  encodeIStartekPosition,
  encodeTeltonikaImei,
  IO,
} from '@fleet/device-protocols';
import { VirtualVehicle, routeFrom } from './vehicle';
import { simRoutes, distanceMeters } from './routes';
import { simulatedImei } from './fleet';
import { SimDevice } from './device';

function run(seed: number, steps: number, stepMs = 5000) {
  const v = new VirtualVehicle('350000000000001', seed);
  const out = [];
  for (let i = 0; i < steps; i++) {
    v.step(stepMs);
    out.push(v.record('teltonika', i * stepMs));
  }
  return { v, out };
}

describe('virtual vehicle', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(run(42, 200).out).toEqual(run(42, 200).out);
    expect(run(42, 200).out).not.toEqual(run(43, 200).out);
  });

  it('drives, stops, idles, parks, overspeeds, opens doors, burns and refuels fuel, presses the button', () => {
    let minLat = 90;
    let maxLat = -90;
    const seen = {
      driving: 0,
      parked: 0,
      idle: 0,
      overspeed: 0,
      door: 0,
      emergency: 0,
      refuel: 0,
      drop: 0,
      silent: 0,
    };
    for (let seed = 1; seed <= 12; seed++) {
      const v = new VirtualVehicle('350000000000001', seed);
      let fuel = v.state.fuelL;
      for (let i = 0; i < 3000; i++) {
        v.step(5000);
        const r = v.record('teltonika', i * 5000);
        const s = v.state;
        if (s.phase === 'driving' && r.speed > 0) seen.driving++;
        if (r.io[IO.ignition] === 0) seen.parked++;
        if (r.io[IO.ignition] === 1 && r.speed === 0) seen.idle++;
        if (r.speed > v.route.speedLimit) seen.overspeed++;
        if (r.io[IO.doorStatus] === 1) seen.door++;
        if (r.io[IO.emergencyButton] === 1) seen.emergency++;
        if (s.silent) seen.silent++;
        if (s.fuelL > fuel + 5) seen.refuel++;
        if (s.fuelL < fuel - 5) seen.drop++;
        fuel = s.fuelL;
        minLat = Math.min(minLat, r.latitude);
        maxLat = Math.max(maxLat, r.latitude);
      }
    }
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(0);
    // Positions stay in the Gulf, along the routes.
    expect(minLat).toBeGreaterThan(20);
    expect(maxLat).toBeLessThan(30);
  });

  it('moves a plausible distance at its speed', () => {
    const v = new VirtualVehicle('350000000000001', 3, simRoutes[0]);
    let moved = 0;
    let prev: [number, number] = [v.state.latitude, v.state.longitude];
    for (let i = 0; i < 500; i++) {
      v.step(1000);
      const cur: [number, number] = [v.state.latitude, v.state.longitude];
      const d = distanceMeters(prev, cur);
      expect(d).toBeLessThan(60); // < 216 km/h
      moved += d;
      prev = cur;
    }
    expect(moved).toBeGreaterThan(0);
  });
});

describe('a vehicle that goes on from its last stored position', () => {
  // A depot bay in Abu Dhabi (the demo's history parks vehicles there at the end of the day).
  const depot = { latitude: 24.4672, longitude: 54.3712 };

  it('starts there, on the nearest bundled route with the depot as its first stop', () => {
    const route = routeFrom(depot);
    expect(route.city).toBe('Abu Dhabi');
    expect(route.points[0]).toEqual([depot.latitude, depot.longitude]);
    expect(route.stops[0]).toBe(0);
    const v = new VirtualVehicle('350000000000001', 11, simRoutes[0], depot);
    expect([v.state.latitude, v.state.longitude]).toEqual([depot.latitude, depot.longitude]);
  });

  it('drives out without a jump, stays in its city, and comes back past the depot', () => {
    const v = new VirtualVehicle('350000000000001', 11, simRoutes[0], depot);
    let prev: [number, number] = [v.state.latitude, v.state.longitude];
    let left = false;
    let back = false;
    let farthest = 0;
    for (let i = 0; i < 20_000; i++) {
      v.step(5000);
      const cur: [number, number] = [v.state.latitude, v.state.longitude];
      expect(distanceMeters(prev, cur)).toBeLessThan(300); // < 216 km/h over 5 s
      const away = distanceMeters([depot.latitude, depot.longitude], cur);
      farthest = Math.max(farthest, away);
      if (away > 1000) left = true;
      if (left && away < 50) back = true;
      prev = cur;
    }
    expect(left).toBe(true);
    expect(back).toBe(true);
    expect(farthest).toBeLessThan(40_000); // Abu Dhabi, not Dubai (130 km away)
  });
});

describe('simulated frames decode with the gateway codecs', () => {
  const imei = simulatedImei(5);
  it('has valid Luhn IMEIs', () => {
    expect(imei).toMatch(/^\d{15}$/);
    expect(simulatedImei(5)).toBe(imei);
    expect(simulatedImei(6)).not.toBe(imei);
  });

  it.each(['teltonika', 'ruptela', 'gosafe', 'istartek'] as const)('%s', (protocol) => {
    const v = new VirtualVehicle(imei, 9);
    v.step(5000);
    const rec = v.record(protocol, Date.UTC(2026, 10, 21, 4, 0, 0));
    let bytes: Uint8Array;
    let session: { decode(b: Uint8Array): { messages: { type: string }[]; error?: unknown } };
    if (protocol === 'teltonika') {
      session = createTeltonikaSession();
      session.decode(encodeTeltonikaImei(imei));
      bytes = encodeTeltonikaAvl([rec]);
    } else if (protocol === 'ruptela') {
      session = createRuptelaSession();
      bytes = encodeRuptelaRecords(imei, [rec], { extended: true });
    } else if (protocol === 'gosafe') {
      session = createGoSafeSession();
      bytes = encodeGoSafeText(imei, [rec]);
    } else {
      session = createIStartekSession();
      bytes = encodeIStartekPosition(rec);
    }
    const res = session.decode(bytes);
    expect(res.error).toBeUndefined();
    const msg = res.messages.find((m) => m.type === 'records') as unknown as {
      records: { latitude: number; longitude: number; io: Record<number, unknown> }[];
    };
    expect(msg.records[0]!.latitude).toBeCloseTo(rec.latitude, 4);
    expect(msg.records[0]!.longitude).toBeCloseTo(rec.longitude, 4);
    expect(msg.records[0]!.io[IO.ignition]).toBe(rec.io[IO.ignition]);
  });
});

describe('simulated firmware answers', () => {
  const device = new SimDevice({
    imei: '350000000000009',
    protocol: 'teltonika',
    host: '127.0.0.1',
    port: 1,
    vehicle: new VirtualVehicle('350000000000009', 1),
  });
  it.each([
    ['getver', /^Ver:/],
    ['getstatus', /GPRS: 1/],
    ['getgps', /^GPS:1 Sat:\d+ Lat:2\d\.\d+/],
    ['setdigout 1?', /^DOUT1:1 DOUT2:0$/],
    ['setdigout ?1', /^DOUT1:1 DOUT2:1$/],
    ['odoset:1234', /1234 km/],
    ['cpureset', /Reset OK/],
  ])('%s', (text, answer) => {
    expect(device.respond(text)).toMatch(answer);
  });
  it('switching output 1 immobilizes the vehicle', () => {
    device.respond('setdigout 1');
    expect(device.vehicle.state.immobilized).toBe(true);
    device.vehicle.step(1000);
    expect(device.vehicle.state.phase).toBe('parked');
    device.respond('setdigout 0');
    expect(device.vehicle.state.immobilized).toBe(false);
  });
});
