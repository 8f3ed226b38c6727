import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../http/errors';
import { route } from '../http/route';
import { t } from '../http/i18n';
import { logActivity } from '../activity/log';
import { hashPassword } from '../auth/crypto';
import { sendSetPasswordInvitation } from '../auth/invitation';
import { userView } from '../auth/users';
import { containsPattern, type Queryable } from '../storage/db';
import type { AuthUser, Tenant } from '../tenancy/context';
import {
  assertMayGrant,
  assertMayManage,
  loadTarget,
  type ManageVerb,
  type ScopeIds,
} from '../tenancy/ranks';
import { findInScope, invalidRef } from './crud';
import { page } from '../http/page';

interface UserInput {
  name: string;
  email: string;
  phone: string | null;
  role: string | null;
  user_type: 'admin' | 'branch_admin' | 'school_admin' | 'sub_company_admin' | 'super_admin';
  permissions: string[];
  status: string;
  branch_uuid: string | null;
  school_uuid: string | null;
  station_uuid: string | null;
  password?: string | undefined;
}

/**
 * A member of the tenant's company (a user row is global, its company role lives in memberships); 404
 * for non-members and, for a scoped reader, for members outside its scope.
 */
async function memberOf(db: Queryable, tenant: Tenant, uuid: string) {
  const target = await loadTarget(db, tenant.companyId, uuid);
  if (!target || (tenant.scope && target.scopeIds[tenant.scope.column] !== tenant.scope.id))
    throw notFound('User');
  return target;
}

const actorOf = (user: AuthUser, tenant: Tenant) => ({ user, tenant });

const scopeIdsOf = (s: { sub: number | null; branch: number | null; school: number | null }): ScopeIds => ({
  sub_company_id: s.sub,
  branch_id: s.branch,
  school_id: s.school,
});

/** Scope ids of a membership from the input, resolved inside the tenant's own scope. */
async function membershipScope(db: Queryable, tenant: Tenant, input: UserInput) {
  let sub: number | null = null;
  let branch: number | null = null;
  let school: number | null = null;
  if (input.user_type === 'school_admin') {
    if (!input.school_uuid) throw invalidRef('school_uuid', 'School');
    const s = await findInScope(db, 'schools', input.school_uuid, tenant);
    if (!s) throw invalidRef('school_uuid', 'School');
    const row = s as unknown as { id: number; branch_id: number | null; sub_company_id: number | null };
    [school, branch, sub] = [row.id, row.branch_id, row.sub_company_id];
  } else if (input.user_type === 'branch_admin') {
    if (!input.branch_uuid) throw invalidRef('branch_uuid', 'Branch');
    const b = await findInScope(db, 'branches', input.branch_uuid, tenant);
    if (!b) throw invalidRef('branch_uuid', 'Branch');
    [branch, sub] = [b.id, (b as { sub_company_id?: number | null }).sub_company_id ?? null];
  } else if (input.user_type === 'sub_company_admin') {
    if (!input.station_uuid) throw invalidRef('station_uuid', 'Station');
    const s = await findInScope(db, 'sub_companies', input.station_uuid, tenant);
    if (!s) throw invalidRef('station_uuid', 'Station');
    sub = s.id;
  }
  return { sub, branch, school };
}

export function registerUserRoutes(app: FastifyInstance): void {
  const { storage } = app.ctx;
  const db = storage.db;

  route(
    app,
    'users.list',
    async ({ query, tenant }) => {
      const params: unknown[] = [tenant.companyId];
      const where = ['m.company_id = $1'];
      if (tenant.scope) {
        params.push(tenant.scope.id);
        where.push(`m.${tenant.scope.column} = $${params.length}`);
      }
      if (query.search) {
        params.push(containsPattern(query.search));
        where.push(
          `(u.name ILIKE $${params.length} OR u.email ILIKE $${params.length} OR u.phone ILIKE $${params.length})`,
        );
      }
      if (query.status) {
        params.push(query.status);
        where.push(`u.status = $${params.length}`);
      }
      if (query.user_type) {
        params.push(query.user_type);
        where.push(`m.user_type = $${params.length}`);
      }
      for (const [key, table, col] of [
        ['branch_uuid', 'branches', 'branch_id'],
        ['school_uuid', 'schools', 'school_id'],
        ['station_uuid', 'sub_companies', 'sub_company_id'],
      ] as const) {
        const v = (query as Record<string, unknown>)[key];
        if (v) {
          params.push(v);
          where.push(`m.${col} = (SELECT id FROM ${table} WHERE uuid = $${params.length})`);
        }
      }
      const sorts: Record<string, string> = {
        name: 'lower(u.name)',
        email: 'u.email',
        created_at: 'u.created_at',
        status: 'u.status',
      };
      const sort = sorts[query.sort ?? 'created_at'];
      if (!sort) throw invalidRef('sort', 'Sort');
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<{ id: number; total: number }>(
        `SELECT u.id, count(*) OVER () AS total FROM users u JOIN memberships m ON m.user_id = u.id
         WHERE ${where.join(' AND ')} ORDER BY ${sort} ${query.order === 'asc' ? 'ASC' : 'DESC'}, u.id
         LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const data = [];
      for (const r of rows) data.push((await userView(db, r.id, tenant.companyId))!);
      const total = rows[0] ? Number(rows[0].total) : 0;
      return page(data, total, query);
    },
    { permission: 'users.view' },
  );

  route(
    app,
    'users.show',
    async ({ params, tenant }) => ({
      data: (await userView(db, (await memberOf(db, tenant, params.uuid)).id, tenant.companyId))!,
    }),
    { permission: 'users.view' },
  );

  route(
    app,
    'users.create',
    async ({ req, reply, body, tenant, principal }) => {
      const input = body as UserInput;
      const actor = actorOf(principal.user, tenant);
      const view = await db.transaction(async (tx) => {
        const scope = await membershipScope(tx, tenant, input);
        assertMayGrant(actor, {
          userType: input.user_type,
          permissions: input.permissions,
          scopeIds: scopeIdsOf(scope),
        });
        const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [input.email]);
        if (taken.length)
          throw new HttpError(422, 'validation.general', {}, { email: ['This Email is already taken'] });
        if (input.phone) {
          const p = await tx.query('SELECT 1 FROM users WHERE phone = $1', [input.phone]);
          if (p.length)
            throw new HttpError(422, 'validation.general', {}, { phone: ['This Phone is already taken'] });
        }
        const [u] = await tx.query<{ id: number; uuid: string }>(
          `INSERT INTO users (email, phone, name, status, password_hash, is_super_admin) VALUES ($1, $2, $3, $4, $5, $6)
           RETURNING id, uuid`,
          [
            input.email,
            input.phone,
            input.name,
            input.status,
            input.password ? await hashPassword(input.password) : null,
            input.user_type === 'super_admin',
          ],
        );
        await tx.query(
          `INSERT INTO memberships (user_id, company_id, user_type, role, sub_company_id, branch_id, school_id, permissions)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            u!.id,
            tenant.companyId,
            input.user_type,
            input.role,
            scope.sub,
            scope.branch,
            scope.school,
            input.permissions.length ? input.permissions : null,
          ],
        );
        if (!input.password) {
          await sendSetPasswordInvitation(app.ctx, tx, {
            userId: u!.id,
            email: input.email,
            name: input.name,
            locale: req.locale,
            companyId: tenant.companyId,
          });
        }
        const v = (await userView(tx, u!.id, tenant.companyId))!;
        await logActivity(tx, {
          companyId: tenant.companyId,
          userId: principal.user.id,
          action: 'created',
          entity: 'user',
          entityUuid: v.uuid,
          after: v,
          req,
        });
        return v;
      });
      reply.code(201);
      return { data: view };
    },
    { permission: 'users.create' },
  );

  route(
    app,
    'users.update',
    async ({ req, params, body, tenant, principal }) => {
      const input = body as UserInput;
      const actor = actorOf(principal.user, tenant);
      const view = await db.transaction(async (tx) => {
        const target = await memberOf(tx, tenant, params.uuid);
        const id = target.id;
        const before = (await userView(tx, id, tenant.companyId))!;
        const scope = await membershipScope(tx, tenant, input);
        // What this update does to the account, for the rank model (tenancy/ranks.ts).
        const verbs: ManageVerb[] = ['update'];
        if (input.password) verbs.push('password');
        if ((before.email ?? '').toLowerCase() !== input.email.toLowerCase() || before.phone !== input.phone)
          verbs.push('email');
        if (before.status !== input.status) verbs.push('status');
        if (
          before.user_type !== input.user_type ||
          input.permissions.length > 0 ||
          before.branch_uuid !== input.branch_uuid ||
          before.school_uuid !== input.school_uuid ||
          before.station_uuid !== input.station_uuid
        )
          verbs.push('permissions');
        assertMayManage(actor, target, verbs);
        assertMayGrant(actor, {
          userType: input.user_type,
          permissions: input.permissions,
          scopeIds: scopeIdsOf(scope),
        });
        const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2', [
          input.email,
          id,
        ]);
        if (taken.length)
          throw new HttpError(422, 'validation.general', {}, { email: ['This Email is already taken'] });
        await tx.query(
          `UPDATE users SET email = $2, phone = $3, name = $4, status = $5, updated_at = now(),
             password_hash = coalesce($6, password_hash) WHERE id = $1`,
          [
            id,
            input.email,
            input.phone,
            input.name,
            input.status,
            input.password ? await hashPassword(input.password) : null,
          ],
        );
        await tx.query(
          `UPDATE memberships SET user_type = $3, role = $4, sub_company_id = $5, branch_id = $6, school_id = $7, permissions = $8
           WHERE user_id = $1 AND company_id = $2`,
          [
            id,
            tenant.companyId,
            input.user_type,
            input.role,
            scope.sub,
            scope.branch,
            scope.school,
            input.permissions.length ? input.permissions : null,
          ],
        );
        if (input.status !== 'active')
          await tx.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
            id,
          ]);
        const v = (await userView(tx, id, tenant.companyId))!;
        await logActivity(tx, {
          companyId: tenant.companyId,
          userId: principal.user.id,
          action: 'updated',
          entity: 'user',
          entityUuid: v.uuid,
          before,
          after: v,
          req,
        });
        return v;
      });
      return { data: view };
    },
    { permission: 'users.update' },
  );

  route(
    app,
    'users.status',
    async ({ req, params, body, tenant, principal }) => {
      const target = await memberOf(db, tenant, params.uuid);
      assertMayManage(actorOf(principal.user, tenant), target, ['status']);
      const id = target.id;
      await db.query('UPDATE users SET status = $2, updated_at = now() WHERE id = $1', [id, body.status]);
      if (body.status !== 'active')
        await db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
          id,
        ]);
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'status_changed',
        entity: 'user',
        entityUuid: params.uuid,
        after: { status: body.status },
        req,
      });
      return { data: (await userView(db, id, tenant.companyId))! };
    },
    { permission: 'users.update' },
  );

  route(
    app,
    'users.delete',
    async ({ req, params, tenant, principal }) => {
      const target = await memberOf(db, tenant, params.uuid);
      assertMayManage(actorOf(principal.user, tenant), target, ['delete']);
      const id = target.id;
      await db.transaction(async (tx) => {
        const before = await userView(tx, id, tenant.companyId);
        await tx.query('DELETE FROM memberships WHERE user_id = $1 AND company_id = $2', [
          id,
          tenant.companyId,
        ]);
        // Out of the company's notification rules' recipients too (see ruleRefs in defs/notification-rules.ts:
        // a removed recipient is dropped, not a reason to refuse the delete).
        await tx.query(
          `UPDATE notification_rules
              SET params = jsonb_set(params, '{recipient_user_uuids}', coalesce(
                    (SELECT jsonb_agg(x) FROM jsonb_array_elements(params->'recipient_user_uuids') x
                      WHERE x <> to_jsonb($2::text)), '[]'::jsonb)),
                  updated_at = now()
            WHERE company_id = $1 AND params->'recipient_user_uuids' @> jsonb_build_array($2::text)`,
          [tenant.companyId, params.uuid.toLowerCase()],
        );
        // A user of no other company goes entirely (sessions and tokens with it).
        await tx.query(
          'DELETE FROM users WHERE id = $1 AND NOT is_super_admin AND NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = $1)',
          [id],
        );
        await logActivity(tx, {
          companyId: tenant.companyId,
          userId: principal.user.id,
          action: 'deleted',
          entity: 'user',
          entityUuid: params.uuid,
          before,
          req,
        });
      });
      return { message: t(req.locale, 'deleted', { entity: 'User' }) };
    },
    { permission: 'users.delete' },
  );
}
