import {
  IO,
  createPrng,
  type DecodedRecord,
  type IoValue,
  type Prng,
  type ProtocolName,
} from '@fleet/device-protocols';
import { bearing, distanceMeters, simRoutes, type SimRoute } from './routes';

/**
 * One virtual vehicle: a deterministic behaviour model (seeded) that drives a bundled route and
 * produces the readings a tracker would report. Phases:
 * - `parked`: ignition off, external power on, sometimes refuelled (or, rarely, fuel lost: theft/leak);
 * - `idling`: ignition on, not moving (warming up, waiting);
 * - `driving`: along the polyline with speed noise; overspeed episodes above the route's limit;
 * - `stopped`: at a stop with ignition on and the door open;
 * - `silent`: the tracker loses the network (records are kept and sent later, as real devices do).
 * Rare events: emergency button press, power cut (unplugged tracker), immobilized engine (by command).
 */
export type Phase = 'parked' | 'idling' | 'driving' | 'stopped';

export interface VehicleState {
  phase: Phase;
  silent: boolean;
  latitude: number;
  longitude: number;
  speed: number;
  course: number;
  ignition: boolean;
  door: boolean;
  odometerM: number;
  fuelL: number;
  tankL: number;
  emergency: boolean;
  unplugged: boolean;
  output1: boolean;
  output2: boolean;
  immobilized: boolean;
}

export class VirtualVehicle {
  readonly route: SimRoute;
  readonly state: VehicleState;
  private readonly prng: Prng;
  private seg = 0;
  private along = 0;
  private dir = 1;
  private phaseLeftMs: number;
  private silentLeftMs = 0;
  private overspeedLeftMs = 0;
  private cruise: number;

  constructor(
    readonly imei: string,
    seed: number,
    route?: SimRoute,
    /**
     * Where the vehicle's tracker last reported (the demo's stored history ends at each vehicle's depot
     * bay). Given, the vehicle starts there (most drive out at once, as without it) and its route is the bundled one nearest to it with
     * this point in front, so it drives out to the route, along it and back: the live track goes on
     * from the stored one instead of jumping to a route elsewhere (a straight line across the map in
     * route history, Dubai to Abu Dhabi for some demo vehicles).
     */
    from?: { latitude: number; longitude: number },
  ) {
    this.prng = createPrng(seed);
    const picked = route ?? simRoutes[this.prng.int(0, simRoutes.length - 1)]!;
    this.route = from ? routeFrom(from) : picked;
    this.seg = from ? 0 : this.prng.int(0, this.route.points.length - 2);
    const p = this.route.points[this.seg]!;
    this.cruise = this.route.speedLimit * (0.6 + this.prng.next() * 0.3);
    this.state = {
      phase: this.prng.next() < 0.7 ? 'driving' : 'parked',
      silent: false,
      latitude: p[0],
      longitude: p[1],
      speed: 0,
      course: 0,
      ignition: false,
      door: false,
      odometerM: this.prng.int(5_000, 250_000) * 1000,
      fuelL: 30 + this.prng.int(0, 40),
      tankL: 80,
      emergency: false,
      unplugged: false,
      output1: false,
      output2: false,
      immobilized: false,
    };
    this.state.ignition = this.state.phase !== 'parked';
    this.phaseLeftMs = this.prng.int(30, 300) * 1000;
  }

  private enter(phase: Phase, minS: number, maxS: number): void {
    this.state.phase = phase;
    this.phaseLeftMs = this.prng.int(minS, maxS) * 1000;
    this.state.ignition = phase !== 'parked';
    this.state.door = phase === 'stopped' || (phase === 'parked' && this.prng.next() < 0.3);
    if (phase !== 'driving') this.state.speed = 0;
  }

  /** Advance the model by `dtMs` of simulated time. */
  step(dtMs: number): void {
    const s = this.state;
    const p = this.prng;
    const dtS = dtMs / 1000;
    s.emergency = p.next() < 0.0008;
    if (s.silent) {
      this.silentLeftMs -= dtMs;
      if (this.silentLeftMs <= 0) s.silent = false;
    } else if (p.next() < 0.002) {
      s.silent = true;
      this.silentLeftMs = p.int(20, 180) * 1000;
    }
    if (s.unplugged ? p.next() < 0.05 : p.next() < 0.0005) s.unplugged = !s.unplugged;
    this.phaseLeftMs -= dtMs;
    if (s.immobilized && s.phase !== 'parked') this.enter('parked', 60, 600);
    switch (s.phase) {
      case 'parked':
        if (p.next() < 0.004 && s.fuelL < s.tankL * 0.4) s.fuelL = s.tankL; // refuel
        if (p.next() < 0.0015) s.fuelL = Math.max(2, s.fuelL - p.int(10, 25)); // lost fuel (theft / leak)
        if (this.phaseLeftMs <= 0 && !s.immobilized) this.enter('idling', 20, 120);
        break;
      case 'idling':
        s.fuelL = Math.max(0, s.fuelL - 0.0003 * dtS * 3);
        if (this.phaseLeftMs <= 0) this.enter('driving', 120, 900);
        break;
      case 'stopped':
        s.fuelL = Math.max(0, s.fuelL - 0.0003 * dtS * 3);
        if (this.phaseLeftMs <= 0) {
          s.door = false;
          this.enter(p.next() < 0.15 ? 'parked' : 'driving', 60, 900);
        }
        break;
      case 'driving':
        this.drive(dtS);
        break;
    }
  }

  private drive(dtS: number): void {
    const s = this.state;
    const p = this.prng;
    if (this.overspeedLeftMs > 0) this.overspeedLeftMs -= dtS * 1000;
    else if (p.next() < 0.01) this.overspeedLeftMs = p.int(15, 90) * 1000;
    const target = this.overspeedLeftMs > 0 ? this.route.speedLimit * (1.15 + p.next() * 0.25) : this.cruise;
    s.speed = Math.max(5, s.speed + (target - s.speed) * 0.5 + (p.next() - 0.5) * 8);
    let metres = (s.speed / 3.6) * dtS;
    s.odometerM += metres;
    s.fuelL = Math.max(0, s.fuelL - metres / 1000 / 8); // 12.5 L / 100 km
    const pts = this.route.points;
    while (metres > 0) {
      const a = pts[this.seg]!;
      const b = pts[this.seg + this.dir]!;
      const len = distanceMeters(a, b);
      const left = len - this.along;
      if (metres < left) {
        this.along += metres;
        metres = 0;
        const f = this.along / len;
        s.latitude = a[0] + (b[0] - a[0]) * f;
        s.longitude = a[1] + (b[1] - a[1]) * f;
        s.course = bearing(a, b);
        break;
      }
      metres -= left;
      this.seg += this.dir;
      this.along = 0;
      s.latitude = b[0];
      s.longitude = b[1];
      const end = this.seg + this.dir < 0 || this.seg + this.dir >= pts.length;
      if (end) this.dir = -this.dir;
      if (this.route.stops.includes(this.seg)) {
        this.enter(end && p.next() < 0.4 ? 'parked' : 'stopped', 20, 120);
        return;
      }
    }
    if (this.phaseLeftMs <= 0 && p.next() < 0.2) this.enter('idling', 20, 180);
  }

  /** The record a tracker would produce now (IO ids of the spec). */
  record(protocol: ProtocolName, fixTime: number): DecodedRecord {
    const s = this.state;
    const io: Record<number, IoValue> = {
      [IO.ignition]: s.ignition ? 1 : 0,
      [IO.digitalInput1]: s.ignition ? 1 : 0,
      [IO.digitalInput2]: s.door ? 1 : 0,
      [IO.doorStatus]: s.door ? 1 : 0,
      [IO.externalVoltage]: s.unplugged ? 0 : s.ignition ? 13_900 + this.prng.int(0, 300) : 12_600,
      [IO.batteryVoltage]: 4_050 + this.prng.int(0, 100),
      [IO.odometer]: Math.round(s.odometerM),
      [IO.totalMileage]: Math.round(s.odometerM),
      [IO.fuelLevel]: Math.round((s.fuelL / s.tankL) * 100),
      [IO.fuelLitres]: Math.round(s.fuelL * 10), // 0.1 L units, as @fleet/core's catalogue reads IO 84
      [IO.engineRpm]: s.ignition ? (s.speed > 0 ? 1200 + Math.round(s.speed * 18) : 750) : 0,
      [IO.gsmSignal]: this.prng.int(3, 5),
      [IO.temperature]: 2_800 + this.prng.int(0, 1_200), // 0.01 °C units (IO 25): 28-40 °C
      [IO.digitalOutput1]: s.output1 ? 1 : 0,
      [IO.digitalOutput2]: s.output2 ? 1 : 0,
      [IO.emergencyButton]: s.emergency ? 1 : 0,
      [IO.sleepMode]: s.phase === 'parked' ? 1 : 0,
      [IO.batteryLevel]: 90 + this.prng.int(0, 10),
    };
    return {
      imei: this.imei,
      protocol,
      fixTime,
      valid: true,
      latitude: Math.round(s.latitude * 1e6) / 1e6,
      longitude: Math.round(s.longitude * 1e6) / 1e6,
      altitude: 5 + this.prng.int(0, 20),
      speed: Math.round(s.speed),
      course: Math.round(s.course),
      satellites: this.prng.int(7, 14),
      hdop: 0.8,
      priority: s.emergency ? 2 : 0,
      eventId: s.emergency ? IO.emergencyButton : 0,
      io,
    };
  }
}

/**
 * The bundled route nearest to `from` (by its nearer end), driven from `from`: `from` becomes the first
 * point and a stop (the depot), then the route from that end on.
 */
export function routeFrom(from: { latitude: number; longitude: number }): SimRoute {
  const here: readonly [number, number] = [from.latitude, from.longitude];
  let best = { route: simRoutes[0]!, reversed: false, d: Infinity };
  for (const route of simRoutes) {
    const first = distanceMeters(here, route.points[0]!);
    const last = distanceMeters(here, route.points[route.points.length - 1]!);
    if (first < best.d) best = { route, reversed: false, d: first };
    if (last < best.d) best = { route, reversed: true, d: last };
  }
  const n = best.route.points.length;
  const points = best.reversed ? [...best.route.points].reverse() : [...best.route.points];
  const stops = best.route.stops.map((i) => (best.reversed ? n - 1 - i : i) + 1);
  return { ...best.route, points: [here, ...points], stops: [0, ...stops].sort((a, b) => a - b) };
}
