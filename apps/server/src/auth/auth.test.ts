import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, PASSWORD, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { loginResponseSchema, authResponseSchema } from '@fleet/api-client';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('auth');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const login = (email: string, password: string, ip?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/v1/login',
    payload: { email, password },
    ...(ip ? { remoteAddress: ip } : {}),
  });

describe('sign-in', () => {
  it('answers token, media_app_token and the user; the token works on /v1/auth', async () => {
    const r = await login('Admin.A@fleet.test', PASSWORD);
    expect(r.statusCode).toBe(200);
    const body = loginResponseSchema.parse(r.json());
    expect(body.data.user.uuid).toBe(w.users.adminA.uuid);
    expect(body.data.user.user_type).toBe('admin');
    expect(body.data.token).not.toBe(body.data.media_app_token);
    expect(JSON.stringify(r.json())).not.toMatch(/"id":/);
    const me = await call(h.app, { method: 'GET', url: '/v1/auth', token: body.data.token });
    expect(me.statusCode).toBe(200);
    const session = authResponseSchema.parse(me.json());
    expect(session.data.transport_companies.map((c) => c.uuid)).toEqual([w.a.uuid]);
    // The token is stored hashed only.
    const stored = await h.storage.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.some((s) => s.token_hash === body.data.token)).toBe(false);
  });

  it('gives the same answer for an unknown user and a wrong password', async () => {
    const unknown = await login('nobody@fleet.test', PASSWORD);
    const wrong = await login('admin.a@fleet.test', 'wrong-password');
    expect(unknown.statusCode).toBe(422);
    expect(wrong.statusCode).toBe(422);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().message).toBe('These credentials do not match our records.');
  });

  it('answers in Arabic with X-Locale: ar', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'x-locale': 'ar' },
      payload: { email: 'x@fleet.test', password: 'nope' },
    });
    expect(r.json().message).toBe('بيانات الاعتماد هذه لا تتطابق مع سجلاتنا.');
    const bad = await h.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'x-locale': 'ar' },
      payload: { email: 'a@fleet.test' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.password[0]).toBe('كلمة المرور مطلوبة');
  });

  it('throttles an account from an address after 5 failures, even with the right password', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login('admin.a@fleet.test', 'bad-password')).statusCode).toBe(422);
    const locked = await login('admin.a@fleet.test', PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same address still works.
    expect((await login('admin.b@fleet.test', PASSWORD)).statusCode).toBe(200);
    // After the delay the account unlocks.
    h.clock.now = new Date(h.clock.now.getTime() + 16 * 60_000);
    expect((await login('admin.a@fleet.test', PASSWORD)).statusCode).toBe(200);
  });

  it('throttles per address across accounts', async () => {
    for (let i = 0; i < 30; i++) await login(`user${i}@fleet.test`, 'bad-password', '10.0.0.9');
    expect((await login('admin.a@fleet.test', PASSWORD, '10.0.0.9')).statusCode).toBe(429);
    expect((await login('admin.a@fleet.test', PASSWORD, '10.0.0.10')).statusCode).toBe(200);
  });

  it.each([
    ['missing', undefined],
    ['forged', 'A'.repeat(43)],
    ['malformed', 'not a token!'],
  ])('401 for a %s token', async (_, token) => {
    const r = await call(h.app, { method: 'GET', url: '/v1/auth', token });
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toBe('Unauthenticated.');
  });

  it('401 for an expired token and after logout', async () => {
    const r = await login('admin.a@fleet.test', PASSWORD);
    const token = r.json().data.token as string;
    const out = await call(h.app, { method: 'DELETE', url: '/v1/logout', token });
    expect(out.statusCode).toBe(200);
    expect((await call(h.app, { method: 'GET', url: '/v1/auth', token })).statusCode).toBe(401);
    const token2 = (await login('admin.a@fleet.test', PASSWORD)).json().data.token as string;
    h.clock.now = new Date(h.clock.now.getTime() + (h.config.SESSION_TTL_HOURS + 1) * 3600_000);
    expect((await call(h.app, { method: 'GET', url: '/v1/auth', token: token2 })).statusCode).toBe(401);
  });
});

describe('passwords', () => {
  it('forgot -> reset by e-mail link, old sessions revoked, same answer for unknown addresses', async () => {
    const unknown = await call(h.app, {
      method: 'POST',
      url: '/v1/forgot-password',
      body: { email: 'x@fleet.test' },
    });
    const known = await call(h.app, {
      method: 'POST',
      url: '/v1/forgot-password',
      body: { email: w.users.adminA.email },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const mail = h.messenger.last('reset_password')!;
    expect(mail.to).toBe(w.users.adminA.email);
    const bad = await call(h.app, {
      method: 'POST',
      url: '/v1/reset-password',
      body: { token: mail.secret, password: 'new-password-1', password_confirmation: 'other-password' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.password_confirmation).toEqual([
      'Password and confirm password must be the same',
    ]);
    const ok = await call(h.app, {
      method: 'POST',
      url: '/v1/reset-password',
      body: { token: mail.secret, password: 'new-password-1', password_confirmation: 'new-password-1' },
    });
    expect(ok.statusCode).toBe(200);
    expect(
      (await call(h.app, { method: 'GET', url: '/v1/auth', token: w.users.adminA.token })).statusCode,
    ).toBe(401);
    expect((await login('admin.a@fleet.test', 'new-password-1')).statusCode).toBe(200);
    // A link works once.
    const again = await call(h.app, {
      method: 'POST',
      url: '/v1/reset-password',
      body: { token: mail.secret, password: 'new-password-2', password_confirmation: 'new-password-2' },
    });
    expect(again.statusCode).toBe(422);
  });

  it('set-password from an invitation token', async () => {
    const { issueToken } = await import('./routes');
    const token = await issueToken(h.storage.db, w.users.adminB.id, 'set_password', new Date('2027-01-01'));
    const r = await call(h.app, {
      method: 'POST',
      url: `/v1/set-password/${token}`,
      body: { password: 'brand-new-pass', password_confirmation: 'brand-new-pass' },
    });
    expect(r.statusCode).toBe(200);
    expect((await login('admin.b@fleet.test', 'brand-new-pass')).statusCode).toBe(200);
    const forged = await call(h.app, {
      method: 'POST',
      url: `/v1/set-password/${'x'.repeat(40)}`,
      body: { password: 'brand-new-pass', password_confirmation: 'brand-new-pass' },
    });
    expect(forged.statusCode).toBe(422);
  });

  it('change-password needs the current one and keeps only the current session', async () => {
    const s1 = (await login('admin.a@fleet.test', PASSWORD)).json().data.token as string;
    const wrong = await call(h.app, {
      method: 'POST',
      url: '/v1/change-password',
      token: s1,
      body: {
        current_password: 'nope-nope',
        password: 'changed-pass-1',
        password_confirmation: 'changed-pass-1',
      },
    });
    expect(wrong.statusCode).toBe(422);
    const ok = await call(h.app, {
      method: 'POST',
      url: '/v1/change-password',
      token: s1,
      body: {
        current_password: PASSWORD,
        password: 'changed-pass-1',
        password_confirmation: 'changed-pass-1',
      },
    });
    expect(ok.statusCode).toBe(200);
    expect((await call(h.app, { method: 'GET', url: '/v1/auth', token: s1 })).statusCode).toBe(200);
    expect(
      (await call(h.app, { method: 'GET', url: '/v1/auth', token: w.users.adminA.token })).statusCode,
    ).toBe(401);
  });

  it('verify-password issues a short-lived verification token', async () => {
    const r = await call(h.app, {
      method: 'POST',
      url: '/v1/verify-password',
      token: w.users.adminA.token,
      body: { password: PASSWORD },
    });
    expect(r.statusCode).toBe(200);
    const { requireVerification } = await import('./routes');
    const tok = r.json().data.verification_token as string;
    await expect(requireVerification(h.storage.db, w.users.adminB.id, tok, h.clock.now)).rejects.toThrow();
    await requireVerification(h.storage.db, w.users.adminA.id, tok, h.clock.now);
    await expect(requireVerification(h.storage.db, w.users.adminA.id, tok, h.clock.now)).rejects.toThrow();
    const bad = await call(h.app, {
      method: 'POST',
      url: '/v1/verify-password',
      token: w.users.adminA.token,
      body: { password: 'wrong-one' },
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('OTP', () => {
  it('sends a hashed code and verifies it once; wrong codes count', async () => {
    const sent = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/send',
      token: w.users.adminA.token,
      body: { purpose: 'sensitive_action' },
    });
    expect(sent.statusCode).toBe(200);
    const code = h.messenger.last('otp')!.secret;
    const rows = await h.storage.db.query<{ code_hash: string }>('SELECT code_hash FROM otp_codes');
    expect(rows[0]!.code_hash).not.toContain(code);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/verify',
      token: w.users.adminA.token,
      body: { purpose: 'sensitive_action', code: wrongCode },
    });
    expect(wrong.statusCode).toBe(422);
    const ok = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/verify',
      token: w.users.adminA.token,
      body: { purpose: 'sensitive_action', code },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.token).toEqual(expect.any(String));
    const reuse = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/verify',
      token: w.users.adminA.token,
      body: { purpose: 'sensitive_action', code },
    });
    expect(reuse.statusCode).toBe(422);
    // Too-early resend is refused.
    const resend = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/send',
      token: w.users.adminA.token,
      body: { purpose: 'sensitive_action' },
    });
    expect(resend.statusCode).toBe(429);
  });

  it('reset by OTP to an identity without a session', async () => {
    await call(h.app, {
      method: 'POST',
      url: '/v1/otp/send',
      body: { purpose: 'reset_password', email: w.users.adminB.email },
    });
    const code = h.messenger.last('otp')!.secret;
    const v = await call(h.app, {
      method: 'POST',
      url: '/v1/otp/verify',
      body: { purpose: 'reset_password', code, email: w.users.adminB.email },
    });
    expect(v.statusCode).toBe(200);
    const r = await call(h.app, {
      method: 'POST',
      url: '/v1/reset-password',
      body: {
        token: v.json().data.token,
        password: 'otp-reset-pass',
        password_confirmation: 'otp-reset-pass',
      },
    });
    expect(r.statusCode).toBe(200);
  });
});

describe('company switch', () => {
  it('switches among own companies only; super admin anywhere', async () => {
    const own = await call(h.app, {
      method: 'POST',
      url: '/v1/switch-company',
      token: w.users.multi.token,
      body: { transport_company_uuid: w.b.uuid },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.transport_company.uuid).toBe(w.b.uuid);
    const foreign = await call(h.app, {
      method: 'POST',
      url: '/v1/switch-company',
      token: w.users.adminA.token,
      body: { transport_company_uuid: w.b.uuid },
    });
    expect(foreign.statusCode).toBe(403);
    const sup = await call(h.app, {
      method: 'POST',
      url: '/v1/switch-company',
      token: w.users.super.token,
      body: { transport_company_uuid: w.b.uuid },
    });
    expect(sup.statusCode).toBe(200);
    const me = await call(h.app, { method: 'GET', url: '/v1/auth', token: w.users.super.token });
    expect(me.json().data.transport_companies).toHaveLength(2);
  });
});
