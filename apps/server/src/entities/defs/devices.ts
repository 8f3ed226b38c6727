import { deviceSchema } from '@fleet/api-client';
import { HttpError } from '../../http/errors';
import type { EntityDef } from '../entity-def';

/** The answer for an IMEI registered outside the company (en; http/i18n.ts translates it). */
export const IMEI_UNAVAILABLE =
  'This IMEI cannot be registered. If the device is yours, contact the platform operator.';

export const deviceEntity: EntityDef = {
  name: 'devices',
  table: 'devices',
  label: 'device',
  permission: 'devices',
  item: deviceSchema,
  columns: ['imei', 'type', 'make', 'model', 'sim'],
  search: ['e.imei', 'e.make', 'e.model', 'e.sim'],
  filters: { current_status: 'e.connection_status = $?' },
  sort: {
    imei: 'e.imei',
    type: 'e.type',
    status: 'e.status',
    last_connected_at: 'e.last_connected_at',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  extraSelect: [
    '(SELECT v.uuid FROM vehicles v WHERE v.device_imei = p.imei OR v.gps_device_imei = p.imei LIMIT 1) AS "vehicle_uuid"',
  ],
  view: (item, row) => ({
    ...item,
    current_status: row.connection_status,
    last_connected_at: row.last_connected_at instanceof Date ? row.last_connected_at.toISOString() : null,
  }),
  dependents: [
    {
      sql: 'SELECT 1 FROM vehicles v JOIN devices d ON d.id = $1 WHERE v.device_imei = d.imei OR v.gps_device_imei = d.imei LIMIT 1',
      label: 'vehicles',
    },
  ],
  prepare: async (input, ctx) => {
    const taken = await ctx.tx.query<{ company_id: number }>(
      'SELECT company_id FROM devices WHERE imei = $1 AND id <> $2',
      [input.imei, ctx.id ?? -1],
    );
    // An IMEI is a device's only credential at the gateway, so it is unique on the platform. Issue 18:
    // the refusal must not confirm to one tenant that another tenant runs this IMEI. Inside the
    // company the usual 'already taken' (the device is theirs to see); otherwise a neutral answer that
    // points to the platform operator, who can check ownership (see the README security section).
    if (taken.length)
      throw new HttpError(
        422,
        'validation.general',
        {},
        {
          imei: [
            taken.some((r) => Number(r.company_id) === ctx.tenant.companyId)
              ? 'This IMEI is already taken'
              : IMEI_UNAVAILABLE,
          ],
        },
      );
    if (ctx.id !== undefined) {
      // The IMEI of a device on a vehicle follows through ON UPDATE CASCADE.
    }
    return {};
  },
  afterWrite: async (_id, input, ctx) => {
    await ctx.tx.query('DELETE FROM unknown_devices WHERE imei = $1', [input.imei]);
  },
  onChange: (app) => app.ctx.storage.invalidateDevices(),
};
