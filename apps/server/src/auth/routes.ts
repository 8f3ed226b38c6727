import type { FastifyInstance, FastifyRequest } from 'fastify';
import { route, iso } from '../http/route';
import { HttpError, fieldError, unauthenticated } from '../http/errors';
import { t, type Locale } from '../http/i18n';
import { logActivity } from '../activity/log';
import type { Queryable } from '../storage/db';
import {
  dummyPasswordHash,
  hashOtp,
  hashPassword,
  hashToken,
  newOtpCode,
  newToken,
  verifyPassword,
} from './crypto';
import { bearerToken, sessionFromToken } from './session';
import { connectAuthCacheBus } from './cache';
import {
  ACCOUNT_LIMIT,
  ADDRESS_FREE,
  ADDRESS_LIMIT,
  PAIR_FREE,
  accountKey,
  addressKey,
  assertBackoff,
  assertNotThrottled,
  clearFailures,
  pairKey,
  recordFailure,
  takeMessageAllowance,
} from './throttle';
import { companiesOf, companyView, userView, type CompanyRow } from './users';

export const VERIFICATION_TTL_MS = 10 * 60_000;
export const RESET_TTL_MS = 60 * 60_000;
export const SET_PASSWORD_TTL_MS = 7 * 24 * 60 * 60_000;
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_RESEND_MS = 60_000;
export const OTP_MAX_ATTEMPTS = 5;
/** Lifetime of a media token (it dies earlier with its session: logout, expiry). */
export const MEDIA_TOKEN_TTL_MS = 12 * 60 * 60_000;

interface UserRow {
  id: number;
  uuid: string;
  email: string | null;
  phone: string | null;
  password_hash: string | null;
  status: string;
  is_super_admin: boolean;
  locale: string | null;
}

/** The language a user's messages are written in: their saved one. */
function localeOf(user: { locale: string | null }): Locale {
  return user.locale?.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

async function findUser(
  db: Queryable,
  email?: string | null,
  phone?: string | null,
): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(
    email
      ? 'SELECT id, uuid, email, phone, password_hash, status, is_super_admin, locale FROM users WHERE lower(email) = lower($1)'
      : 'SELECT id, uuid, email, phone, password_hash, status, is_super_admin, locale FROM users WHERE phone = $1',
    [email ?? phone ?? ''],
  );
  return rows[0] ?? null;
}

/** Create a session; returns the raw token (only its hash is stored). */
export async function createSession(
  db: Queryable,
  userId: number,
  companyId: number | null,
  req: FastifyRequest,
  expiresAt: Date,
): Promise<string> {
  const token = newToken();
  await db.query(
    `INSERT INTO sessions (user_id, token_hash, company_id, ip, user_agent, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      userId,
      hashToken(token),
      companyId,
      req.ip,
      String(req.headers['user-agent'] ?? '').slice(0, 300),
      expiresAt.toISOString(),
    ],
  );
  return token;
}

/** One-time token (set/reset password, verification). */
export async function issueToken(
  db: Queryable,
  userId: number,
  kind: string,
  expiresAt: Date,
): Promise<string> {
  const token = newToken();
  await db.query('INSERT INTO auth_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, $4)', [
    userId,
    kind,
    hashToken(token),
    expiresAt.toISOString(),
  ]);
  return token;
}

/** Use a one-time token once; returns its user id or null. */
export async function consumeToken(db: Queryable, token: string, kind: string, now: Date, userId?: number) {
  const rows = await db.query<{ user_id: number }>(
    `UPDATE auth_tokens SET used_at = $3 WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3
       ${userId !== undefined ? 'AND user_id = $4' : ''}
     RETURNING user_id`,
    userId !== undefined
      ? [hashToken(token), kind, now.toISOString(), userId]
      : [hashToken(token), kind, now.toISOString()],
  );
  return rows[0]?.user_id ?? null;
}

/**
 * Sensitive actions (immobilize, ...) call this with the X-Verification-Token header or a body
 * field: the token from POST /v1/verify-password (or an OTP verify for 'sensitive_action'),
 * valid 10 minutes, once. Throws 403 'verification.required' otherwise.
 */
export async function requireVerification(
  db: Queryable,
  userId: number,
  token: string | null | undefined,
  now: Date,
): Promise<void> {
  if (!token || (await consumeToken(db, token, 'verification', now, userId)) === null) {
    throw new HttpError(403, 'verification.required');
  }
}

async function setPassword(db: Queryable, userId: number, password: string, keepSessionId?: number) {
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [
    userId,
    await hashPassword(password),
  ]);
  await db.query(
    `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND id <> $2`,
    [userId, keepSessionId ?? -1],
  );
}

async function sendOtp(app: FastifyInstance, user: UserRow, purpose: string, viaPhone: boolean, now: Date) {
  const { db } = app.ctx.storage;
  const recent = await db.query<{ created_at: Date }>(
    `SELECT created_at FROM otp_codes WHERE user_id = $1 AND purpose = $2 ORDER BY created_at DESC LIMIT 1`,
    [user.id, purpose],
  );
  const last = recent[0] ? new Date(recent[0].created_at).getTime() : 0;
  if (now.getTime() - last < OTP_RESEND_MS) {
    const seconds = Math.ceil((last + OTP_RESEND_MS - now.getTime()) / 1000);
    throw new HttpError(429, 'auth.throttled', { seconds }, undefined, { 'Retry-After': String(seconds) });
  }
  const code = newOtpCode();
  // SMS when asked for, the user has a phone and an SMS provider is configured (or the user has no
  // e-mail at all: then the SMS waits in the local mailbox); e-mail otherwise.
  const channel =
    viaPhone && user.phone && (app.ctx.messenger.smsEnabled !== false || !user.email) ? 'sms' : 'email';
  // Capped per recipient per hour (issue 18); over the cap the code is silently not sent.
  if (!(await takeMessageAllowance(db, now, user.id))) return;
  await db.query(
    `INSERT INTO otp_codes (user_id, purpose, channel, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      user.id,
      purpose,
      channel,
      hashOtp(user.id, purpose, code),
      now.toISOString(),
      new Date(now.getTime() + OTP_TTL_MS).toISOString(),
    ],
  );
  const to = channel === 'sms' ? user.phone : user.email;
  if (to) {
    await app.ctx.messenger.send({
      channel,
      to,
      kind: 'otp',
      subject: 'Your verification code',
      text: `Your fleet verification code is ${code}. It expires in 10 minutes.`,
      secret: code,
      locale: localeOf(user),
      userId: user.id,
    });
  }
}

export function registerAuthRoutes(app: FastifyInstance): void {
  const { storage, config, messenger } = app.ctx;
  const db = storage.db;
  const now = () => app.ctx.now();
  const publicUrl = (path: string) => `${config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`}${path}`;
  // Sessions and tenants are cached per database; other API nodes hear of auth writes on the bus.
  const disconnectAuthCache = connectAuthCacheBus(db, app.ctx.bus);
  app.addHook('onClose', async () => disconnectAuthCache());

  route(app, 'auth.login', async ({ req, body }) => {
    const at = now();
    const identity = (body.email ?? body.phone ?? '').toLowerCase();
    // Per (account, address) and per address with growing delays; never per account alone (issue 18).
    const acct = pairKey(identity, req.ip);
    const addr = addressKey(req.ip);
    await assertBackoff(db, at, [
      [acct, PAIR_FREE],
      [addr, ADDRESS_FREE],
    ]);
    const user = await findUser(db, body.email, body.phone);
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyPasswordHash()));
    if (!user || !ok) {
      await recordFailure(db, at, [acct, addr]);
      throw fieldError(body.email !== undefined ? 'email' : 'phone', t('en', 'auth.failed'), 'auth.failed');
    }
    if (user.status !== 'active') throw new HttpError(403, 'auth.inactive');
    await clearFailures(db, acct);
    const companies = await db.query<{ company_id: number }>(
      'SELECT company_id FROM memberships WHERE user_id = $1',
      [user.id],
    );
    const companyId = companies.length === 1 ? companies[0]!.company_id : null;
    const expires = new Date(at.getTime() + config.SESSION_TTL_HOURS * 3600_000);
    const token = await createSession(db, user.id, companyId, req, expires);
    // The media token: its own short-lived, read-only session under this one (issue 18 finding 4).
    const mediaToken = newToken();
    await db.query(
      `INSERT INTO sessions (user_id, token_hash, company_id, ip, user_agent, expires_at, kind, parent_id)
       SELECT user_id, $2, company_id, ip, user_agent, least(expires_at, $3::timestamptz), 'media', id
       FROM sessions WHERE token_hash = $1`,
      [hashToken(token), hashToken(mediaToken), new Date(at.getTime() + MEDIA_TOKEN_TTL_MS).toISOString()],
    );
    await db.query('UPDATE users SET last_login_at = $2 WHERE id = $1', [user.id, at.toISOString()]);
    await logActivity(db, {
      companyId,
      userId: user.id,
      action: 'login',
      entity: 'user',
      entityUuid: user.uuid,
      req,
    });
    const view = await userView(db, user.id, companyId);
    return { data: { token, media_app_token: mediaToken, user: view! } };
  });

  route(app, 'auth.me', async ({ principal }) => {
    const user = await userView(db, principal.user.id, principal.session.companyId);
    const transport_companies = await companiesOf(db, principal.user.id, principal.user.isSuperAdmin);
    return { data: { user: user!, transport_companies } };
  });

  route(app, 'auth.logout', async ({ req, principal }) => {
    // The session and its media token go together.
    await db.query(
      'UPDATE sessions SET revoked_at = $2 WHERE (id = $1 OR parent_id = $1) AND revoked_at IS NULL',
      [principal.session.id, now().toISOString()],
    );
    await logActivity(db, {
      companyId: principal.session.companyId,
      userId: principal.user.id,
      action: 'logout',
      entity: 'user',
      entityUuid: principal.user.uuid,
      req,
    });
    return { message: t(req.locale, 'logged_out') };
  });

  route(app, 'auth.setPassword', async ({ req, params, body }) => {
    const userId = await consumeToken(db, params.token, 'set_password', now());
    if (userId === null) throw new HttpError(422, 'token.invalid', {}, { token: [t('en', 'token.invalid')] });
    await setPassword(db, userId, body.password);
    return { message: t(req.locale, 'password.set') };
  });

  route(app, 'auth.forgotPassword', async ({ req, body }) => {
    const at = now();
    // Throttled by its own use per address (it used to record under one key and check another), and
    // capped per recipient per hour; the answer is the same whether the account exists or not.
    const forgotKey = addressKey(`forgot:${req.ip}`);
    await assertNotThrottled(db, at, [
      [addressKey(req.ip), ADDRESS_LIMIT],
      [forgotKey, ADDRESS_LIMIT],
    ]);
    await recordFailure(db, at, [forgotKey]);
    const user = await findUser(db, body.email, body.phone);
    if (user && user.status === 'active') {
      if (body.email && user.email) {
        if (!(await takeMessageAllowance(db, at, user.id)))
          return { message: t(req.locale, 'password.reset_sent') };
        const token = await issueToken(db, user.id, 'reset_password', new Date(at.getTime() + RESET_TTL_MS));
        const link = publicUrl(`/reset-password?token=${token}`);
        await messenger.send({
          channel: 'email',
          to: user.email,
          kind: 'reset_password',
          subject: 'Reset your password',
          text: `Open ${link} to choose a new password (valid 1 hour).`,
          secret: token,
          link,
          locale: localeOf(user),
          userId: user.id,
        });
      } else {
        await sendOtp(app, user, 'reset_password', true, at).catch((e: unknown) => {
          if (!(e instanceof HttpError)) throw e; // a too-early resend answers the same as success
        });
      }
    }
    return { message: t(req.locale, 'password.reset_sent') };
  });

  route(app, 'auth.resetPassword', async ({ req, body }) => {
    const userId = await consumeToken(db, body.token, 'reset_password', now());
    if (userId === null) throw new HttpError(422, 'token.invalid', {}, { token: [t('en', 'token.invalid')] });
    await setPassword(db, userId, body.password);
    await logActivity(db, { companyId: null, userId, action: 'password_changed', entity: 'user', req });
    return { message: t(req.locale, 'password.changed') };
  });

  route(app, 'auth.changePassword', async ({ req, body, principal }) => {
    const at = now();
    const acct = accountKey(principal.user.email ?? principal.user.phone ?? principal.user.uuid);
    await assertNotThrottled(db, at, [[acct, ACCOUNT_LIMIT]]);
    const [row] = await db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [principal.user.id],
    );
    if (!(await verifyPassword(body.current_password, row?.password_hash))) {
      await recordFailure(db, at, [acct]);
      throw fieldError('current_password', t('en', 'password.current_wrong'), 'password.current_wrong');
    }
    await setPassword(db, principal.user.id, body.password, principal.session.id);
    await logActivity(db, {
      companyId: principal.session.companyId,
      userId: principal.user.id,
      action: 'password_changed',
      entity: 'user',
      entityUuid: principal.user.uuid,
      req,
    });
    return { message: t(req.locale, 'password.changed') };
  });

  route(app, 'auth.otpSend', async ({ req, body }) => {
    const at = now();
    await assertNotThrottled(db, at, [[addressKey(req.ip), ADDRESS_LIMIT]]);
    const principal = await sessionFromToken(db, bearerToken(req), at);
    let user: UserRow | null;
    if (principal)
      user = await findUser(db, principal.user.email, principal.user.email ? null : principal.user.phone);
    else {
      if (!body.email && !body.phone) throw fieldError('email', 'Email is required');
      if (body.purpose === 'sensitive_action') throw unauthenticated();
      user = await findUser(db, body.email, body.phone);
    }
    if (user && user.status === 'active') {
      const sending = sendOtp(app, user, body.purpose, !!body.phone || body.purpose === 'verify_phone', at);
      // Without a session the answer must not tell an existing account from an unknown one (issue 18):
      // a too-early resend answers like a send, as for an unknown address.
      if (principal) await sending;
      else
        await sending.catch((e: unknown) => {
          if (!(e instanceof HttpError)) throw e;
        });
    }
    return {
      data: { expires_at: iso(new Date(at.getTime() + OTP_TTL_MS))!, resend_after: OTP_RESEND_MS / 1000 },
    };
  });

  route(app, 'auth.otpVerify', async ({ req, body }) => {
    const at = now();
    await assertNotThrottled(db, at, [[addressKey(req.ip), ADDRESS_LIMIT]]);
    const principal = await sessionFromToken(db, bearerToken(req), at);
    const user = principal
      ? await findUser(db, principal.user.email, principal.user.email ? null : principal.user.phone)
      : await findUser(db, body.email, body.phone);
    const invalid = () => new HttpError(422, 'otp.invalid', {}, { code: [t('en', 'otp.invalid')] });
    if (!user) {
      await recordFailure(db, at, [addressKey(req.ip)]);
      throw invalid();
    }
    const [otp] = await db.query<{ id: number; code_hash: string; attempts: number }>(
      `SELECT id, code_hash, attempts FROM otp_codes
       WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3
       ORDER BY created_at DESC LIMIT 1`,
      [user.id, body.purpose, at.toISOString()],
    );
    if (
      !otp ||
      otp.attempts >= OTP_MAX_ATTEMPTS ||
      otp.code_hash !== hashOtp(user.id, body.purpose, body.code)
    ) {
      if (otp) await db.query('UPDATE otp_codes SET attempts = attempts + 1 WHERE id = $1', [otp.id]);
      await recordFailure(db, at, [addressKey(req.ip)]);
      throw invalid();
    }
    await db.query('UPDATE otp_codes SET used_at = $2 WHERE id = $1', [otp.id, at.toISOString()]);
    let token: string | null = null;
    let expiresAt: Date | null = null;
    if (body.purpose === 'reset_password') {
      expiresAt = new Date(at.getTime() + RESET_TTL_MS);
      token = await issueToken(db, user.id, 'reset_password', expiresAt);
    } else if (body.purpose === 'sensitive_action') {
      expiresAt = new Date(at.getTime() + VERIFICATION_TTL_MS);
      token = await issueToken(db, user.id, 'verification', expiresAt);
    } else if (body.purpose === 'verify_phone') {
      await db.query(
        `UPDATE users SET data = data || jsonb_build_object('phone_verified_at', $2::text) WHERE id = $1`,
        [user.id, at.toISOString()],
      );
    }
    return { data: { verified: true as const, token, expires_at: iso(expiresAt) } };
  });

  route(app, 'auth.verifyPassword', async ({ body, principal }) => {
    const at = now();
    const acct = accountKey(principal.user.email ?? principal.user.phone ?? principal.user.uuid);
    await assertNotThrottled(db, at, [[acct, ACCOUNT_LIMIT]]);
    const [row] = await db.query<{ password_hash: string | null }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [principal.user.id],
    );
    if (!(await verifyPassword(body.password, row?.password_hash))) {
      await recordFailure(db, at, [acct]);
      throw fieldError('password', t('en', 'password.current_wrong'), 'password.current_wrong');
    }
    const expires = new Date(at.getTime() + VERIFICATION_TTL_MS);
    const token = await issueToken(db, principal.user.id, 'verification', expires);
    return { data: { verification_token: token, expires_at: iso(expires)! } };
  });

  route(app, 'auth.switchCompany', async ({ req, body, principal }) => {
    const rows = await db.query<CompanyRow & { id: number; member: boolean }>(
      `SELECT c.id, c.uuid, c.name, c.name_ar, c.country_code, c.settings, c.configurations, c.features,
              EXISTS (SELECT 1 FROM memberships m WHERE m.company_id = c.id AND m.user_id = $2) AS member
       FROM transport_companies c WHERE c.uuid = $1 AND c.status <> 'deleted'`,
      [body.transport_company_uuid, principal.user.id],
    );
    const c = rows[0];
    if (!c || (!c.member && !principal.user.isSuperAdmin)) throw new HttpError(403, 'transport.forbidden');
    await db.query('UPDATE sessions SET company_id = $2 WHERE id = $1', [principal.session.id, c.id]);
    await logActivity(db, {
      companyId: c.id,
      userId: principal.user.id,
      action: 'company_switched',
      entity: 'transport_company',
      entityUuid: c.uuid,
      req,
    });
    return { data: { transport_company: companyView(c) } };
  });
}
