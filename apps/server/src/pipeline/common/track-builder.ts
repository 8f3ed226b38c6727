import { destination } from './geo';
import type { IoMap } from './io';
import type { PositionRecord } from './types';

/**
 * Scripted-route builder for tests and benchmarks: appends records every `stepS` seconds while the
 * vehicle parks, idles or drives along a bearing. Deterministic; odometer (IO 16) optional.
 */
export class TrackBuilder {
  private readonly out: PositionRecord[] = [];
  private odometerM = 0;
  private seq = 0;

  constructor(
    private t: number,
    private lat: number,
    private lon: number,
    private readonly opts: {
      deviceId?: string;
      stepS?: number;
      odometer?: boolean;
      ignitionLine?: boolean;
    } = {},
  ) {}

  get time(): number {
    return this.t;
  }

  get position(): { lat: number; lon: number } {
    return { lat: this.lat, lon: this.lon };
  }

  private push(speed: number, ignition: boolean, extraIo: IoMap = {}): void {
    const io: Record<string, unknown> = { ...extraIo };
    if (this.opts.odometer) io[16] = Math.round(this.odometerM);
    if (this.opts.ignitionLine !== false) io[239] = ignition ? 1 : 0;
    this.out.push({
      id: `${this.opts.deviceId ?? 'dev-1'}-${String(this.seq++).padStart(6, '0')}`,
      deviceId: this.opts.deviceId ?? 'dev-1',
      vehicleId: 'veh-1',
      time: this.t,
      receivedAt: this.t,
      lat: this.lat,
      lon: this.lon,
      speed,
      io: io as IoMap,
    });
  }

  /** Stationary records for `seconds`, ignition as given. */
  park(seconds: number, ignition = false, io: IoMap = {}): this {
    const step = this.opts.stepS ?? 10;
    for (let s = 0; s < seconds; s += step) {
      this.push(0, ignition, io);
      this.t += step * 1000;
    }
    return this;
  }

  idle(seconds: number, io: IoMap = {}): this {
    return this.park(seconds, true, io);
  }

  /** Drives for `seconds` at `speedKmh` along `bearing`, ignition on. */
  drive(seconds: number, speedKmh: number, bearing: number, io: IoMap = {}): this {
    const step = this.opts.stepS ?? 10;
    for (let s = 0; s < seconds; s += step) {
      this.push(speedKmh, true, io);
      const d = (speedKmh / 3.6) * step;
      const p = destination(this.lat, this.lon, bearing, d);
      this.lat = p.lat;
      this.lon = p.lon;
      this.odometerM += d;
      this.t += step * 1000;
    }
    return this;
  }

  /** No records for `seconds`. */
  gap(seconds: number): this {
    this.t += seconds * 1000;
    return this;
  }

  /** Appends one arbitrary record at the current time (without advancing). */
  raw(p: Partial<PositionRecord>): this {
    this.out.push({
      id: `${this.opts.deviceId ?? 'dev-1'}-${String(this.seq++).padStart(6, '0')}`,
      deviceId: this.opts.deviceId ?? 'dev-1',
      time: this.t,
      receivedAt: this.t,
      lat: this.lat,
      lon: this.lon,
      speed: 0,
      ...p,
    });
    return this;
  }

  records(): PositionRecord[] {
    return [...this.out];
  }
}
