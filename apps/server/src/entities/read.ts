import type { z } from 'zod';
import { notFound } from '../http/errors';
import { page as pageOf } from '../http/page';
import { containsPattern, type Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import { invalidRef, type EntityDef, type Row } from './entity-def';
import { scopeSql } from './scope';

/**
 * The read side of the generic CRUD: the SELECT of an entity with its references, the row turned into
 * the contract's view, one record by uuid and the list page (search, filters, sort, paging).
 */

const BASE_QUERY_KEYS = new Set(['page', 'limit', 'search', 'sort', 'order', 'from', 'to', 'status']);

function toIso(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

const NONE = Symbol('none');
const emptyCache = new WeakMap<z.ZodType, unknown>();

/** The "no value" a field accepts: null, [] or false, whichever parses first (NONE if none does). */
function emptyOf(s: z.ZodType): unknown {
  let v = emptyCache.get(s);
  if (v === undefined) {
    const candidates = [null, [], false];
    const i = candidates.findIndex((candidate) => s.safeParse(candidate).success);
    v = i < 0 ? NONE : candidates[i];
    emptyCache.set(s, v);
  }
  return v;
}

/** Fill keys the item schema needs: a missing field becomes null, [] or false, whichever it accepts. */
function fillNulls(shape: Record<string, z.ZodType>, out: Record<string, unknown>) {
  for (const k in shape) {
    if (out[k] !== undefined) continue;
    // Rows written before a field existed (or by SQL) read as "no value" of the field's kind.
    // The kind is worked out once per schema field (three safeParse calls per field and row were
    // a large part of a list page's time).
    const empty = emptyOf(shape[k]!);
    if (empty === NONE) continue;
    out[k] = Array.isArray(empty) ? [] : empty;
  }
  return out;
}

/** SELECT list for enriched rows of alias `p`. */
export function entitySelect(d: EntityDef): string {
  const parts = ['p.*'];
  for (const [field, r] of Object.entries(d.refs ?? {})) {
    parts.push(`(SELECT x.uuid FROM ${r.table} x WHERE x.id = p.${r.column}) AS "${field}"`);
  }
  for (const [field, l] of Object.entries(d.links ?? {})) {
    parts.push(
      `ARRAY(SELECT x.uuid::text FROM ${l.table} j JOIN ${l.otherTable} x ON x.id = j.${l.other} WHERE j.${l.self} = p.id ORDER BY x.id) AS "${field}"`,
    );
  }
  for (const [field, r] of Object.entries(d.reverse ?? {})) {
    parts.push(
      `(SELECT x.uuid FROM ${r.otherTable} x WHERE x.${r.otherColumn} = p.id LIMIT 1) AS "${field}"`,
    );
  }
  parts.push(...(d.extraSelect ?? []));
  return parts.join(', ');
}

/** A stored row as the contract's record: columns, `data`, references and the definition's touches. */
export function entityView(d: EntityDef, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((row.data as Record<string, unknown>) ?? {}) };
  for (const c of d.columns) out[c] = toIso(row[c]);
  for (const f of [...Object.keys(d.refs ?? {}), ...Object.keys(d.reverse ?? {})]) out[f] = row[f] ?? null;
  for (const f of Object.keys(d.links ?? {})) out[f] = row[f] ?? [];
  out.uuid = row.uuid;
  if ('status' in row) out.status = row.status;
  out.created_at = toIso(row.created_at);
  out.updated_at = toIso(row.updated_at);
  for (const x of d.extraSelect ?? []) {
    const name = /AS "?(\w+)"?\s*$/.exec(x)?.[1];
    if (name) out[name] = toIso(row[name]);
  }
  const viewed = d.view ? d.view(out, row) : out;
  return fillNulls(d.item.shape as Record<string, z.ZodType>, viewed);
}

/** One record of the tenant by uuid (404 when it is not theirs to see), with its view. */
export async function readEntity(
  d: EntityDef,
  db: Queryable,
  tenant: Tenant,
  uuid: string,
): Promise<{ row: Row; item: Record<string, unknown> }> {
  const params: unknown[] = [uuid];
  const rows = await db.query<Row>(
    `WITH page AS (SELECT e.* FROM ${d.table} e WHERE e.uuid = $1 AND ${scopeSql(d.table, 'e', tenant, params)})
       SELECT ${entitySelect(d)} FROM page p`,
    params,
  );
  const row = rows[0];
  if (!row) throw notFound(d.label);
  return { row, item: entityView(d, row) };
}

/** A list page of the tenant's records. */
export async function listEntities(
  d: EntityDef,
  db: Queryable,
  tenant: Tenant,
  query: Record<string, unknown>,
) {
  const params: unknown[] = [];
  const where = [scopeSql(d.table, 'e', tenant, params)];
  const search = typeof query.search === 'string' ? query.search.trim() : '';
  if (search) {
    params.push(containsPattern(search));
    // lower(x) LIKE lower(pattern) is what ILIKE does on UTF-8 text, but the pattern is lowered
    // once at plan time instead of for every row and column.
    const p = `lower($${params.length})`;
    where.push(`(${d.search.map((s) => `lower(${s}) LIKE ${p}`).join(' OR ')})`);
  }
  if (query.status !== undefined) {
    params.push(query.status);
    where.push(`e.status = $${params.length}`);
  }
  if (d.timeColumn) {
    if (query.from) {
      params.push(query.from);
      where.push(`e.${d.timeColumn} >= $${params.length}`);
    }
    if (query.to) {
      params.push(query.to);
      where.push(`e.${d.timeColumn} <= $${params.length}`);
    }
  }
  for (const [key, value] of Object.entries(query)) {
    if (BASE_QUERY_KEYS.has(key) || value === undefined) continue;
    params.push(value);
    const p = `$${params.length}`;
    const custom = d.filters?.[key];
    const ref = d.refs?.[key];
    if (custom) where.push(custom.replace(/\$\?/g, p));
    else if (ref) where.push(`e.${ref.column} = (SELECT id FROM ${ref.table} WHERE uuid = ${p})`);
    else if (d.columns.includes(key)) where.push(`e.${key} = ${p}`);
    else where.push(`e.data->>'${key.replace(/[^a-z0-9_]/g, '')}' = ${p}::text`);
  }
  const sortKey = typeof query.sort === 'string' ? query.sort : d.defaultSort;
  const sortExpr = d.sort[sortKey];
  if (!sortExpr) throw invalidRef('sort', 'Sort');
  const dir = query.order === 'asc' ? 'ASC' : 'DESC';
  const limit = Number(query.limit ?? 15);
  const page = Number(query.page ?? 1);
  params.push(limit, (page - 1) * limit);
  // One scan: the matching rows' ids and sort keys are kept (narrow), counted, and the page is
  // cut from them; only the page's rows are read in full and enriched. (count(*) OVER () over
  // `e.*` copied every matching row whole into the window's store.)
  const rows = await db.query<Row & { __total: number }>(
    `WITH m AS MATERIALIZED (
         SELECT e.id, ${sortExpr} AS __k FROM ${d.table} e WHERE ${where.join(' AND ')}),
       ids AS (SELECT id, __k FROM m ORDER BY __k ${dir} NULLS LAST, id ${dir}
               LIMIT $${params.length - 1} OFFSET $${params.length}),
       page AS (SELECT e.*, (SELECT count(*) FROM m) AS __total FROM ids JOIN ${d.table} e ON e.id = ids.id)
       SELECT ${entitySelect(d)} FROM page p ORDER BY ${sortExpr.replace(/\be\./g, 'p.')} ${dir} NULLS LAST, p.id ${dir}`,
    params,
  );
  let total = rows[0] ? Number(rows[0].__total) : 0;
  if (!rows[0] && page > 1) {
    const countParams = params.slice(0, -2);
    const [c] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${d.table} e WHERE ${where.join(' AND ')}`,
      countParams,
    );
    total = c?.n ?? 0;
  }
  return pageOf(
    rows.map((r) => entityView(d, r)),
    total,
    { page, limit },
  );
}
