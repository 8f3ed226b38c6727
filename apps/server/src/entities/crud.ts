import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors';
import { route, type EndpointName, type HandlerArgs } from '../http/route';
import { t } from '../http/i18n';
import type { Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import type { Principal } from '../auth/session';
import { logActivity } from '../activity/log';
import type { EntityDef, Row, WriteContext } from './entity-def';
import { entityView, listEntities, readEntity } from './read';
import { entityRow, writeEntityLinks } from './write';

/**
 * The generic CRUD of a managed entity: each write as one transaction with its activity-log entry, and
 * the six routes of the contract's CRUD group. What the SQL reads is in read.ts, how an input becomes a
 * row in write.ts, and what an entity is in entity-def.ts (re-exported here for the definitions).
 */

export type { EntityDef, LinkDef, RefDef, ReverseDef, WriteContext } from './entity-def';
export { assignedError, findInScope, invalidRef } from './entity-def';

export class Crud {
  constructor(readonly def: EntityDef) {}

  view(row: Row): Record<string, unknown> {
    return entityView(this.def, row);
  }

  async details(
    db: Queryable,
    tenant: Tenant,
    uuid: string,
  ): Promise<{ row: Row; item: Record<string, unknown> }> {
    return readEntity(this.def, db, tenant, uuid);
  }

  async list(db: Queryable, tenant: Tenant, query: Record<string, unknown>) {
    return listEntities(this.def, db, tenant, query);
  }

  async create(
    db: Queryable & { transaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> },
    base: Omit<WriteContext, 'tx'>,
    input: Record<string, unknown>,
  ) {
    const d = this.def;
    return db.transaction(async (tx) => {
      const ctx: WriteContext = { ...base, tx };
      const { cols, data } = await entityRow(d, input, ctx);
      cols.company_id = base.tenant.companyId;
      cols.data = JSON.stringify(data);
      const keys = Object.keys(cols);
      const [row] = await tx.query<{ id: number; uuid: string }>(
        `INSERT INTO ${d.table} (${keys.join(', ')}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id, uuid`,
        keys.map((k) => cols[k]),
      );
      await writeEntityLinks(d, row!.id, input, { ...ctx, id: row!.id });
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
      const { cols, data } = await entityRow(d, input, ctx);
      cols.data = JSON.stringify(data);
      cols.updated_at = new Date().toISOString();
      const keys = Object.keys(cols);
      await tx.query(
        `UPDATE ${d.table} SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(', ')} WHERE id = $1`,
        [before.row.id, ...keys.map((k) => cols[k])],
      );
      await writeEntityLinks(d, before.row.id, input, ctx);
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
