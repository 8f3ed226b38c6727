import { connect, type Socket } from 'node:net';
import type { Queryable } from '../storage/db';
import type { RealtimeClient } from '../realtime/hub';
import type { RealtimeHub } from '../realtime/hub';

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(
  fn: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface FleetFixture {
  devices: { id: number; uuid: string; imei: string; type: string; vehicleUuid: string }[];
}

/** Devices (each with a vehicle carrying it) in a company. */
export async function addDevices(
  db: Queryable,
  companyId: number,
  list: readonly { imei: string; type: string }[],
): Promise<FleetFixture> {
  const out: FleetFixture['devices'] = [];
  for (const [i, d] of list.entries()) {
    const [dev] = await db.query<{ id: number; uuid: string }>(
      `INSERT INTO devices (company_id, imei, type, make, model) VALUES ($1, $2, $3, 'sim', 'sim') RETURNING id, uuid`,
      [companyId, d.imei, d.type],
    );
    const [veh] = await db.query<{ uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, device_imei) VALUES ($1, $2, $3) RETURNING uuid`,
      [companyId, `T ${10_000 + i}`, d.imei],
    );
    out.push({ id: dev!.id, uuid: dev!.uuid, imei: d.imei, type: d.type, vehicleUuid: veh!.uuid });
  }
  return { devices: out };
}

/** A fake WebSocket client registered on the hub; collects what the hub delivers. */
export function hubClient(
  hub: RealtimeHub | undefined,
  c: { userId: number; userUuid: string; companyId: number; companyUuid: string },
) {
  if (!hub) throw new Error('hubClient: no realtime hub (register the realtime part of server.ts)');
  const messages: { event: string; path: string; data: Record<string, unknown> }[] = [];
  const client: RealtimeClient = {
    socket: {
      readyState: 1,
      // A frame is one message or the hub's batch of a burst (a JSON array of messages).
      send: (text: string) => {
        const frame = JSON.parse(text) as (typeof messages)[number] | (typeof messages)[number][];
        messages.push(...(Array.isArray(frame) ? frame : [frame]));
      },
      close: () => undefined,
    },
    scope: null,
    ...c,
  };
  const off = hub.add(client);
  return { messages, off };
}

/** A raw TCP client for hand-written frames: collects received bytes and the close. */
export class RawClient {
  readonly socket: Socket;
  received: Buffer = Buffer.alloc(0);
  closed = false;
  private readonly opened: Promise<void>;

  constructor(port: number, host = '127.0.0.1') {
    this.socket = connect({ port, host });
    this.socket.on('data', (c: Buffer) => (this.received = Buffer.concat([this.received, c])));
    this.socket.on('error', () => undefined);
    this.socket.on('close', () => (this.closed = true));
    this.opened = new Promise((r) => this.socket.once('connect', () => r()));
  }

  async send(bytes: Uint8Array): Promise<void> {
    await this.opened;
    this.socket.write(bytes);
  }

  /** Waits for at least `n` received bytes and takes them. */
  async take(n: number, timeoutMs = 5000): Promise<Buffer> {
    await waitFor(() => this.received.length >= n, timeoutMs, `${n} bytes`);
    const out = this.received.subarray(0, n);
    this.received = this.received.subarray(n);
    return out;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The gateway on loopback, every protocol on a free port, 2 ms insert batches: what the gateway tests run. */
export const GATEWAY_TEST_ENV = {
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_TELTONIKA_PORT: '0',
  GATEWAY_RUPTELA_PORT: '0',
  GATEWAY_GOSAFE_PORT: '0',
  GATEWAY_ISTARTEK_PORT: '0',
  GATEWAY_OSMAND_PORT: '0',
  GATEWAY_BATCH_MS: '2',
} as const;

/** A quiet test server without the demo, with {@link GATEWAY_TEST_ENV}. */
export const GATEWAY_SERVER_TEST_ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  FLEET_SEED_DEMO: 'false',
  ...GATEWAY_TEST_ENV,
} as const;
