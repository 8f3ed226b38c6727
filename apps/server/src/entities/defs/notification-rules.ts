import { notificationRuleSchema } from '@fleet/api-client';
import { invalidRef, type EntityDef, type WriteContext } from '../entity-def';
import { scopeSql } from '../scope';

/**
 * A notification rule keeps its vehicle, geofence and recipient uuids as JSON (params): each must be a
 * record the tenant can see (a company member for recipients), else 422 on the field, the same answer
 * for a foreign and a random uuid.
 *
 * On deletion: an empty vehicle or geofence list means "every vehicle / geofence", so silently dropping
 * a deleted one could turn a rule for one bus into a rule for the whole fleet. Deleting a vehicle or
 * geofence a rule names is therefore refused with the 409 naming the notification rules (like any other
 * dependent); the user edits the rule first. A recipient who is removed from the company is taken out
 * of the rules instead (src/entities/users.ts): a leaving user must not be blocked by alert settings,
 * and a rule left without recipients goes to the company's usual recipients, who see the alerts anyway.
 */
async function ruleRefs(input: Record<string, unknown>, ctx: WriteContext) {
  const lists: [field: string, table: string, label: string][] = [
    ['vehicle_uuids', 'vehicles', 'Vehicle'],
    ['geofence_uuids', 'geofences', 'Geofence'],
    ['recipient_user_uuids', 'users', 'Recipient'],
  ];
  for (const [field, table, label] of lists) {
    const list = input[field];
    if (!Array.isArray(list) || list.length === 0) continue;
    const uuids = [...new Set(list.map((u) => String(u).toLowerCase()))];
    const params: unknown[] = [uuids];
    const sql =
      table === 'users'
        ? `SELECT count(*)::int AS n FROM users r JOIN memberships m ON m.user_id = r.id AND m.company_id = $${params.push(ctx.tenant.companyId)}
           WHERE r.uuid = ANY($1::uuid[])`
        : `SELECT count(*)::int AS n FROM ${table} r WHERE r.uuid = ANY($1::uuid[]) AND ${scopeSql(table, 'r', ctx.tenant, params)}`;
    const [found] = await ctx.tx.query<{ n: number }>(sql, params);
    if (Number(found?.n ?? 0) !== uuids.length) throw invalidRef(field, label);
  }
}

/** A notification rule naming the record ($1 = id of a row of `table`) in its `field` list. */
export const ruleDependent = (table: string, field: string) => ({
  sql: `SELECT 1 FROM notification_rules n JOIN ${table} x ON x.id = $1
        WHERE n.company_id = x.company_id AND n.params->'${field}' @> jsonb_build_array(x.uuid::text) LIMIT 1`,
  label: 'notification rules',
});

export const notificationRuleEntity: EntityDef = {
  name: 'notificationRules',
  table: 'notification_rules',
  label: 'notification rule',
  permission: 'settings',
  item: notificationRuleSchema,
  columns: ['name', 'type'],
  search: ['e.name', 'e.type'],
  sort: {
    name: 'lower(e.name)',
    type: 'e.type',
    status: 'e.status',
    created_at: 'e.created_at',
    updated_at: 'e.updated_at',
  },
  defaultSort: 'created_at',
  prepare: async (input, ctx) => {
    await ruleRefs(input, ctx);
    return {
      params: JSON.stringify(
        Object.fromEntries(Object.entries(input).filter(([k]) => !['name', 'type', 'status'].includes(k))),
      ),
    };
  },
  view: (item, row) => ({ ...item, ...((row.params as Record<string, unknown>) ?? {}) }),
};
