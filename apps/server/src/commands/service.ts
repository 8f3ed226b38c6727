import {
  answerKeyOf,
  deviceTypes,
  encodeDeviceCommand,
  type CommandParams,
  type CommandResponse as DeviceAnswer,
  type CommandType,
  type DeviceType,
  type EncodeCommandResult,
} from '@fleet/device-protocols';
import type { Queryable } from '../storage/db';
import { publishOn, subjects, type Bus } from '../realtime/bus';
import { publishRealtime } from '../realtime/hub';

/**
 * Remote commands: the history row is the source of truth, the bus carries the "there is something to
 * send" signal, and the gateway holding the device's connection does the writing.
 *
 * Lifecycle (status of `device_commands`):
 * - POST stores it `queued` and publishes `commands.<deviceUuid>`; whichever gateway holds the device's
 *   connection claims it (an atomic `queued -> sent` update, so two gateways or a reconnect racing the
 *   bus message never send it twice) and writes the encoded bytes. A device that is not connected
 *   gets it when it next connects (the gateway claims all queued commands on connect).
 * - The device's answer marks `answered` the oldest `sent` command of that device whose answer key
 *   (see commandAnswerKey in @fleet/device-protocols: Ruptela answers name the request's command id,
 *   iStartek answers repeat the command code, Teltonika and GoSafe answers carry no such thing and are
 *   taken first-in first-out, the order devices execute commands in) equals the answer's key, stores
 *   the text, and publishes the record as `command-response` on the realtime hub (path = device uuid).
 *   An answer no sent command expects is logged and dropped (e.g. a late answer after a time-out).
 * - No answer within COMMAND_TIMEOUT_S: `timed_out` with an error text, also published, so the portal
 *   shows it. A gateway that starts sweeps `sent` commands older than the timeout (its predecessor
 *   may have died holding the timer).
 * - A write that fails (connection gone) puts the command back to `queued`.
 * - A command still `queued` after COMMAND_QUEUE_EXPIRY_S (default 24 h: the device stayed offline)
 *   becomes `expired` with an error text, published like a time-out, and is never sent: an "output 1
 *   on" or "immobilize" executed days later would surprise whoever sent it. The sweep runs every
 *   minute (or sooner for short expiries) on every gateway; the update is conditional, so several
 *   gateways expiring the same command publish it once.
 */

export interface CommandRow {
  id: number;
  uuid: string;
  company_id: number;
  device_id: number;
  command: string;
  params: Record<string, unknown>;
  payload: string | null;
  status: string;
  response: string | null;
  error: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  answered_at: Date | string | null;
  answer_key: string | null;
  device_uuid: string;
  device_imei: string;
  device_type: string;
  company_uuid: string;
  vehicle_uuid: string | null;
  user_uuid: string | null;
  user_name: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The contract's DeviceCommand (api-client deviceCommandSchema) from a joined row. */
export function commandView(r: CommandRow) {
  return {
    uuid: r.uuid,
    device_uuid: r.device_uuid,
    device_imei: r.device_imei,
    type: r.command as CommandType,
    attributes: r.params ?? {},
    status: r.status as 'queued' | 'sent' | 'answered' | 'failed' | 'timed_out' | 'expired',
    response: r.response,
    error: r.error,
    issued_by: r.user_uuid ? { uuid: r.user_uuid, name: r.user_name ?? '' } : null,
    created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at),
    answered_at: iso(r.answered_at),
  };
}
export type CommandView = ReturnType<typeof commandView>;

export const COMMAND_SELECT = `SELECT c.id, c.uuid, c.company_id, c.device_id, c.command, c.params, c.payload, c.status,
  c.response, c.error, c.created_at, c.sent_at, c.answered_at, c.answer_key, d.uuid AS device_uuid, d.imei AS device_imei,
  d.type AS device_type, tc.uuid AS company_uuid, u.uuid AS user_uuid, u.name AS user_name,
  (SELECT v.uuid FROM vehicles v WHERE v.device_imei = d.imei OR v.gps_device_imei = d.imei
     ORDER BY (v.device_imei = d.imei) DESC LIMIT 1) AS vehicle_uuid
  FROM device_commands c JOIN devices d ON d.id = c.device_id
  JOIN transport_companies tc ON tc.id = c.company_id
  LEFT JOIN users u ON u.id = c.user_id`;

/** The API's attributes ({host, port} / {text} / {value}) as the codecs' parameters. */
export function commandParams(type: string, attributes: Record<string, unknown>): CommandParams {
  const p: CommandParams = {};
  if (type === 'change_ip_port') {
    if (typeof attributes['host'] === 'string') p.host = attributes['host'];
    if (typeof attributes['port'] === 'number') p.port = attributes['port'];
  } else if (type === 'custom' && typeof attributes['text'] === 'string') p.data = attributes['text'];
  else if (type === 'set_odometer' && typeof attributes['value'] === 'number')
    p.odometerKm = attributes['value'];
  return p;
}

export function encodeFor(
  deviceType: string,
  imei: string,
  type: string,
  attributes: Record<string, unknown>,
): EncodeCommandResult {
  const dt = (deviceTypes as readonly string[]).includes(deviceType) ? (deviceType as DeviceType) : null;
  if (!dt) {
    return {
      ok: false,
      error: { code: 'unsupported_command', message: `unknown device type ${deviceType}` },
    };
  }
  return encodeDeviceCommand(dt, imei, {
    type: type as CommandType,
    params: commandParams(type, attributes),
  });
}

/** A live device connection as the command service sees it. */
export interface CommandLink {
  deviceId: number;
  /** Write bytes to the device; false when the connection is gone. */
  write(bytes: Uint8Array): boolean;
}

export interface CommandServiceOptions {
  db: Queryable;
  bus: Bus;
  timeoutMs: number;
  /** A queued command older than this is marked expired (default 24 h). */
  queueExpiryMs?: number;
  now?: () => Date;
  log?: (msg: string) => void;
}

export class CommandService {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private readonly db: Queryable;
  private readonly bus: Bus;
  private readonly now: () => Date;
  private readonly log: (msg: string) => void;
  readonly timeoutMs: number;
  readonly queueExpiryMs: number;
  private expiryTimer: ReturnType<typeof setInterval> | undefined;

  constructor(opts: CommandServiceOptions) {
    this.db = opts.db;
    this.bus = opts.bus;
    this.timeoutMs = opts.timeoutMs;
    this.queueExpiryMs = opts.queueExpiryMs ?? 24 * 3600_000;
    this.now = opts.now ?? (() => new Date());
    this.log = opts.log ?? (() => undefined);
  }

  async row(id: number): Promise<CommandRow | undefined> {
    const rows = await this.db.query<CommandRow>(`${COMMAND_SELECT} WHERE c.id = $1`, [id]);
    return rows[0];
  }

  /** Store a command `queued` and signal the gateways. The caller validated it with {@link encodeFor}. */
  async create(input: {
    companyId: number;
    deviceId: number;
    deviceUuid: string;
    userId: number | null;
    type: string;
    attributes: Record<string, unknown>;
    payload: string;
    /** EncodedCommand.answerKey (null: any answer of the device, in order). */
    answerKey?: string | null;
  }): Promise<CommandRow> {
    const [ins] = await this.db.query<{ id: number }>(
      `INSERT INTO device_commands (company_id, device_id, user_id, command, params, payload, status, created_at,
         answer_key)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, 'queued', $7, $8) RETURNING id`,
      [
        input.companyId,
        input.deviceId,
        input.userId,
        input.type,
        JSON.stringify(input.attributes),
        input.payload,
        this.now().toISOString(),
        input.answerKey ?? null,
      ],
    );
    await publishOn(this.bus, subjects.commands(input.deviceUuid), { commandId: ins!.id });
    return (await this.row(ins!.id))!;
  }

  /**
   * Claims and writes every queued command of a connected device (in creation order). Returns how
   * many were written.
   */
  async dispatch(link: CommandLink): Promise<number> {
    const claimed = await this.db.query<CommandRow>(
      `WITH c AS (
         UPDATE device_commands SET status = 'sent', sent_at = $2
         WHERE id IN (SELECT id FROM device_commands WHERE device_id = $1 AND status = 'queued'
                        AND created_at > $3::timestamptz
                      ORDER BY created_at, id FOR UPDATE SKIP LOCKED)
         RETURNING id)
       ${COMMAND_SELECT} WHERE c.id IN (SELECT id FROM c) ORDER BY c.created_at, c.id`,
      [link.deviceId, this.now().toISOString(), this.expiryCutoff()],
    );
    let written = 0;
    for (const cmd of claimed) {
      const enc = encodeFor(cmd.device_type, cmd.device_imei, cmd.command, cmd.params ?? {});
      if (!enc.ok) {
        await this.finish(cmd.id, 'failed', null, enc.error.message);
        continue;
      }
      if (cmd.answer_key === null && enc.command.answerKey !== null) {
        // Queued before answer keys existed: learn it now, before the answer can arrive.
        await this.db.query(`UPDATE device_commands SET answer_key = $2 WHERE id = $1`, [
          cmd.id,
          enc.command.answerKey,
        ]);
      }
      if (!link.write(enc.command.bytes)) {
        await this.db.query(
          `UPDATE device_commands SET status = 'queued', sent_at = NULL WHERE id = $1 AND status = 'sent'`,
          [cmd.id],
        );
        continue;
      }
      written++;
      this.log(`command ${cmd.command} sent to ${cmd.device_imei}`);
      this.armTimeout(cmd.id);
    }
    return written;
  }

  private armTimeout(id: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(id);
      void this.finish(
        id,
        'timed_out',
        null,
        `No answer from the device within ${Math.round(this.timeoutMs / 1000)} s`,
        'sent',
      ).catch((err: unknown) => this.log(`command timeout update failed: ${String(err)}`));
    }, this.timeoutMs);
    timer.unref?.();
    this.timers.set(id, timer);
  }

  /** A device answered: the oldest sent command of that device expecting this kind of answer gets it. */
  async answer(deviceId: number, answer: DeviceAnswer): Promise<CommandView | null> {
    const [cmd] = await this.db.query<{ id: number }>(
      `SELECT id FROM device_commands WHERE device_id = $1 AND status = 'sent'
         AND (answer_key IS NULL OR answer_key = $2)
       ORDER BY sent_at, id LIMIT 1`,
      [deviceId, answerKeyOf(answer)],
    );
    if (!cmd) {
      this.log(`unsolicited answer from ${answer.imei}: ${answer.text.slice(0, 80)}`);
      return null;
    }
    const t = this.timers.get(cmd.id);
    if (t) clearTimeout(t);
    this.timers.delete(cmd.id);
    return this.finish(cmd.id, 'answered', answer.text.slice(0, 4000), null, 'sent');
  }

  private async finish(
    id: number,
    status: 'answered' | 'failed' | 'timed_out' | 'expired',
    response: string | null,
    error: string | null,
    from?: 'sent' | 'queued',
  ): Promise<CommandView | null> {
    const updated = await this.db.query<{ id: number }>(
      `UPDATE device_commands SET status = $2, response = coalesce($3, response), error = $4,
         answered_at = CASE WHEN $2 = 'answered' THEN $5::timestamptz ELSE answered_at END
       WHERE id = $1 ${from ? `AND status = '${from}'` : ''} RETURNING id`,
      [id, status, response, error, this.now().toISOString()],
    );
    if (updated.length === 0) return null;
    const row = await this.row(id);
    if (!row) return null;
    const view = commandView(row);
    await publishRealtime(this.bus, {
      company_uuid: row.company_uuid,
      event: 'command-response',
      path: row.device_uuid,
      data: view,
      vehicle_uuid: row.vehicle_uuid,
    });
    return view;
  }

  /** Marks `sent` commands older than the timeout as timed out (start-up of a gateway). */
  async sweep(): Promise<number> {
    const stale = await this.db.query<{ id: number }>(
      `SELECT id FROM device_commands WHERE status = 'sent' AND sent_at < $1::timestamptz`,
      [new Date(this.now().getTime() - this.timeoutMs).toISOString()],
    );
    for (const s of stale) {
      await this.finish(s.id, 'timed_out', null, 'No answer from the device (gateway restarted)', 'sent');
    }
    return stale.length;
  }

  private expiryCutoff(): string {
    return new Date(this.now().getTime() - this.queueExpiryMs).toISOString();
  }

  /** Marks commands queued longer than the expiry `expired` (and publishes each). Returns how many. */
  async expireQueued(): Promise<number> {
    const old = await this.db.query<{ id: number }>(
      `SELECT id FROM device_commands WHERE status = 'queued' AND created_at <= $1::timestamptz
       ORDER BY created_at LIMIT 1000`,
      [this.expiryCutoff()],
    );
    let n = 0;
    const hours = this.queueExpiryMs / 3600_000;
    const age =
      hours >= 1 ? `${Math.round(hours * 10) / 10} h` : `${Math.round(this.queueExpiryMs / 1000)} s`;
    for (const o of old) {
      const done = await this.finish(
        o.id,
        'expired',
        null,
        `The device did not connect within ${age}; the command was not sent`,
        'queued',
      );
      if (done) n++;
    }
    return n;
  }

  /** Runs {@link expireQueued} now and then periodically (every minute, sooner for short expiries). */
  startExpiry(onError: (err: unknown) => void = () => undefined): void {
    if (this.expiryTimer) return;
    const run = () => void this.expireQueued().catch(onError);
    run();
    this.expiryTimer = setInterval(run, Math.max(250, Math.min(60_000, this.queueExpiryMs / 4)));
    this.expiryTimer.unref?.();
  }

  close(): void {
    if (this.expiryTimer) clearInterval(this.expiryTimer);
    this.expiryTimer = undefined;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
