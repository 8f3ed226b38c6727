import { HttpError, assignedError } from '../http/errors';
import type { Tenant } from '../tenancy/context';
import { findInScope, invalidRef, type EntityDef, type WriteContext } from './entity-def';
import { forcedScope, tableScopes } from './scope';

/**
 * The write side of the generic CRUD: an input split into columns and the `data` document with its
 * references resolved in the tenant's scope (and the station / branch they imply), and the join-table
 * links and reverse references written after the row.
 */

/** Split an input into column values and the `data` document, resolving references. */
export async function entityRow(d: EntityDef, input: Record<string, unknown>, ctx: WriteContext) {
  const cols: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  const special = new Set([
    ...Object.keys(d.refs ?? {}),
    ...Object.keys(d.links ?? {}),
    ...Object.keys(d.reverse ?? {}),
  ]);
  for (const [k, v] of Object.entries(input)) {
    if (special.has(k)) continue;
    if (d.columns.includes(k) || k === 'status') cols[k] = v;
    else data[k] = v;
  }
  const scopeParents: { table: string; id: number }[] = [];
  for (const [field, r] of Object.entries(d.refs ?? {})) {
    const uuid = input[field];
    if (uuid === undefined) continue;
    if (uuid === null) {
      cols[r.column] = null;
      continue;
    }
    const found = await findInScope(ctx.tx, r.table, String(uuid), ctx.tenant);
    if (!found) throw invalidRef(field, r.label);
    if (r.exclusive) {
      // Two requests assigning the same target at once: the second waits here for the first to
      // commit and then sees its row (supervisors.vehicle_id has no unique index to refuse it).
      await ctx.tx.query(`SELECT 1 FROM ${r.table} WHERE id = $1 FOR NO KEY UPDATE`, [found.id]);
      const taken = await ctx.tx.query(
        `SELECT 1 FROM ${d.table} WHERE ${r.column} = $1 AND id <> $2 LIMIT 1`,
        [found.id, ctx.id ?? -1],
      );
      if (taken.length) throw assignedError(field, r.exclusive);
    }
    cols[r.column] = found.id;
    if (['sub_company_id', 'branch_id', 'school_id'].includes(r.column))
      scopeParents.push({ table: r.table, id: found.id });
  }
  // Derive the station / branch of a row from the school or branch it names.
  for (const p of scopeParents) {
    if (p.table === 'schools' || p.table === 'branches') {
      const [parent] = await ctx.tx.query<{ sub_company_id: number | null; branch_id?: number | null }>(
        p.table === 'schools'
          ? 'SELECT sub_company_id, branch_id FROM schools WHERE id = $1'
          : 'SELECT sub_company_id FROM branches WHERE id = $1',
        [p.id],
      );
      const own = tableScopes[d.table] ?? {};
      if (own.branch_id === 'branch_id' && parent?.branch_id != null && cols.branch_id == null)
        cols.branch_id = parent.branch_id;
      if (
        own.sub_company_id === 'sub_company_id' &&
        parent?.sub_company_id != null &&
        cols.sub_company_id == null
      )
        cols.sub_company_id = parent.sub_company_id;
    }
  }
  Object.assign(cols, forcedScopeFor(d.table, ctx.tenant, cols));
  if (d.prepare) Object.assign(cols, await d.prepare(input, ctx));
  return { cols, data };
}

/** Join-table lists and reverse references of a written row (exclusive ones checked). */
export async function writeEntityLinks(
  d: EntityDef,
  id: number,
  input: Record<string, unknown>,
  ctx: WriteContext,
) {
  for (const [field, l] of Object.entries(d.links ?? {})) {
    const list = input[field];
    if (!Array.isArray(list)) continue;
    const ids: number[] = [];
    for (const uuid of new Set(list.map(String))) {
      const found = await findInScope(ctx.tx, l.otherTable, String(uuid), ctx.tenant);
      if (!found) throw invalidRef(field, l.label);
      if (l.exclusive) {
        const taken = await ctx.tx.query(
          `SELECT 1 FROM ${l.table} WHERE ${l.other} = $1 AND ${l.self} <> $2 LIMIT 1`,
          [found.id, id],
        );
        if (taken.length) throw assignedError(field, l.exclusive);
      }
      ids.push(found.id);
    }
    await ctx.tx.query(`DELETE FROM ${l.table} WHERE ${l.self} = $1`, [id]);
    if (ids.length) {
      await ctx.tx.query(
        // No blanket ON CONFLICT DO NOTHING: it would swallow the unique index of an exclusive link
        // (a passenger on one scheduled trip only) when two requests race, and drop the passenger.
        `INSERT INTO ${l.table} (${l.self}, ${l.other}) SELECT $1, unnest($2::bigint[])
           ON CONFLICT (${l.self}, ${l.other}) DO NOTHING`,
        [id, ids],
      );
    }
  }
  for (const [field, r] of Object.entries(d.reverse ?? {})) {
    if (!(field in input)) continue;
    const uuid = input[field];
    let targetId: number | null = null;
    if (uuid) {
      const found = await findInScope(ctx.tx, r.otherTable, String(uuid), ctx.tenant);
      if (!found) throw invalidRef(field, r.label);
      const holder = (found as Record<string, unknown>)[r.otherColumn];
      if (holder !== null && holder !== undefined && Number(holder) !== id)
        throw assignedError(field, r.exclusive);
      targetId = found.id;
    }
    await ctx.tx.query(
      `UPDATE ${r.otherTable} SET ${r.otherColumn} = NULL WHERE ${r.otherColumn} = $1 AND id <> $2`,
      [id, targetId ?? -1],
    );
    if (targetId !== null) {
      // Only if still free (or already ours): a request that took it meanwhile wins, this one is told.
      const set = await ctx.tx.query(
        `UPDATE ${r.otherTable} SET ${r.otherColumn} = $1 WHERE id = $2 AND (${r.otherColumn} IS NULL OR ${r.otherColumn} = $1) RETURNING id`,
        [id, targetId],
      );
      if (!set.length) throw assignedError(field, r.exclusive);
    }
  }
}

function forcedScopeFor(
  table: string,
  tenant: Tenant,
  cols: Record<string, unknown>,
): Record<string, unknown> {
  const forced = forcedScope(table, tenant);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(forced)) {
    if (cols[k] !== undefined && cols[k] !== null && cols[k] !== v) throw new HttpError(403, 'forbidden');
    out[k] = v;
  }
  return out;
}
