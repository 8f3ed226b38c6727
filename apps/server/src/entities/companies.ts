/**
 * Platform onboarding (issue 18 finding 10): a platform super admin lists the transport companies and
 * creates one together with its first company admin, in one transaction. The admin receives the same
 * set-password invitation as any invited user (auth/invitation.ts, queued in the message outbox), signs
 * in and sees only the new company. The CLI `npm run company:create` calls createCompany too.
 *
 * Decisions:
 * - Only a super admin (tenancy/ranks.ts assertPlatformOperator); the routes are session-level, so the
 *   company header of the caller plays no part.
 * - The admin e-mail must be new: onboarding never attaches an existing account (that account's owner
 *   did not agree, and its password would then open a company it was never invited to). 422 on e-mail.
 * - Company names are unique, case-insensitively (two "Emirates Transport" in a list is an accident).
 * - The admin gets the membership `admin` with the type's default permissions (rank 3) and no password
 *   until they follow the link.
 */
import type { FastifyInstance } from 'fastify';
import type { CompanyCreateInput, PlatformCompany } from '@fleet/api-client';
import { HttpError } from '../http/errors';
import { route } from '../http/route';
import { logActivity } from '../activity/log';
import { sendSetPasswordInvitation, type InvitationDeps } from '../auth/invitation';
import type { Queryable } from '../storage/db';
import { assertPlatformOperator } from '../tenancy/ranks';

interface CompanyRow {
  id: number;
  uuid: string;
  name: string;
  name_ar: string | null;
  country_code: string;
  status: string;
  settings: Record<string, unknown>;
  configurations: Record<string, unknown>;
  features: Record<string, boolean | number | string | null>;
  user_count: number;
  created_at: Date | string;
}

const COLUMNS = `c.id, c.uuid, c.name, c.name_ar, c.country_code, c.status, c.settings, c.configurations, c.features,
  (SELECT count(*)::int FROM memberships m WHERE m.company_id = c.id) AS user_count, c.created_at`;

function view(r: CompanyRow): PlatformCompany {
  return {
    uuid: r.uuid,
    name: r.name,
    name_ar: r.name_ar,
    country_code: r.country_code,
    status: r.status,
    settings: r.settings,
    configurations: r.configurations,
    features: r.features,
    user_count: Number(r.user_count),
    created_at: new Date(r.created_at).toISOString(),
  };
}

export async function listCompanies(db: Queryable): Promise<PlatformCompany[]> {
  const rows = await db.query<CompanyRow>(
    `SELECT ${COLUMNS} FROM transport_companies c ORDER BY lower(c.name), c.id`,
  );
  return rows.map(view);
}

/** The parsed body of companies.create (defaults applied). */
export type CompanyCreate = Omit<Required<CompanyCreateInput>, 'admin' | 'name_ar'> & {
  name_ar?: string | null | undefined;
  admin: { email: string; name: string; locale: 'en' | 'ar' };
};

export interface CompanyCreatedResult {
  company: PlatformCompany;
  companyId: number;
  admin: { id: number; uuid: string; email: string; name: string };
  link: string;
}

/**
 * Create the company, its first admin, the admin's membership and the invitation, inside `tx` (the
 * caller's transaction). Field errors are 422 with English messages the i18n layer translates.
 */
export async function createCompany(
  deps: InvitationDeps,
  tx: Queryable,
  input: CompanyCreate,
): Promise<CompanyCreatedResult> {
  const errors: Record<string, string[]> = {};
  const sameName = await tx.query('SELECT 1 FROM transport_companies WHERE lower(name) = lower($1)', [
    input.name,
  ]);
  if (sameName.length) errors.name = ['This Name is already taken'];
  const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [input.admin.email]);
  if (taken.length) errors['admin.email'] = ['This Email is already taken'];
  if (Object.keys(errors).length) throw new HttpError(422, 'validation.general', {}, errors);
  const [c] = await tx.query<{ id: number }>(
    `INSERT INTO transport_companies (name, name_ar, country_code, settings, features)
     VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [
      input.name,
      input.name_ar ?? null,
      input.country_code,
      JSON.stringify(input.settings),
      JSON.stringify(input.features),
    ],
  );
  const [u] = await tx.query<{ id: number; uuid: string }>(
    `INSERT INTO users (email, name, password_hash, is_super_admin, locale)
     VALUES ($1, $2, NULL, false, $3) RETURNING id, uuid`,
    [input.admin.email, input.admin.name, input.admin.locale],
  );
  await tx.query(
    `INSERT INTO memberships (user_id, company_id, user_type, permissions) VALUES ($1, $2, 'admin', NULL)`,
    [u!.id, c!.id],
  );
  const link = await sendSetPasswordInvitation(deps, tx, {
    userId: u!.id,
    email: input.admin.email,
    name: input.admin.name,
    locale: input.admin.locale,
    companyId: c!.id,
  });
  const [row] = await tx.query<CompanyRow>(`SELECT ${COLUMNS} FROM transport_companies c WHERE c.id = $1`, [
    c!.id,
  ]);
  return {
    company: view(row!),
    companyId: c!.id,
    admin: { id: u!.id, uuid: u!.uuid, email: input.admin.email, name: input.admin.name },
    link,
  };
}

export function registerPlatformRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  route(app, 'companies.list', async ({ principal }) => {
    assertPlatformOperator(principal.user);
    return { data: await listCompanies(db) };
  });

  route(app, 'companies.create', async ({ req, reply, body, principal }) => {
    assertPlatformOperator(principal.user);
    const created = await db.transaction(async (tx) => {
      const r = await createCompany(app.ctx, tx, body as CompanyCreate);
      await logActivity(tx, {
        companyId: r.companyId,
        userId: principal.user.id,
        action: 'created',
        entity: 'transport_company',
        entityUuid: r.company.uuid,
        after: { ...r.company, admin: { uuid: r.admin.uuid, email: r.admin.email } },
        req,
      });
      return r;
    });
    reply.code(201);
    return {
      data: {
        company: created.company,
        admin: { uuid: created.admin.uuid, email: created.admin.email, name: created.admin.name },
      },
    };
  });
}
