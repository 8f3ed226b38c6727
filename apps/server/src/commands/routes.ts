import type { FastifyInstance } from 'fastify';
import { supportedCommandMatrix } from '@fleet/device-protocols';
import { verifiedCommandTypes } from '@fleet/api-client';
import { route } from '../http/route';
import { fieldError, notFound } from '../http/errors';
import { scopeSql } from '../entities/scope';
import { requireVerification } from '../auth/routes';
import { logActivity } from '../activity/log';
import { commandActivityAttributes } from './activity';
import { CommandService, COMMAND_SELECT, commandView, encodeFor, type CommandRow } from './service';
import { page } from '../http/page';

const DEFAULT_TIMEOUT_S = 60;

/**
 * Device command endpoints (api-client: devices.commandSend, devices.commandList,
 * device.supportedCommands). Sending only stores the command and signals the gateways over the bus
 * (`commands.<deviceUuid>`), so it works whichever process holds the device's connection.
 *
 * Decisions the spec leaves open:
 * - A command the device type cannot carry (or with attributes its encoder refuses) is a 422 on `type`
 *   / `attributes`, never queued.
 * - Every command of @fleet/api-client's verifiedCommandTypes (hand-over, wipe, disable: change_ip_port,
 *   custom, fota_web, format_sd, delete_records, reset, outputs, immobilize) consumes a password-
 *   verification token (POST /v1/verify-password), once, before anything is stored; a missing or spent
 *   token is 403.
 * - Permissions: sending needs device-commands.create, the history device-commands.view; the device must
 *   be visible in the caller's scope (404 otherwise, as for every scoped record).
 * - Each stored command is written to the user activity log ('command_sent' on the device: the command,
 *   its uuid, the device's IMEI and the non-secret attributes of commands/activity.ts). Refused sends
 *   (422, 403) store nothing and log nothing.
 */
export function registerCommandRoutes(app: FastifyInstance): void {
  const { storage, bus, config, now } = app.ctx;
  const db = storage.db;
  const timeoutS = (config as { COMMAND_TIMEOUT_S?: number }).COMMAND_TIMEOUT_S ?? DEFAULT_TIMEOUT_S;
  const service = new CommandService({ db, bus, now, timeoutMs: timeoutS * 1000 });

  route(app, 'device.supportedCommands', async () => ({ data: { data: supportedCommandMatrix() } }));

  async function deviceOf(uuid: string, tenant: Parameters<typeof scopeSql>[2]) {
    const params: unknown[] = [uuid];
    const rows = await db.query<{ id: number; uuid: string; imei: string; type: string }>(
      `SELECT d.id, d.uuid, d.imei, d.type FROM devices d WHERE d.uuid = $1 AND ${scopeSql('devices', 'd', tenant, params)}`,
      params,
    );
    const d = rows[0];
    if (!d) throw notFound('Device');
    return d;
  }

  route(
    app,
    'devices.commandSend',
    async ({ req, reply, params, body, principal, tenant }) => {
      const device = await deviceOf(params.uuid, tenant);
      const attributes = (body.attributes ?? {}) as Record<string, unknown>;
      const encoded = encodeFor(device.type, device.imei, body.type, attributes);
      if (!encoded.ok) {
        const field = encoded.error.code === 'unsupported_command' ? 'type' : 'attributes';
        throw fieldError(
          field,
          encoded.error.code === 'unsupported_command'
            ? `This command is not supported by ${device.type} devices`
            : `Please enter valid attributes: ${encoded.error.message}`,
        );
      }
      // The step-up list lives in @fleet/api-client (verifiedCommandTypes); the protocol's own flag too.
      if (verifiedCommandTypes.includes(body.type) || encoded.command.needsPasswordVerification) {
        await requireVerification(db, principal.user.id, body.verification_token, now());
      }
      const row = await service.create({
        companyId: tenant.companyId,
        deviceId: device.id,
        deviceUuid: device.uuid,
        userId: principal.user.id,
        type: body.type,
        attributes,
        payload: encoded.command.text,
        answerKey: encoded.command.answerKey,
      });
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'command_sent',
        entity: 'device',
        entityUuid: device.uuid,
        after: {
          command_uuid: row.uuid,
          command: body.type,
          device_imei: device.imei,
          attributes: commandActivityAttributes(body.type, attributes),
        },
        req,
      });
      reply.code(201);
      return { data: commandView(row) };
    },
    { permission: 'device-commands.create' },
  );

  route(
    app,
    'devices.commandList',
    async ({ params, query, tenant }) => {
      const device = await deviceOf(params.uuid, tenant);
      const args: unknown[] = [device.id];
      const where = ['c.device_id = $1'];
      if (query.type) where.push(`c.command = $${args.push(query.type)}`);
      if (query.status) where.push(`c.status = $${args.push(query.status)}`);
      if (query.from) where.push(`c.created_at >= $${args.push(query.from)}::timestamptz`);
      if (query.to) where.push(`c.created_at <= $${args.push(query.to)}::timestamptz`);
      if (query.search)
        where.push(
          `(c.payload ILIKE $${args.push(`%${query.search}%`)} OR c.response ILIKE $${args.length})`,
        );
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM device_commands c WHERE ${where.join(' AND ')}`,
        args,
      );
      args.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<CommandRow>(
        `${COMMAND_SELECT} WHERE ${where.join(' AND ')} ORDER BY c.created_at DESC, c.id DESC
         LIMIT $${args.length - 1} OFFSET $${args.length}`,
        args,
      );
      const total = count?.n ?? 0;
      return page(rows.map(commandView), total, query);
    },
    { permission: 'device-commands.view' },
  );
}
