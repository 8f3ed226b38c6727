import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../storage/db';
import type { ActivityAction } from '@fleet/api-client';

export interface ActivityEntry {
  companyId: number | null;
  userId: number | null;
  action: ActivityAction;
  entity: string;
  entityUuid?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  req?: FastifyRequest;
}

/** Append one row to the user activity log (who, when, what, before and after). */
export async function logActivity(db: Queryable, e: ActivityEntry): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (company_id, user_id, entity, entity_uuid, action, before, after, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      e.companyId,
      e.userId,
      e.entity,
      e.entityUuid ?? null,
      e.action,
      e.before ? JSON.stringify(e.before) : null,
      e.after ? JSON.stringify(e.after) : null,
      e.req?.ip ?? null,
      typeof e.req?.headers['user-agent'] === 'string' ? e.req.headers['user-agent'].slice(0, 300) : null,
    ],
  );
}
