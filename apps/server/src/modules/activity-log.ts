import type { FastifyInstance } from 'fastify';
import { route, iso } from '../http/route';
import { sortExpression } from './list-sort';
import { containsPattern } from '../storage/db';

import { page as pageOf } from '../http/page';

/**
 * The activity log of the company.
 * (One endpoint group of the records; modules/records.ts registers them all.)
 */
export function registerActivityLogRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  route(
    app,
    'activityLog.list',
    async ({ query, tenant }) => {
      const orderBy = sortExpression(
        query.sort,
        { created_at: 'a.at', action: 'a.action', subject_type: 'a.entity' },
        'created_at',
      );
      const params: unknown[] = [tenant.companyId];
      const where = ['a.company_id = $1'];
      if (tenant.scope) {
        // Scoped admins see the activity of users inside their own scope only.
        where.push(
          `a.user_id IN (SELECT m.user_id FROM memberships m WHERE m.company_id = $1 AND m.${tenant.scope.column} = $${params.push(tenant.scope.id)})`,
        );
      }
      if (query.action) where.push(`a.action = $${params.push(query.action)}`);
      if (query.subject_type) where.push(`a.entity = $${params.push(query.subject_type)}`);
      if (query.subject_uuid) where.push(`a.entity_uuid = $${params.push(query.subject_uuid)}`);
      if (query.user_uuid)
        where.push(`a.user_id = (SELECT id FROM users WHERE uuid = $${params.push(query.user_uuid)})`);
      if (query.from) where.push(`a.at >= $${params.push(query.from)}`);
      if (query.to) where.push(`a.at <= $${params.push(query.to)}`);
      if (query.search)
        where.push(
          `(a.entity ILIKE $${params.push(containsPattern(query.search))} OR a.action ILIKE $${params.length})`,
        );
      const [c] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM activity_log a WHERE ${where.join(' AND ')}`,
        params,
      );
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<{
        uuid: string;
        action: string;
        entity: string;
        entity_uuid: string | null;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
        ip: string | null;
        user_agent: string | null;
        at: Date;
        user: { uuid: string; name: string } | null;
      }>(
        `SELECT a.*, (SELECT jsonb_build_object('uuid', u.uuid, 'name', u.name) FROM users u WHERE u.id = a.user_id) AS "user"
         FROM activity_log a WHERE ${where.join(' AND ')}
         ORDER BY ${orderBy} ${query.order === 'asc' ? 'ASC' : 'DESC'}, a.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      return pageOf(
        rows.map((r) => ({
          uuid: r.uuid,
          action: r.action as 'created',
          user: r.user,
          subject_type: r.entity,
          subject_uuid: r.entity_uuid,
          description: `${r.user?.name ?? 'System'} ${r.action.replace('_', ' ')} ${r.entity}`,
          before: r.before,
          after: r.after,
          ip_address: r.ip,
          user_agent: r.user_agent,
          created_at: iso(r.at)!,
        })),
        c?.n ?? 0,
        query,
      );
    },
    { permission: 'activity-log.view' },
  );
}
