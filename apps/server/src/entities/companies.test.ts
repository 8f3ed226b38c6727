import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { translateFieldMessage } from '../http/i18n';

/**
 * Platform onboarding (issue 18 finding 10): only a super admin lists and creates transport
 * companies; the first company admin arrives through the set-password invitation and sees only the
 * new company.
 */
let h: Harness;
let w: World;

beforeAll(async () => {
  h = await createHarness('companies');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Gulf School Buses',
  name_ar: 'حافلات الخليج المدرسية',
  country_code: 'ae',
  settings: { timezone: 'Asia/Dubai' },
  features: { emergency_driver_alert_enabled: true },
  admin: { email: 'Owner@GulfBuses.test', name: 'Mona Owner', locale: 'ar' },
  ...over,
});

const count = async (sql: string) => Number((await h.storage.db.query<{ n: number }>(sql))[0]!.n);

describe('companies.create and companies.list', () => {
  it('a super admin onboards a company; its admin sets a password, signs in and sees only it', async () => {
    const r = await call(h.app, {
      method: 'POST',
      url: '/v1/platform/companies',
      token: w.users.super.token,
      body: body(),
    });
    expect(r.statusCode).toBe(201);
    const created = r.json().data;
    expect(created.company).toMatchObject({
      name: 'Gulf School Buses',
      country_code: 'AE',
      settings: { timezone: 'Asia/Dubai' },
      features: { emergency_driver_alert_enabled: true },
      user_count: 1,
      status: 'active',
    });
    expect(created.admin.email).toBe('Owner@GulfBuses.test');

    // The invitation went through the messenger, in the admin's language, with a one-time link.
    const invite = h.messenger.last('set_password')!;
    expect(invite.to).toBe('Owner@GulfBuses.test');
    expect(invite.locale).toBe('ar');
    expect(invite.link).toMatch(/\/set-password\/\S+$/);

    const list = await call(h.app, { method: 'GET', url: '/v1/platform/companies', token: w.users.super.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { name: string }) => c.name).sort()).toEqual(
      ['Alpha', 'Bravo', 'Gulf School Buses'].sort(),
    );

    const noPassword = await call(h.app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: 'owner@gulfbuses.test', password: 'chosen pass 7' },
    });
    expect(noPassword.statusCode).toBe(422);
    const set = await call(h.app, {
      method: 'POST',
      url: `/v1/set-password/${invite.secret}`,
      body: { password: 'chosen pass 7', password_confirmation: 'chosen pass 7' },
    });
    expect(set.statusCode).toBe(200);
    const login = await call(h.app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: 'owner@gulfbuses.test', password: 'chosen pass 7' },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.token as string;
    const me = await call(h.app, { method: 'GET', url: '/v1/auth', token });
    expect(me.statusCode).toBe(200);
    const companies = me.json().data.transport_companies as { uuid: string }[];
    expect(companies.map((c) => c.uuid)).toEqual([created.company.uuid]);

    // A company admin of the new company: manages its own users, never another company's data.
    const users = await call(h.app, {
      method: 'GET',
      url: '/v1/users',
      token,
      company: created.company.uuid,
    });
    expect(users.statusCode).toBe(200);
    expect(users.json().data.map((u: { email: string }) => u.email)).toEqual(['Owner@GulfBuses.test']);
    const other = await call(h.app, { method: 'GET', url: '/v1/users', token, company: w.a.uuid });
    expect(other.statusCode).toBe(403);
    // ... and is no platform operator.
    const theirList = await call(h.app, { method: 'GET', url: '/v1/platform/companies', token });
    expect(theirList.statusCode).toBe(403);
  });

  it('company admins, scoped admins, explicit-permission users and other companies are refused (403)', async () => {
    const before = await count('SELECT count(*)::int AS n FROM transport_companies');
    for (const who of ['adminA', 'adminB', 'stationA1', 'branchA1', 'schoolA1', 'multi', 'noPerms'] as const) {
      for (const company of [undefined, w.a.uuid, w.b.uuid]) {
        const c = await call(h.app, {
          method: 'POST',
          url: '/v1/platform/companies',
          token: w.users[who].token,
          company,
          body: body({ name: `By ${who}`, admin: { email: `${who}-new@x.test`, name: 'X' } }),
        });
        expect(c.statusCode, `${who} create`).toBe(403);
        const l = await call(h.app, {
          method: 'GET',
          url: '/v1/platform/companies',
          token: w.users[who].token,
          company,
        });
        expect(l.statusCode, `${who} list`).toBe(403);
      }
    }
    const ar = await call(h.app, {
      method: 'GET',
      url: '/v1/platform/companies',
      token: w.users.adminA.token,
      headers: { 'x-locale': 'ar' },
    });
    expect(ar.json().message).toBe('لا يعرض شركات النقل أو يضيفها إلا مشرف عام للمنصة.');
    expect(await count('SELECT count(*)::int AS n FROM transport_companies')).toBe(before);
    expect(await count(`SELECT count(*)::int AS n FROM users WHERE email LIKE '%-new@x.test'`)).toBe(0);
    expect(h.messenger.sent).toHaveLength(0);
    const anon = await call(h.app, { method: 'GET', url: '/v1/platform/companies' });
    expect(anon.statusCode).toBe(401);
  });

  it('a taken e-mail or company name is a bilingual field error and nothing is stored', async () => {
    const before = await count('SELECT count(*)::int AS n FROM transport_companies');
    const taken = await call(h.app, {
      method: 'POST',
      url: '/v1/platform/companies',
      token: w.users.super.token,
      body: body({ admin: { email: w.users.adminA.email.toUpperCase(), name: 'Dup' } }),
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors['admin.email']).toEqual(['This Email is already taken']);
    const ar = await call(h.app, {
      method: 'POST',
      url: '/v1/platform/companies',
      token: w.users.super.token,
      headers: { 'x-locale': 'ar' },
      body: body({ name: 'ALPHA', admin: { email: w.users.adminA.email, name: 'Dup' } }),
    });
    expect(ar.statusCode).toBe(422);
    expect(ar.json().errors.name).toEqual([translateFieldMessage('ar', 'This Name is already taken')]);
    expect(ar.json().errors['admin.email']).toEqual([
      translateFieldMessage('ar', 'This Email is already taken'),
    ]);
    expect(ar.json().errors['admin.email'][0]).toMatch(/[\u0600-\u06ff]/);
    const bad = await call(h.app, {
      method: 'POST',
      url: '/v1/platform/companies',
      token: w.users.super.token,
      body: body({ country_code: 'ARE', admin: { email: 'nope', name: '' } }),
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['admin.email', 'admin.name', 'country_code']);
    expect(await count('SELECT count(*)::int AS n FROM transport_companies')).toBe(before);
    expect(h.messenger.sent).toHaveLength(0);
  });

  it('the company, the admin and the invitation are one transaction', async () => {
    // A failing invitation (messenger down before commit) leaves no company and no account behind.
    const send = h.messenger.send.bind(h.messenger);
    h.messenger.send = async () => {
      throw new Error('outbox unavailable');
    };
    try {
      const r = await call(h.app, {
        method: 'POST',
        url: '/v1/platform/companies',
        token: w.users.super.token,
        body: body(),
      });
      expect(r.statusCode).toBe(500);
    } finally {
      h.messenger.send = send;
    }
    expect(await count(`SELECT count(*)::int AS n FROM transport_companies WHERE name = 'Gulf School Buses'`)).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM users WHERE lower(email) = 'owner@gulfbuses.test'`)).toBe(0);
  });
});
