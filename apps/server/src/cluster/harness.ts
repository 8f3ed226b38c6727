import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { websocketUrl } from '@fleet/api-client';
import { encodeTeltonikaAvl, encodeTeltonikaImei, type DecodedRecord } from '@fleet/device-protocols';
import type { Queryable } from '../storage/db';
import { SERVER_MALLOC_ENV, SERVER_V8_FLAGS } from '../config/node-flags';
import { hashToken, newToken } from '../auth/crypto';

/**
 * Tools shared by the fault tests, the supervisor and the cluster benchmark: spawning role processes,
 * simulated Teltonika devices that count what was ACKed and fail over between gateways, and a
 * WebSocket client that reconnects between API nodes.
 */

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

export interface NodeInfo {
  name: string;
  role: string;
  pid: number;
  http?: string;
  teltonika?: number;
  [k: string]: unknown;
}

export interface NodeProcess {
  readonly name: string;
  readonly child: ChildProcess;
  info: NodeInfo;
  /** Lines of output kept for diagnostics (last 200). */
  readonly output: string[];
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawn one role process (tsx, source conditions) and resolve once it printed READY. */
export function spawnNode(
  name: string,
  env: Record<string, string>,
  opts: { timeoutMs?: number; echo?: (line: string) => void } = {},
): Promise<NodeProcess> {
  // The GC settings of `npm start` (config/node-flags.ts): the roles carry the same load, in parts.
  const child = spawn(
    process.execPath,
    [...SERVER_V8_FLAGS, '--import', 'tsx', '--conditions=source', MAIN],
    {
      cwd: SERVER_DIR,
      env: { ...SERVER_MALLOC_ENV, ...process.env, NODE_NAME: name, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} not ready in time:\n${output.slice(-20).join('\n')}`));
    }, opts.timeoutMs ?? 120_000);
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        output.push(line);
        if (output.length > 200) output.shift();
        opts.echo?.(line);
        if (line.startsWith('READY ')) {
          clearTimeout(timer);
          const proc: NodeProcess = {
            name,
            child,
            info: JSON.parse(line.slice(6)) as NodeInfo,
            output,
            exited,
            async kill(signal = 'SIGKILL') {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              await exited;
            },
          };
          resolve(proc);
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before READY:\n${output.slice(-20).join('\n')}`));
    });
  });
}

/** Environment of a cluster node with the device listeners other than Teltonika TCP off. */
export function nodeEnv(
  base: Record<string, string>,
  role: 'gateway' | 'worker' | 'api',
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ROLE: role,
    LOG_LEVEL: 'warn',
    FLEET_SEED_DEMO: 'false',
    SIMULATOR: 'off',
    GATEWAY_RUPTELA_PORT: 'off',
    GATEWAY_GOSAFE_PORT: 'off',
    GATEWAY_ISTARTEK_PORT: 'off',
    GATEWAY_OSMAND_PORT: 'off',
    GATEWAY_UDP: 'off',
    GATEWAY_TELTONIKA_PORT: '0',
    PORT: '0',
    ...base,
    ...extra,
  };
}

/** A company with `n` Teltonika devices, each carried by a vehicle, and an admin with a session. */
export async function seedFleet(
  db: Queryable,
  n: number,
  imeiBase = 356_307_040_000_000,
): Promise<{
  company: { id: number; uuid: string };
  devices: { id: number; uuid: string; imei: string; vehicleUuid: string }[];
  admin: { uuid: string; token: string };
}> {
  const [company] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Cluster Co') RETURNING id, uuid`,
  );
  const imeis = Array.from({ length: n }, (_, i) => String(imeiBase + i));
  const devs = await db.query<{ id: number; uuid: string; imei: string }>(
    `INSERT INTO devices (company_id, imei, type, make, model)
     SELECT $1, imei, 'teltonika', 'FMB', '920' FROM unnest($2::text[]) AS imei RETURNING id, uuid, imei`,
    [company!.id, imeis],
  );
  const vehs = await db.query<{ uuid: string; device_imei: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number, device_imei)
     SELECT $1, 'C ' || imei, imei FROM unnest($2::text[]) AS imei RETURNING uuid, device_imei`,
    [company!.id, imeis],
  );
  const vehOf = new Map(vehs.map((v) => [v.device_imei, v.uuid]));
  const [user] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO users (email, name, password_hash) VALUES ($1, 'Cluster admin', 'x') RETURNING id, uuid`,
    [`admin+${company!.uuid.slice(0, 8)}@cluster.test`],
  );
  await db.query(`INSERT INTO memberships (user_id, company_id, user_type) VALUES ($1, $2, 'admin')`, [
    user!.id,
    company!.id,
  ]);
  const token = newToken();
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, company_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 day')`,
    [user!.id, hashToken(token), company!.id],
  );
  return {
    company: company!,
    devices: devs.map((d) => ({ ...d, vehicleUuid: vehOf.get(d.imei)! })),
    admin: { uuid: user!.uuid, token },
  };
}

export interface SentRecord {
  imei: string;
  fixTime: number;
}

/**
 * A simulated Teltonika device over real TCP: IMEI handshake, Codec 8E AVL frames, waits for the
 * 4-byte ACK (record count). A frame counts as acknowledged only when its ACK arrived. When the
 * connection drops it reconnects to the next gateway of its list and resends the unacknowledged
 * frame (same records: the server must store them once).
 */
export class SimDevice {
  acked: SentRecord[] = [];
  sent = 0;
  /** Called when a frame is written (benchmarks time the way to the WebSocket from here). */
  onFrame?: (records: readonly DecodedRecord[], at: number) => void;
  reconnects = 0;
  private socket: Socket | null = null;
  private target = 0;
  private pending: { records: DecodedRecord[]; resolve: () => void } | null = null;
  private inbox = Buffer.alloc(0);
  private stopped = false;
  private ready: Promise<void> | null = null;
  /** Fix time (ms) of the next record; strictly increasing per device. */
  private clock: number;

  constructor(
    readonly imei: string,
    private readonly ports: readonly number[],
    startMs: number,
    private readonly host = '127.0.0.1',
  ) {
    this.target = Number(imei) % ports.length;
    this.clock = startMs;
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const port = this.ports[this.target % this.ports.length]!;
      const s = connect({ port, host: this.host });
      this.socket = s;
      this.inbox = Buffer.alloc(0);
      let handshaken = false;
      s.setNoDelay(true);
      s.once('connect', () => s.write(encodeTeltonikaImei(this.imei)));
      s.on('data', (chunk: Buffer) => {
        this.inbox = Buffer.concat([this.inbox, chunk]);
        if (!handshaken) {
          if (this.inbox.length < 1) return;
          const ok = this.inbox[0] === 1;
          this.inbox = this.inbox.subarray(1);
          if (!ok) return reject(new Error(`device ${this.imei} refused`));
          handshaken = true;
          resolve();
        }
        while (this.inbox.length >= 4 && this.pending) {
          const n = this.inbox.readUInt32BE(0);
          this.inbox = this.inbox.subarray(4);
          const p = this.pending;
          if (n === p.records.length) {
            this.pending = null;
            for (const r of p.records) this.acked.push({ imei: this.imei, fixTime: r.fixTime });
            p.resolve();
          }
        }
      });
      const lost = () => {
        if (this.socket !== s) return;
        this.socket = null;
        this.ready = null;
        if (!handshaken) reject(new Error('connection lost before handshake'));
      };
      s.on('error', lost);
      s.on('close', lost);
    });
  }

  private async ensure(): Promise<void> {
    while (!this.stopped) {
      if (this.socket && this.ready) return this.ready;
      this.ready = this.connect();
      try {
        await this.ready;
        return;
      } catch {
        this.ready = null;
        this.socket?.destroy();
        this.socket = null;
        this.reconnects++;
        this.target++;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Send one frame of `n` records (1 s apart) and wait for its ACK, failing over as needed. */
  async report(n = 1, timeoutMs = 5000): Promise<void> {
    const records: DecodedRecord[] = [];
    for (let i = 0; i < n; i++) {
      this.clock += 1000;
      records.push({
        imei: this.imei,
        protocol: 'teltonika',
        fixTime: this.clock,
        valid: true,
        latitude: 25.2 + (this.clock % 10_000) / 1e6,
        longitude: 55.27,
        altitude: 10,
        speed: 40,
        course: 90,
        satellites: 9,
        eventId: 0,
        io: { 239: 1, 16: Math.floor(this.clock / 1000) % 1_000_000 },
      });
    }
    const frame = encodeTeltonikaAvl(records);
    while (!this.stopped) {
      await this.ensure();
      const s = this.socket;
      if (!s) continue;
      const acked = new Promise<void>((resolve) => (this.pending = { records, resolve }));
      this.sent += n;
      this.onFrame?.(records, Date.now());
      s.write(frame);
      let onClose: () => void = () => undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = await Promise.race([
        acked.then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), timeoutMs);
          onClose = () => r(true);
          s.once('close', onClose);
        }),
      ]);
      clearTimeout(timer);
      s.removeListener('close', onClose);
      if (!timedOut) return;
      // No ACK: the frame may or may not be stored; drop the connection and resend elsewhere.
      this.pending = null;
      s.destroy();
      this.socket = null;
      this.ready = null;
      this.reconnects++;
      this.target++;
    }
  }

  close(): void {
    this.stopped = true;
    this.socket?.destroy();
  }
}

/** A real-time WebSocket client that reconnects to the next API node when its socket closes. */
export class SimWsClient {
  events: { event: string; path: string; data: Record<string, unknown>; at: number }[] = [];
  reconnects = 0;
  opened = 0;
  private ws: WebSocket | null = null;
  private target = 0;
  private stopped = false;

  constructor(
    private readonly urls: () => readonly string[],
    private readonly company: string,
    private readonly user: string,
    private readonly token: string,
  ) {}

  start(): Promise<void> {
    return new Promise((resolve) => {
      const open = () => {
        if (this.stopped) return;
        const list = this.urls();
        const ws = new WebSocket(
          websocketUrl(list[this.target % list.length]!, this.company, this.user, this.token),
        );
        this.ws = ws;
        ws.on('open', () => {
          this.opened++;
          resolve();
        });
        ws.on('message', (raw: Buffer) => {
          // A frame is one message or a batch of them (the hub's burst for this client, issue 13).
          const frame = JSON.parse(raw.toString('utf8')) as
            SimWsClient['events'][number] | SimWsClient['events'][number][];
          const at = Date.now();
          for (const m of Array.isArray(frame) ? frame : [frame]) this.events.push({ ...m, at });
        });
        ws.on('error', () => undefined);
        ws.on('close', () => {
          if (this.stopped) return;
          this.reconnects++;
          this.target++;
          setTimeout(open, 200);
        });
      };
      open();
    });
  }

  close(): void {
    this.stopped = true;
    this.ws?.close();
  }
}
