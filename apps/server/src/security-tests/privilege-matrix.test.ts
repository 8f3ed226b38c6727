/**
 * The privilege matrix of the rank model (tenancy/ranks.ts): for every actor rank x target rank x
 * user-management verb (create, update, password, e-mail, status, delete, permission change) the
 * outcome the model promises, tried through the API. A refused call must leave the target's user row
 * and memberships byte-for-byte unchanged; an allowed one must have its effect (so the matrix cannot
 * pass by refusing everything). Then the regressions of issue 18's findings 1 and 2, exactly as they
 * were reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createHarness, PASSWORD, passwordHash, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { hashToken, newToken } from '../auth/crypto';

let h: Harness;
let w: World;

type ActorName =
  'super' | 'companyAdmin' | 'stationAdmin' | 'branchAdmin' | 'explicitCompany' | 'explicitBranch';
type TargetKind =
  | 'super'
  | 'admin'
  | 'station'
  | 'branch'
  | 'school'
  | 'userA1'
  | 'userA2'
  | 'userCo'
  | 'multi'
  | 'multiUser';
type Verb = 'update' | 'password' | 'email' | 'status' | 'delete' | 'permissions';

const VERBS: Verb[] = ['update', 'password', 'email', 'status', 'delete', 'permissions'];
const KINDS: TargetKind[] = [
  'super',
  'admin',
  'station',
  'branch',
  'school',
  'userA1',
  'userA2',
  'userCo',
  'multi',
  'multiUser',
];
const USERS_ALL = ['users.view', 'users.create', 'users.update', 'users.delete'];

/**
 * Expected outcome per actor and target: 'all' verbs allowed, 'local' = only the company-local ones
 * (update, delete, permissions: the target belongs to another company too), 'none' refused.
 * Written out by hand from the rules, not computed by the code under test.
 */
const MANAGE: Record<ActorName, Partial<Record<TargetKind, 'all' | 'local'>>> = {
  super: Object.fromEntries(KINDS.map((k) => [k, 'all'])),
  companyAdmin: {
    admin: 'all',
    station: 'all',
    branch: 'all',
    school: 'all',
    userA1: 'all',
    userA2: 'all',
    userCo: 'all',
    multi: 'local',
    multiUser: 'local',
  },
  // Scoped admins hold no users.* permission: refused by the route's permission.
  stationAdmin: {},
  branchAdmin: {},
  // Rank 1: only other rank-1 users holding nothing it lacks.
  explicitCompany: { userA1: 'all', userA2: 'all', userCo: 'all', multiUser: 'local' },
  // Rank 1 inside branch A1: only rank-1 users of its branch.
  explicitBranch: { userA1: 'all' },
};
/** Kinds each actor may create. */
const CREATE: Record<ActorName, TargetKind[]> = {
  super: ['super', 'admin', 'station', 'branch', 'school', 'userA1', 'userA2', 'userCo'],
  companyAdmin: ['admin', 'station', 'branch', 'school', 'userA1', 'userA2', 'userCo'],
  stationAdmin: [],
  branchAdmin: [],
  explicitCompany: ['userA1', 'userA2', 'userCo'],
  explicitBranch: ['userA1'],
};

const actors = {} as Record<ActorName, { token: string; id: number }>;
let seq = 0;

async function session(userId: number, companyId: number | null) {
  const token = newToken();
  await h.storage.db.query(
    `INSERT INTO sessions (user_id, token_hash, company_id, expires_at) VALUES ($1, $2, $3, now() + interval '30 days')`,
    [userId, hashToken(token), companyId],
  );
  return token;
}

async function insertUser(superAdmin: boolean, memberships: unknown[][]) {
  const n = ++seq;
  const [u] = await h.storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO users (email, name, password_hash, is_super_admin) VALUES ($1, $2, $3, $4) RETURNING id, uuid`,
    [`m${n}@matrix.test`, `M${n}`, await passwordHash(), superAdmin],
  );
  for (const m of memberships)
    await h.storage.db.query(
      `INSERT INTO memberships (user_id, company_id, user_type, sub_company_id, branch_id, school_id, permissions)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [u!.id, ...m],
    );
  return { ...u!, email: `m${n}@matrix.test` };
}

/** Membership rows (company, type, station, branch, school, permissions) of each kind in company A. */
function membershipsOf(kind: TargetKind): unknown[][] {
  const a = w.a;
  const [st1, st2] = a.stations.map((s) => s.id);
  const [br1, br2] = a.branches.map((s) => s.id);
  const view = ['vehicles.view'];
  switch (kind) {
    case 'super':
      return [[a.id, 'super_admin', null, null, null, null]];
    case 'admin':
      return [[a.id, 'admin', null, null, null, null]];
    case 'station':
      return [[a.id, 'sub_company_admin', st1, null, null, null]];
    case 'branch':
      return [[a.id, 'branch_admin', st1, br1, null, null]];
    case 'school':
      return [[a.id, 'school_admin', st1, br1, a.schools[0]!.id, null]];
    case 'userA1':
      return [[a.id, 'branch_admin', st1, br1, null, view]];
    case 'userA2':
      return [[a.id, 'branch_admin', st2, br2, null, view]];
    case 'userCo':
      return [[a.id, 'admin', null, null, null, view]];
    case 'multi':
      return [
        [a.id, 'admin', null, null, null, null],
        [w.b.id, 'admin', null, null, null, null],
      ];
    case 'multiUser':
      return [
        [a.id, 'admin', null, null, null, view],
        [w.b.id, 'admin', null, null, null, null],
      ];
  }
}

/** The PUT body describing a kind as it is (explicit kinds list their permissions). */
function bodyOf(kind: TargetKind, email: string): Record<string, unknown> {
  const a = w.a;
  const explicit = ['userA1', 'userA2', 'userCo', 'multiUser'].includes(kind);
  const type = {
    super: 'super_admin',
    admin: 'admin',
    station: 'sub_company_admin',
    branch: 'branch_admin',
    school: 'school_admin',
    userA1: 'branch_admin',
    userA2: 'branch_admin',
    userCo: 'admin',
    multi: 'admin',
    multiUser: 'admin',
  }[kind];
  return {
    name: 'Renamed',
    email,
    phone: null,
    user_type: type,
    permissions: explicit ? ['vehicles.view'] : [],
    status: 'active',
    station_uuid: kind === 'station' ? a.stations[0]!.uuid : null,
    branch_uuid:
      kind === 'branch' || kind === 'userA1'
        ? a.branches[0]!.uuid
        : kind === 'userA2'
          ? a.branches[1]!.uuid
          : null,
    school_uuid: kind === 'school' ? a.schools[0]!.uuid : null,
  };
}

async function snapshot(id: number) {
  const u = await h.storage.db.query(
    'SELECT email, phone, name, status, password_hash, is_super_admin FROM users WHERE id = $1',
    [id],
  );
  const m = await h.storage.db.query(
    `SELECT company_id, user_type, sub_company_id, branch_id, school_id, permissions FROM memberships
     WHERE user_id = $1 ORDER BY company_id`,
    [id],
  );
  return JSON.stringify({ u, m });
}

beforeAll(async () => {
  h = await createHarness('privilege_matrix');
  w = await buildWorld(h.storage.db);
  const a = w.a;
  const mk = async (superAdmin: boolean, m: unknown[][]) => {
    const u = await insertUser(superAdmin, m);
    return { id: u.id, token: await session(u.id, a.id) };
  };
  actors.super = await mk(true, [[a.id, 'super_admin', null, null, null, null]]);
  actors.companyAdmin = await mk(false, [[a.id, 'admin', null, null, null, null]]);
  actors.stationAdmin = await mk(false, [[a.id, 'sub_company_admin', a.stations[0]!.id, null, null, null]]);
  actors.branchAdmin = await mk(false, [
    [a.id, 'branch_admin', a.stations[0]!.id, a.branches[0]!.id, null, null],
  ]);
  actors.explicitCompany = await mk(false, [
    [a.id, 'admin', null, null, null, [...USERS_ALL, 'vehicles.view', 'vehicles.update']],
  ]);
  actors.explicitBranch = await mk(false, [
    [a.id, 'branch_admin', a.stations[0]!.id, a.branches[0]!.id, null, [...USERS_ALL, 'vehicles.view']],
  ]);
}, 120_000);
afterAll(() => h.close());

async function act(actor: ActorName, kind: TargetKind, verb: Verb, target: { uuid: string; email: string }) {
  const base = { token: actors[actor].token, company: w.a.uuid };
  const url = `/v1/users/${target.uuid}`;
  const body = bodyOf(kind, target.email);
  switch (verb) {
    case 'update':
      return call(h.app, { ...base, method: 'PUT', url, body });
    case 'password':
      return call(h.app, { ...base, method: 'PUT', url, body: { ...body, password: 'Fresh-Pass-4410' } });
    case 'email':
      return call(h.app, { ...base, method: 'PUT', url, body: { ...body, email: `new.${target.email}` } });
    case 'status':
      return call(h.app, { ...base, method: 'PATCH', url: `${url}/status`, body: { status: 'inactive' } });
    case 'delete':
      return call(h.app, { ...base, method: 'DELETE', url });
    case 'permissions':
      return call(h.app, {
        ...base,
        method: 'PUT',
        url,
        body: {
          ...body,
          user_type: kind === 'super' ? 'super_admin' : body.user_type,
          permissions: ['vehicles.view'],
        },
      });
  }
}

async function effectHolds(verb: Verb, id: number, email: string): Promise<boolean> {
  const [u] = await h.storage.db.query<{
    name: string;
    email: string;
    status: string;
    password_hash: string;
  }>('SELECT name, email, status, password_hash FROM users WHERE id = $1', [id]);
  const m = await h.storage.db.query<{ permissions: string[] | null }>(
    'SELECT permissions FROM memberships WHERE user_id = $1 AND company_id = $2',
    [id, w.a.id],
  );
  switch (verb) {
    case 'update':
      return u!.name === 'Renamed';
    case 'password':
      return u!.password_hash !== (await passwordHash());
    case 'email':
      return u!.email === `new.${email}`;
    case 'status':
      return u!.status === 'inactive';
    case 'delete':
      return m.length === 0;
    case 'permissions':
      return m[0]?.permissions?.join() === 'vehicles.view';
  }
}

describe('privilege matrix: actor rank x target rank x verb', () => {
  for (const actor of Object.keys(MANAGE) as ActorName[]) {
    for (const kind of KINDS) {
      it(`${actor} -> ${kind}`, async () => {
        const outcomes: string[] = [];
        for (const verb of VERBS) {
          const target = await insertUser(kind === 'super', membershipsOf(kind));
          const allowed =
            MANAGE[actor][kind] === 'all' ||
            (MANAGE[actor][kind] === 'local' && ['update', 'delete', 'permissions'].includes(verb));
          const before = await snapshot(target.id);
          const r = await act(actor, kind, verb, target);
          if (allowed) {
            if (r.statusCode !== 200) outcomes.push(`${verb}: expected 200, got ${r.statusCode} ${r.body}`);
            else if (!(await effectHolds(verb, target.id, target.email)))
              outcomes.push(`${verb}: 200 without its effect`);
          } else {
            if (![403, 404].includes(r.statusCode))
              outcomes.push(`${verb}: expected 403/404, got ${r.statusCode} ${r.body}`);
            if ((await snapshot(target.id)) !== before) outcomes.push(`${verb}: refused but changed`);
          }
        }
        expect(outcomes).toEqual([]);
      });
    }
  }

  for (const actor of Object.keys(CREATE) as ActorName[]) {
    it(`${actor} creates`, async () => {
      const outcomes: string[] = [];
      for (const kind of KINDS.filter((k) => !k.startsWith('multi'))) {
        const email = `c${++seq}@matrix.test`;
        const r = await call(h.app, {
          method: 'POST',
          url: '/v1/users',
          token: actors[actor].token,
          company: w.a.uuid,
          body: { ...bodyOf(kind, email), password: 'Fresh-Pass-4410' },
        });
        const stored = await h.storage.db.query('SELECT 1 FROM users WHERE email = $1', [email]);
        if (CREATE[actor].includes(kind)) {
          if (r.statusCode !== 201 || stored.length !== 1)
            outcomes.push(`${kind}: expected 201, got ${r.statusCode} ${r.body}`);
        } else {
          if (![403, 422].includes(r.statusCode))
            outcomes.push(`${kind}: expected refusal, got ${r.statusCode}`);
          if (stored.length) outcomes.push(`${kind}: refused but stored`);
        }
      }
      expect(outcomes).toEqual([]);
    });
  }

  it('answers the refusal in the reader language', async () => {
    const target = await insertUser(true, membershipsOf('super'));
    for (const [locale, text] of [
      ['en', 'Only a platform super admin can manage a super admin.'],
      ['ar', 'لا يدير المشرف العام إلا مشرف عام للمنصة.'],
    ] as const) {
      const r = await call(h.app, {
        method: 'PATCH',
        url: `/v1/users/${target.uuid}/status`,
        token: actors.companyAdmin.token,
        company: w.a.uuid,
        body: { status: 'inactive' },
        headers: { 'x-locale': locale },
      });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe(text);
    }
  });
});

describe('issue 18 regressions', () => {
  const login = (email: string, password: string) =>
    call(h.app, { method: 'POST', url: '/v1/login', body: { email, password } });

  it('finding 1: a company admin cannot reset a super admin password and sign in as them', async () => {
    const sa = await insertUser(true, membershipsOf('super'));
    const r = await call(h.app, {
      method: 'PUT',
      url: `/v1/users/${sa.uuid}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { name: 'x', email: sa.email, user_type: 'admin', password: 'Taken-Over-991', permissions: [] },
    });
    expect(r.statusCode).toBe(403);
    expect((await login(sa.email, 'Taken-Over-991')).statusCode).toBe(422);
    expect((await login(sa.email, PASSWORD)).statusCode).toBe(200);
  });

  it('finding 1: a company admin cannot deactivate or delete a super admin', async () => {
    const sa = await insertUser(true, membershipsOf('super'));
    const base = { token: w.users.adminA.token, company: w.a.uuid };
    const s = await call(h.app, {
      ...base,
      method: 'PATCH',
      url: `/v1/users/${sa.uuid}/status`,
      body: { status: 'inactive' },
    });
    expect(s.statusCode).toBe(403);
    const d = await call(h.app, { ...base, method: 'DELETE', url: `/v1/users/${sa.uuid}` });
    expect(d.statusCode).toBe(403);
    const list = await call(h.app, {
      ...base,
      method: 'GET',
      url: `/v1/users?search=${encodeURIComponent(sa.email)}`,
    });
    expect(list.json().data.map((u: { uuid: string }) => u.uuid)).toContain(sa.uuid);
    expect((await login(sa.email, PASSWORD)).statusCode).toBe(200);
  });

  it("finding 1: company A's admin cannot take over a user who also belongs to company B", async () => {
    const r = await call(h.app, {
      method: 'PUT',
      url: `/v1/users/${w.users.multi.uuid}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { name: 'multi', email: w.users.multi.email, user_type: 'admin', password: 'Taken-Over-991' },
    });
    expect(r.statusCode).toBe(403);
    const s = await call(h.app, {
      method: 'PATCH',
      url: `/v1/users/${w.users.multi.uuid}/status`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: { status: 'inactive' },
    });
    expect(s.statusCode).toBe(403);
    expect((await login(w.users.multi.email, PASSWORD)).statusCode).toBe(200);
  });

  it('finding 2: users.view + users.create cannot create a full admin with an empty permission list', async () => {
    const u = await insertUser(false, [[w.a.id, 'admin', null, null, null, ['users.view', 'users.create']]]);
    const token = await session(u.id, w.a.id);
    for (const body of [
      { user_type: 'admin', permissions: [] },
      { user_type: 'sub_company_admin', permissions: [], station_uuid: w.a.stations[0]!.uuid },
      { user_type: 'admin', permissions: ['users.view', 'users.create', 'users.delete'] },
      { user_type: 'super_admin', permissions: ['users.view'] },
    ]) {
      const email = `esc${++seq}@matrix.test`;
      const r = await call(h.app, {
        method: 'POST',
        url: '/v1/users',
        token,
        company: w.a.uuid,
        body: { name: 'Escalated', email, password: 'Fresh-Pass-4410', ...body },
      });
      expect(r.statusCode).toBe(403);
      expect(await h.storage.db.query('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    }
    // What it holds it may pass on.
    const ok = await call(h.app, {
      method: 'POST',
      url: '/v1/users',
      token,
      company: w.a.uuid,
      body: {
        name: 'Helper',
        email: `ok${++seq}@matrix.test`,
        user_type: 'admin',
        permissions: ['users.view'],
        password: 'Fresh-Pass-4410',
      },
    });
    expect(ok.statusCode).toBe(201);
  });
});
