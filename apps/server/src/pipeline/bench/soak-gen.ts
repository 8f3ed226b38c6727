import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { encodeTeltonikaAvl, encodeTeltonikaImei, type DecodedRecord } from '@fleet/device-protocols';
import { destination } from '../common/geo';
import { prng } from '../common/fixtures';

/**
 * The load generator of bench:soak and of bench:cluster --day, in its own process so the servers'
 * CPU is measured alone: N Teltonika devices (Codec 8E over real TCP, one connection each, spread
 * over the given gateway ports) report every `intervalS` simulated seconds of a day starting at
 * {@link DAY0}; the simulated clock runs `speedup` times faster than the wall clock, so each device
 * sends a frame per wall tick holding the records of that simulated time range (parking, idling and
 * driving in Dubai; the first `probes` vehicles keep their ignition on so the engine report tells how
 * far their rollups got). It prints one JSON line a second: records acknowledged, ACK times, and the
 * send time of each probe frame.
 */

/** Local midnight in Dubai (UTC+4) of the simulated day. */
export const DAY0 = Date.UTC(2026, 5, 1, 20, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// ------------------------------------------------------------------------------------------------
// Load generator (child process)
// ------------------------------------------------------------------------------------------------

export interface GenConfig {
  /** gateway Teltonika ports; device i connects to ports[i % n] */
  ports: number[];
  imeis: string[];
  /** simulated ms per wall ms */
  speedup: number;
  hours: number;
  intervalS: number;
  /**
   * Simulated seconds a device gathers records before it sends them (Teltonika's "send period"; its
   * own default on the move is 60 s with a record every 10 s). Undefined or at most `intervalS`: each
   * record goes out as soon as it is due (a frame per record, or per wall tick at high speed-ups).
   */
  sendPeriodS?: number | undefined;
  probes: number;
}

class Vehicle {
  private lat: number;
  private lon: number;
  private heading: number;
  private mode: 'park' | 'idle' | 'drive' = 'park';
  private until = 0;
  private odo = 0;
  private fuel = 60;
  constructor(
    private readonly rand: () => number,
    private readonly alwaysOn: boolean,
    private readonly intervalS: number,
  ) {
    this.lat = 25.05 + rand() * 0.25;
    this.lon = 55.1 + rand() * 0.35;
    this.heading = rand() * 360;
  }
  record(imei: string, t: number): DecodedRecord {
    const r = this.rand;
    if (t >= this.until) {
      const hour = ((t - DAY0) / 3_600_000) % 24;
      const busy = hour >= 6 && hour < 21;
      const x = r();
      this.mode = busy ? (x < 0.55 ? 'drive' : x < 0.7 ? 'idle' : 'park') : x < 0.1 ? 'drive' : 'park';
      if (this.alwaysOn && this.mode === 'park') this.mode = 'idle';
      this.until = t + (5 + r() * 40) * 60_000;
    }
    let speed = 0;
    if (this.mode === 'drive') {
      speed = Math.round(20 + r() * 90);
      this.heading += (r() - 0.5) * 30;
      const p = destination(this.lat, this.lon, this.heading, (speed / 3.6) * this.intervalS);
      if (p.lat > 24.9 && p.lat < 25.4 && p.lon > 55 && p.lon < 55.6) {
        this.lat = p.lat;
        this.lon = p.lon;
      } else this.heading += 180;
      this.odo += Math.round((speed / 3.6) * this.intervalS);
      this.fuel -= 0.0015 * this.intervalS;
    } else if (this.mode === 'idle') this.fuel -= 0.0002 * this.intervalS;
    if (this.fuel < 8) this.fuel = 60;
    const on = this.mode !== 'park';
    return {
      imei,
      protocol: 'teltonika',
      fixTime: t,
      valid: true,
      latitude: this.lat,
      longitude: this.lon,
      altitude: 10,
      speed,
      course: Math.round(((this.heading % 360) + 360) % 360),
      satellites: 9,
      eventId: 0,
      io: { 239: on ? 1 : 0, 16: this.odo, 84: Math.round(this.fuel * 10), 66: 12_800 },
    };
  }
}

export async function generator(cfg: GenConfig): Promise<void> {
  const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const intervalMs = cfg.intervalS * 1000;
  const sendPeriodMs = Math.max(0, (cfg.sendPeriodS ?? 0) * 1000 - intervalMs);
  const end = DAY0 + cfg.hours * 3_600_000;
  const devices = cfg.imeis.map((imei, i) => {
    const rand = prng(i + 1);
    return {
      imei,
      v: new Vehicle(rand, i < cfg.probes, cfg.intervalS),
      next: DAY0 + Math.floor(rand() * intervalMs),
      socket: null as Socket | null,
      inbox: Buffer.alloc(0),
      waiting: [] as { n: number; sent: number; last: number }[],
      /** Records due but not sent yet (the send period). */
      buffered: [] as DecodedRecord[],
    };
  });
  const acks: number[] = [];
  let acked = 0;
  const probeSends: [number, number, number][] = []; // [probe index, last fix, wall]
  // Connect (IMEI handshake), a few at a time.
  for (let i = 0; i < devices.length; i += 50) {
    await Promise.all(
      devices.slice(i, i + 50).map(
        (d, k) =>
          new Promise<void>((resolve, reject) => {
            const s = connect({ port: cfg.ports[(i + k) % cfg.ports.length]!, host: '127.0.0.1' });
            s.setNoDelay(true);
            d.socket = s;
            let hand = false;
            s.once('connect', () => s.write(encodeTeltonikaImei(d.imei)));
            s.on('error', reject);
            s.on('data', (chunk: Buffer) => {
              d.inbox = Buffer.concat([d.inbox, chunk]);
              if (!hand) {
                if (d.inbox[0] !== 1) return reject(new Error(`device ${d.imei} refused`));
                d.inbox = d.inbox.subarray(1);
                hand = true;
                resolve();
              }
              while (d.inbox.length >= 4) {
                d.inbox = d.inbox.subarray(4);
                const w = d.waiting.shift();
                if (!w) continue;
                acks.push(Date.now() - w.sent);
                acked += w.n;
              }
            });
          }),
      ),
    );
  }
  const wall0 = Date.now();
  out({ kind: 'start', wall0 });
  let lastReport = Date.now();
  for (;;) {
    const simNow = DAY0 + (Date.now() - wall0) * cfg.speedup;
    let done = true;
    for (const [i, d] of devices.entries()) {
      while (d.next <= simNow && d.next < end) {
        d.buffered.push(d.v.record(d.imei, d.next));
        d.next += intervalMs;
      }
      if (d.next < end) done = false;
      // The device sends what it gathered once the oldest record is a send period old (or the day ended).
      const oldest = d.buffered[0];
      if (!oldest || (simNow - oldest.fixTime < sendPeriodMs && d.next < end)) continue;
      const recs = d.buffered.splice(0);
      // Codec 8E frames of at most 50 records (a device's buffer limit per frame).
      for (let k = 0; k < recs.length; k += 50) {
        const part = recs.slice(k, k + 50);
        d.waiting.push({ n: part.length, sent: Date.now(), last: part[part.length - 1]!.fixTime });
        d.socket!.write(encodeTeltonikaAvl(part));
      }
      if (i < cfg.probes) probeSends.push([i, recs[recs.length - 1]!.fixTime, Date.now()]);
    }
    if (Date.now() - lastReport >= 1000 || done) {
      out({
        kind: 'tick',
        simNow: Math.min(simNow, end),
        acked,
        acks: acks.splice(0),
        probeSends: probeSends.splice(0),
      });
      lastReport = Date.now();
    }
    if (done && devices.every((d) => d.waiting.length === 0)) break;
    await sleep(done ? 100 : 250);
  }
  out({ kind: 'done', acked });
  for (const d of devices) d.socket?.destroy();
}

export interface GenTick {
  kind: 'tick' | 'start' | 'done';
  simNow?: number;
  acked?: number;
  acks?: number[];
  probeSends?: [number, number, number][];
}

/** Starts the generator in a child process; `onMessage` gets its JSON lines. */
export function spawnGenerator(cfg: GenConfig, onMessage: (m: GenTick) => void) {
  const gen = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, SOAK_GEN: JSON.stringify(cfg) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let buf = '';
  gen.stdout!.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line.startsWith('{')) onMessage(JSON.parse(line) as GenTick);
    }
  });
  return gen;
}

if (process.env.SOAK_GEN && process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await generator(JSON.parse(process.env.SOAK_GEN) as GenConfig);
  process.exit(0);
}
