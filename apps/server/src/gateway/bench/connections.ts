/**
 * bench:connections — 10,000 concurrent device connections held by one gateway process under 1 GB RSS.
 *
 * The gateway runs alone in a child process (embedded PGlite with BENCH_CONNECTIONS registered Teltonika
 * devices), so its RSS is its own; this process opens the connections in waves, each doing the real IMEI
 * handshake (the gateway resolves the device, answers 01, marks it online) and then sending one Codec 8E
 * record (stored and ACKed), and keeps them open. Figures: connections accepted and held, gateway RSS and
 * heap with all of them open, per-connection memory, time to accept them all.
 *
 * Env: BENCH_CONNECTIONS (default 10000), BENCH_WAVE (default 500).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { encodeTeltonikaAvl, encodeTeltonikaImei, IO } from '@fleet/device-protocols';
import { openStorage } from '../../storage/storage';
import { InProcessBus } from '../../realtime/bus';
import { gatewayConfig } from '../config';
import { startGateway } from '../gateway';
import { simulatedImei } from '../../simulator/fleet';

const N = Number(process.env.BENCH_CONNECTIONS ?? 10_000);
const WAVE = Number(process.env.BENCH_WAVE ?? 500);
const imeiOf = (i: number) => simulatedImei(i + 1, '35800');

/** Child: the gateway. Prints `PORT n`, then `STAT {...}` on every `stat` line it reads. */
async function gatewayProcess(): Promise<void> {
  const storage = await openStorage({});
  const db = storage.db;
  const [c] = await db.query<{ id: number }>(
    `INSERT INTO transport_companies (name) VALUES ('Conn') RETURNING id`,
  );
  const imeis = Array.from({ length: N }, (_, i) => imeiOf(i));
  await db.query(
    `INSERT INTO devices (company_id, imei, type) SELECT $1, x, 'teltonika' FROM unnest($2::text[]) x`,
    [c!.id, imeis],
  );
  const gw = await startGateway({
    config: gatewayConfig({
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_TELTONIKA_PORT: '0',
      GATEWAY_RUPTELA_PORT: 'off',
      GATEWAY_GOSAFE_PORT: 'off',
      GATEWAY_ISTARTEK_PORT: 'off',
      GATEWAY_OSMAND_PORT: 'off',
      GATEWAY_UDP: 'off',
      GATEWAY_MAX_CONNECTIONS: String(N + 100),
      GATEWAY_MAX_CONNECTIONS_PER_IP: String(N + 100),
    }),
    storage,
    bus: new InProcessBus(),
  });
  process.stdout.write(`PORT ${gw.ports.teltonika}\n`);
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (line === 'stat') {
      global.gc?.();
      const m = process.memoryUsage();
      process.stdout.write(
        `STAT ${JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, connections: gw.stats.connections, stored: gw.queue.stats.stored })}\n`,
      );
    } else if (line === 'quit') {
      void gw.close().then(() => process.exit(0));
    }
  });
}

interface Stat {
  rss: number;
  heapUsed: number;
  connections: number;
  stored: number;
}

async function main(): Promise<void> {
  console.log(
    `bench:connections  ${N} Teltonika connections (handshake + one record each) held by one gateway process`,
  );
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), '--gateway'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const waiters: ((line: string) => void)[] = [];
  lines.on('line', (l) => waiters.shift()?.(l));
  const nextLine = () => new Promise<string>((r) => waiters.push(r));
  const portLine = await nextLine();
  const port = Number(portLine.split(' ')[1]);
  const stat = async (): Promise<Stat> => {
    child.stdin!.write('stat\n');
    return JSON.parse((await nextLine()).slice(5)) as Stat;
  };
  const idle = await stat();
  const sockets: Socket[] = [];
  let accepted = 0;
  let acked = 0;
  let failed = 0;
  const t0 = performance.now();
  const fix = Date.now() - 3600_000;
  for (let start = 0; start < N; start += WAVE) {
    const wave: Promise<void>[] = [];
    for (let i = start; i < Math.min(N, start + WAVE); i++) {
      wave.push(
        new Promise<void>((resolve) => {
          const imei = imeiOf(i);
          const s = connect({ port, host: '127.0.0.1' });
          sockets.push(s);
          let stage = 0;
          const done = () => {
            stage = 3;
            resolve();
          };
          s.on('error', () => {
            if (stage < 3) failed++;
            done();
          });
          s.on('close', () => {
            if (stage < 3) failed++;
            done();
          });
          s.on('connect', () => s.write(encodeTeltonikaImei(imei)));
          s.on('data', (b: Buffer) => {
            if (stage === 0 && b[0] === 1) {
              stage = 1;
              accepted++;
              s.write(
                encodeTeltonikaAvl([
                  {
                    imei,
                    protocol: 'teltonika',
                    fixTime: fix + i,
                    valid: true,
                    latitude: 25.2,
                    longitude: 55.3,
                    altitude: 5,
                    speed: 0,
                    course: 0,
                    satellites: 9,
                    eventId: 0,
                    io: { [IO.ignition]: 0 },
                  },
                ]),
              );
              b = b.subarray(1);
            }
            if (stage === 1 && b.length >= 4) {
              acked++;
              done();
            }
          });
        }),
      );
    }
    await Promise.all(wave);
  }
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 1000));
  const held = await stat();
  const open = sockets.filter((s) => !s.destroyed).length;
  const mb = (b: number) => Math.round(b / 1024 / 1024);
  const perConn = (held.rss - idle.rss) / Math.max(1, held.connections);
  console.log(
    `gateway idle (PGlite + ${N} devices seeded): RSS ${mb(idle.rss)} MB, heap ${mb(idle.heapUsed)} MB`,
  );
  console.log(
    `held ${held.connections} connections (${open} open on the client side, ${accepted} handshakes accepted, ${acked} records ACKed, ${failed} failed) in ${seconds.toFixed(1)} s`,
  );
  console.log(
    `gateway with all connections: RSS ${mb(held.rss)} MB, heap ${mb(held.heapUsed)} MB, ~${(perConn / 1024).toFixed(1)} KB RSS per connection`,
  );
  child.stdin!.write('quit\n');
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => child.once('exit', () => r()));
  console.log(
    JSON.stringify({
      bench: 'connections',
      machine: { cpus: cpus().length, load_avg_1m: +loadavg()[0]!.toFixed(1) },
      connections_held: held.connections,
      accepted,
      acked,
      failed,
      gateway_rss_mb: mb(held.rss),
      gateway_heap_mb: mb(held.heapUsed),
      per_connection_kb: +(perConn / 1024).toFixed(1),
      seconds_to_accept: +seconds.toFixed(1),
      goal: { connections: 10_000, max_rss_mb: 1024 },
      met: held.connections >= 10_000 && held.rss < 1024 * 1024 * 1024,
    }),
  );
}

if (process.argv[2] === '--gateway') await gatewayProcess();
else {
  await main();
  process.exit(0);
}
