import { simRoutes } from './routes';
import { SimDevice, type SimProtocol } from './device';
import { VirtualVehicle } from './vehicle';

export interface SimulatedFleetOptions {
  /** `from`: where the device last reported (the vehicle leaves from there; see VirtualVehicle). */
  devices: readonly { imei: string; protocol: SimProtocol; from?: { latitude: number; longitude: number } }[];
  host?: string;
  /** Gateway port per protocol (the simulator only starts devices whose protocol has a port). */
  ports: Partial<Record<SimProtocol, number>>;
  /** Report interval per device, ms of wall time (default 5000). */
  intervalMs?: number;
  /** Seed of every random choice (routes, behaviour, IO values); same seed, same fleet. */
  seed?: number;
  /** UDP instead of TCP where the protocol has it (Teltonika, GoSafe). */
  transport?: 'tcp' | 'udp';
  /**
   * Fix times: 'real' = wall clock (demo; live status needs fresh data); 'virtual' = a clock that
   * starts `virtualStartMs` and advances one interval per report (benchmarks: many reports per second
   * without two records of a device sharing a fix time).
   */
  clock?: 'real' | 'virtual';
  virtualStartMs?: number;
  /** Simulated seconds per report when the clock is virtual (default interval / 1000). */
  virtualStepMs?: number;
  /** Spread the devices' first reports over one interval (default true). */
  stagger?: boolean;
  maxRecordsPerFrame?: number;
  ackTimeoutMs?: number;
  onAck?: (latencyMs: number, records: number) => void;
  onCommand?: (imei: string, text: string, answer: string) => void;
  log?: (msg: string) => void;
}

export interface SimulatedFleet {
  readonly devices: readonly SimDevice[];
  /** Records generated / acknowledged so far. */
  stats(): { generated: number; acked: number; frames: number; answered: number; connected: number };
  stop(): void;
}

/**
 * Starts virtual devices against a gateway: each drives a bundled route (chosen by the seed), reports
 * every interval with its protocol's real frames over TCP/UDP and answers commands. A device that is
 * "silent" keeps its records and sends the backlog when it comes back.
 */
export function startSimulatedFleet(options: SimulatedFleetOptions): SimulatedFleet {
  const host = options.host ?? '127.0.0.1';
  const intervalMs = Math.max(1, options.intervalMs ?? 5000);
  const seed = options.seed ?? 1;
  const clock = options.clock ?? 'real';
  const step = options.virtualStepMs ?? intervalMs;
  const devices: SimDevice[] = [];
  const timers: ReturnType<typeof setTimeout>[] = [];
  let generated = 0;
  options.devices.forEach((d, i) => {
    const port = options.ports[d.protocol];
    if (port === undefined) return;
    const vehicle = new VirtualVehicle(
      d.imei,
      (seed * 7919 + i * 104_729) >>> 0,
      simRoutes[(seed + i) % simRoutes.length],
      d.from,
    );
    const device = new SimDevice({
      imei: d.imei,
      protocol: d.protocol,
      host,
      port,
      vehicle,
      transport:
        options.transport === 'udp' && (d.protocol === 'teltonika' || d.protocol === 'gosafe')
          ? 'udp'
          : 'tcp',
      ...(options.maxRecordsPerFrame ? { maxRecordsPerFrame: options.maxRecordsPerFrame } : {}),
      ...(options.ackTimeoutMs ? { ackTimeoutMs: options.ackTimeoutMs } : {}),
      ...(options.onAck ? { onAck: options.onAck } : {}),
      ...(options.onCommand ? { onCommand: (t: string, a: string) => options.onCommand!(d.imei, t, a) } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    devices.push(device);
    let virtualNow = options.virtualStartMs ?? Date.now() - 3600_000;
    const tick = () => {
      vehicle.step(step);
      const at = clock === 'real' ? Date.now() : (virtualNow += step);
      generated++;
      device.report(vehicle.record(d.protocol, at), vehicle.state.silent);
    };
    const begin = () => {
      device.start();
      const t = setInterval(tick, intervalMs);
      timers.push(t);
      setTimeout(tick, 50);
    };
    if (options.stagger === false) begin();
    else timers.push(setTimeout(begin, Math.floor((intervalMs * i) / Math.max(1, options.devices.length))));
  });
  return {
    devices,
    stats: () => ({
      generated,
      acked: devices.reduce((n, d) => n + d.ackedRecords, 0),
      frames: devices.reduce((n, d) => n + d.sentFrames, 0),
      answered: devices.reduce((n, d) => n + d.answered, 0),
      connected: devices.filter((d) => d.connected).length,
    }),
    stop() {
      for (const t of timers) clearTimeout(t);
      for (const d of devices) d.stop();
    },
  };
}

/** Deterministic test IMEIs: 15 digits with a valid Luhn check digit. */
export function simulatedImei(index: number, prefix = '35000'): string {
  const body = (prefix + String(index).padStart(14 - prefix.length, '0')).slice(0, 14);
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = Number(body[13 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}
