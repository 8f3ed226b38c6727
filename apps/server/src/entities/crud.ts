import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError, assignedError, notFound } from '../http/errors';
import { route, type EndpointName, type HandlerArgs } from '../http/route';
import { t } from '../http/i18n';
import { containsPattern, type Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import type { Principal } from '../auth/session';
import { logActivity } from '../activity/log';
import { forcedScope, scopeSql, tableScopes } from './scope';
import { page as pageOf } from '../http/page';

/** A `<field>_uuid` input/output that is a foreign key column of this table. */
export interface RefDef {
  table: string;
  column: string;
  label: string;
  /** Entity word of 'This {entity} is already assigned' when one row only may hold the target. */
  exclusive?: string;
}

/** A `<field>_uuids` list kept in a join table. */
export interface LinkDef {
  table: string;
  self: string;
  other: string;
  otherTable: string;
  label: string;
  /** The linked record may belong to one row of this entity only. */
  exclusive?: string;
}

/** A `<field>_uuid` stored on the other table (a driver's vehicle = vehicles.driver_id). */
export interface ReverseDef {
  otherTable: string;
  otherColumn: string;
  label: string;
  exclusive: string;
}

export interface WriteContext {
  tx: Queryable;
  tenant: Tenant;
  principal: Principal;
  req: FastifyRequest;
  /** Id of the row being updated (undefined on create). */
  id?: number;
  locale: 'en' | 'ar';
}

type Row = Record<string, unknown> & { id: number; uuid: string };

export interface EntityDef {
  /** Endpoint group of @fleet/api-client ('vehicles', 'scheduledTrips', ...). */
  name: string;
  table: string;
  /** Singular word for messages and the activity log ('vehicle'). */
  label: string;
  /** Permission prefix ('vehicles' -> vehicles.view / create / update / delete). */
  permission: string;
  item: z.ZodObject;
  /** Contract fields stored in same-named columns (the rest goes to `data`). */
  columns: string[];
  refs?: Record<string, RefDef>;
  links?: Record<string, LinkDef>;
  reverse?: Record<string, ReverseDef>;
  /** SQL expressions over alias `e` matched with ILIKE by `search`. */
  search: string[];
  /** Extra list filters: query field -> SQL with `$?` for the value (alias `e`). */
  filters?: Record<string, string>;
  /** Column compared with the list's from / to. */
  timeColumn?: string;
  /** Sortable fields -> SQL expression (alias `e`). */
  sort: Record<string, string>;
  defaultSort: string;
  /** Records that depend on a row: SQL returning a row when one exists ($1 = id). */
  dependents?: { sql: string; label: string }[];
  /** Entity-specific columns and checks before a write (geofence bbox, device IMEIs ...). */
  prepare?(input: Record<string, unknown>, ctx: WriteContext): Promise<Record<string, unknown>>;
  afterWrite?(id: number, input: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  /** Extra SELECT expressions on a page row `p` ('(...) AS name'). */
  extraSelect?: string[];
  /** Final touches to the contract view. */
  view?(item: Record<string, unknown>, row: Row): Record<string, unknown>;
  /** Status values of PATCH /status that stay in `status`; default all. */
  onChange?(app: FastifyInstance, row: { uuid: string }): void;
}

const BASE_QUERY_KEYS = new Set(['page', 'limit', 'search', 'sort', 'order', 'from', 'to', 'status']);

export { assignedError } from '../http/errors';

export function invalidRef(field: string, label: string): HttpError {
  return new HttpError(422, 'validation.general', {}, { [field]: [`Please enter a valid ${label}`] });
}

/** Look up a record of `table` by uuid inside the tenant's scope. */
export async function findInScope(
  db: Queryable,
  table: string,
  uuid: string,
  tenant: Tenant,
): Promise<{ id: number; sub_company_id?: number | null; branch_id?: number | null } | null> {
  const params: unknown[] = [uuid];
  const rows = await db.query<{ id: number }>(
    `SELECT r.* FROM ${table} r WHERE r.uuid = $1 AND ${scopeSql(table, 'r', tenant, params)}`,
    params,
  );
  return rows[0] ?? null;
}

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

export class Crud {
  constructor(readonly def: EntityDef) {}

  /** SELECT list for enriched rows of alias `p`. */
  private enrich(): string {
    const d = this.def;
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

  view(row: Row): Record<string, unknown> {
    const d = this.def;
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

  async details(
    db: Queryable,
    tenant: Tenant,
    uuid: string,
  ): Promise<{ row: Row; item: Record<string, unknown> }> {
    const d = this.def;
    const params: unknown[] = [uuid];
    const rows = await db.query<Row>(
      `WITH page AS (SELECT e.* FROM ${d.table} e WHERE e.uuid = $1 AND ${scopeSql(d.table, 'e', tenant, params)})
       SELECT ${this.enrich()} FROM page p`,
      params,
    );
    const row = rows[0];
    if (!row) throw notFound(d.label);
    return { row, item: this.view(row) };
  }

  async list(db: Queryable, tenant: Tenant, query: Record<string, unknown>) {
    const d = this.def;
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
       SELECT ${this.enrich()} FROM page p ORDER BY ${sortExpr.replace(/\be\./g, 'p.')} ${dir} NULLS LAST, p.id ${dir}`,
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
      rows.map((r) => this.view(r)),
      total,
      { page, limit },
    );
  }

  /** Split an input into column values and the `data` document, resolving references. */
  private async toRow(input: Record<string, unknown>, ctx: WriteContext) {
    const d = this.def;
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

  private async writeLinks(id: number, input: Record<string, unknown>, ctx: WriteContext) {
    const d = this.def;
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

  async create(
    db: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
    base: Omit<WriteContext, 'tx'>,
    input: Record<string, unknown>,
  ) {
    const d = this.def;
    return db.transaction(async (tx) => {
      const ctx: WriteContext = { ...base, tx };
      const { cols, data } = await this.toRow(input, ctx);
      cols.company_id = base.tenant.companyId;
      cols.data = JSON.stringify(data);
      const keys = Object.keys(cols);
      const [row] = await tx.query<{ id: number; uuid: string }>(
        `INSERT INTO ${d.table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id, uuid`,
        keys.map((k) => cols[k]),
      );
      await this.writeLinks(row!.id, input, { ...ctx, id: row!.id });
      if (d.afterWrite) await d.afterWrite(row!.id, input, { ...ctx, id: row!.id });
      const { item } = await this.details(tx, base.tenant, row!.uuid);
      await logActivity(tx, {
        companyId: base.tenant.companyId,
        userId: base.principal.user.id,
        action: 'created',
        entity: d.label,
        entityUuid: row!.uuid,
        after: item,
        req: base.req,
      });
      return item;
    });
  }

  async update(
    db: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
    base: Omit<WriteContext, 'tx'>,
    uuid: string,
    input: Record<string, unknown>,
  ) {
    const d = this.def;
    return db.transaction(async (tx) => {
      const before = await this.details(tx, base.tenant, uuid);
      const ctx: WriteContext = { ...base, tx, id: before.row.id };
      const { cols, data } = await this.toRow(input, ctx);
      cols.data = JSON.stringify(data);
      cols.updated_at = new Date().toISOString();
      const keys = Object.keys(cols);
      await tx.query(
        `UPDATE ${d.table} SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [before.row.id, ...keys.map((k) => cols[k])],
      );
      await this.writeLinks(before.row.id, input, ctx);
      if (d.afterWrite) await d.afterWrite(before.row.id, input, ctx);
      const { item } = await this.details(tx, base.tenant, uuid);
      await logActivity(tx, {
        companyId: base.tenant.companyId,
        userId: base.principal.user.id,
        action: 'updated',
        entity: d.label,
        entityUuid: uuid,
        before: before.item,
        after: item,
        req: base.req,
      });
      return item;
    });
  }

  async setStatus(
    db: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
    base: Omit<WriteContext, 'tx'>,
    uuid: string,
    status: string,
  ) {
    const d = this.def;
    return db.transaction(async (tx) => {
      const before = await this.details(tx, base.tenant, uuid);
      await tx.query(`UPDATE ${d.table} SET status = $2, updated_at = now() WHERE id = $1`, [
        before.row.id,
        status,
      ]);
      const { item } = await this.details(tx, base.tenant, uuid);
      await logActivity(tx, {
        companyId: base.tenant.companyId,
        userId: base.principal.user.id,
        action: 'status_changed',
        entity: d.label,
        entityUuid: uuid,
        before: { status: before.item.status },
        after: { status },
        req: base.req,
      });
      return item;
    });
  }

  async remove(
    db: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
    base: Omit<WriteContext, 'tx'>,
    uuid: string,
  ) {
    const d = this.def;
    return db.transaction(async (tx) => {
      const before = await this.details(tx, base.tenant, uuid);
      for (const dep of d.dependents ?? []) {
        const rows = await tx.query(dep.sql, [before.row.id]);
        if (rows.length) throw new HttpError(409, 'in_use', { entity: d.label, dependents: dep.label });
      }
      await tx.query(`DELETE FROM ${d.table} WHERE id = $1`, [before.row.id]);
      await logActivity(tx, {
        companyId: base.tenant.companyId,
        userId: base.principal.user.id,
        action: 'deleted',
        entity: d.label,
        entityUuid: uuid,
        before: before.item,
        req: base.req,
      });
    });
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

interface LooseArgs {
  req: FastifyRequest;
  reply: FastifyReply;
  params: { uuid: string };
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  tenant: Tenant;
  principal: Principal;
}

/** The CRUD routes are registered by name at run time; their handlers see plain records. */
function loose(fn: (a: LooseArgs) => Promise<unknown>) {
  return fn as unknown as (a: HandlerArgs<EndpointName>) => Promise<never>;
}

/** Register list / create / show / update / delete / status of one entity from the contract table. */
export function registerCrud(app: FastifyInstance, def: EntityDef): Crud {
  const crud = new Crud(def);
  const db = app.ctx.storage.db;
  const n = (action: string) => `${def.name}.${action}` as EndpointName;
  const base = (req: FastifyRequest, tenant: Tenant, principal: Principal) => ({
    tenant,
    principal,
    req,
    locale: req.locale,
  });
  const changed = (uuid: string) => {
    def.onChange?.(app, { uuid });
  };

  route(
    app,
    n('list'),
    loose(async ({ query, tenant }) => crud.list(db, tenant, query)),
    {
      permission: `${def.permission}.view`,
    },
  );
  route(
    app,
    n('show'),
    loose(async ({ params, tenant }) => ({ data: (await crud.details(db, tenant, params.uuid)).item })),
    {
      permission: `${def.permission}.view`,
    },
  );
  route(
    app,
    n('create'),
    loose(async ({ req, reply, body, tenant, principal }) => {
      const item = await crud.create(db, base(req, tenant, principal), body);
      changed(String(item.uuid));
      reply.code(201);
      return { data: item };
    }),
    { permission: `${def.permission}.create` },
  );
  route(
    app,
    n('update'),
    loose(async ({ req, params, body, tenant, principal }) => {
      const uuid = params.uuid;
      const item = await crud.update(db, base(req, tenant, principal), uuid, body);
      changed(uuid);
      return { data: item };
    }),
    { permission: `${def.permission}.update` },
  );
  route(
    app,
    n('status'),
    loose(async ({ req, params, body, tenant, principal }) => {
      const uuid = params.uuid;
      const item = await crud.setStatus(db, base(req, tenant, principal), uuid, String(body.status));
      changed(uuid);
      return { data: item };
    }),
    { permission: `${def.permission}.update` },
  );
  route(
    app,
    n('delete'),
    loose(async ({ req, params, tenant, principal }) => {
      const uuid = params.uuid;
      await crud.remove(db, base(req, tenant, principal), uuid);
      changed(uuid);
      return {
        message: t(req.locale, 'deleted', { entity: def.label.charAt(0).toUpperCase() + def.label.slice(1) }),
      };
    }),
    { permission: `${def.permission}.delete` },
  );
  return crud;
}
