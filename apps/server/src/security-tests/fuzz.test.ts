/**
 * Fuzz-style sweep of the whole HTTP surface: every route Fastify has registered (read from its router,
 * reports included) gets hostile query strings, path parameters and bodies — malformed values, wrong
 * types, huge and negative numbers, invalid uuids, unknown sort fields, page=-1, limit=100000, arrays
 * where strings are expected, zero dates, over-long text. Bodies start from a VALID body (a create body
 * that succeeds, the record's own view for an update) with one field replaced at a time, so the bad value
 * reaches the handler and the database instead of stopping at the first missing field.
 *
 * Every answer must be a clear refusal or a success, never a 5xx; every 4xx carries a string `message`;
 * every 422 carries `errors: {field: [messages]}`. The value lists are fixed (no randomness), so the run
 * is the same every time.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { endpoints, type EndpointName } from '@fleet/api-client';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { createFullServer, contractName, registeredRoutes, type RegisteredRoute } from './route-table';
import { CREATE, OTHER_BODIES, type Body } from './fixtures';

let s: Awaited<ReturnType<typeof createFullServer>>;
let w: World;
/** endpoint group ('vehicles', 'scheduledTrips', ...) -> a record of company A made through the API. */
const made: Record<string, string> = {};

const QUERY_VALUES: string[] = [
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  '100000',
  '2147483648',
  '1.5',
  'abc',
  '',
  '%00',
  '\u0000',
  "'%3B--",
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '0001-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '9999-12-31T23:59:59Z',
  'x'.repeat(2000),
  'id;drop',
  'password_hash',
];

const BODY_VALUES: unknown[] = [
  null,
  -1,
  0,
  1.5,
  1e308,
  2147483648,
  1e23,
  true,
  [],
  ['a', 'b'],
  {},
  { $gt: '' },
  '',
  'x'.repeat(5000),
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '0001-01-01',
  '2026-02-30',
  '25:99',
  '\u0000',
];

/** Keys of an object schema, through pipes, defaults, optionals and unions. */
function shapeKeys(schema: unknown, seen = new Set<unknown>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  const s = schema as { shape?: Record<string, unknown>; _zod?: { def?: Record<string, unknown> } };
  if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
  const def = s._zod?.def ?? {};
  const keys = new Set<string>();
  for (const k of ['in', 'innerType', 'schema', 'left', 'right'])
    for (const x of shapeKeys(def[k], seen)) keys.add(x);
  if (Array.isArray(def.options))
    for (const o of def.options) for (const x of shapeKeys(o, seen)) keys.add(x);
  return [...keys];
}

interface Problem {
  what: string;
  status: number;
  body: string;
  problem?: string;
}

/** What is wrong with an answer, or null. */
function problemOf(res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return '5xx';
  if (res.statusCode < 400) return null;
  let json: { message?: unknown; errors?: unknown };
  try {
    json = res.json();
  } catch {
    return 'error answer is not JSON';
  }
  if (typeof json.message !== 'string' || json.message === '') return 'error answer without message';
  if (res.statusCode === 422) {
    const e = json.errors as Record<string, unknown> | undefined;
    if (!e || typeof e !== 'object') return '422 without errors';
    for (const v of Object.values(e))
      if (!Array.isArray(v) || v.some((m) => typeof m !== 'string'))
        return '422 errors not {field: [string]}';
  }
  return null;
}

const routes: { route: RegisteredRoute; name: EndpointName }[] = [];

beforeAll(async () => {
  s = await createFullServer('security_fuzz');
  w = await buildWorld(s.storage.db);
  for (const r of registeredRoutes(s.app)) {
    const name = contractName(r);
    if (name) routes.push({ route: r, name });
  }
  const deps: Record<string, string> = { school: w.a.schools[0]!.uuid };
  let n = 0;
  for (const group of ['drivers', 'devices', 'vehicles', ...Object.keys(CREATE)]) {
    if (made[group]) continue;
    const r = await call(s.app, {
      method: 'POST',
      url: endpoints[`${group}.create` as EndpointName].path,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body: CREATE[group]!(++n, deps),
    });
    if (r.statusCode !== 201) throw new Error(`${group} create ${r.statusCode} ${r.body}`);
    made[group] = r.json().data.uuid as string;
    deps[group] = made[group];
  }
}, 120_000);
afterAll(() => s.close());

function send(method: string, url: string, body?: unknown, token = w.users.adminA.token) {
  return s.app.inject({
    method: method as 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      'x-transport-uuid': w.a.uuid,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

function urlOf(name: EndpointName, uuid?: string): string {
  const group = name.split('.')[0]!;
  return endpoints[name].path
    .replace(':uuid', uuid ?? made[group] ?? randomUUID())
    .replace(':country_code', 'AE')
    .replace(':kind', 'images')
    .replace(':name', 'missing.png')
    .replace(':token', 'x'.repeat(43));
}

function report(problems: Problem[]): string {
  return problems
    .slice(0, 8)
    .map((p) => `${p.what} -> ${p.status} ${p.problem ?? ''} ${p.body.slice(0, 160)}`)
    .join('\n');
}

describe('fuzz: hostile query strings on every GET route', () => {
  const names = () => routes.filter((r) => r.route.method === 'GET').map((r) => r.name);
  it('finds the GET routes', () => expect(names().length).toBeGreaterThan(40));

  it.each(
    Object.keys(endpoints).filter((n) => endpoints[n as EndpointName].method === 'GET') as EndpointName[],
  )(
    '%s',
    async (name) => {
      if (!routes.some((r) => r.name === name)) return; // not registered (route-matrix.test.ts reports it)
      const ep = endpoints[name] as { query?: unknown };
      const keys = new Set([
        ...shapeKeys(ep.query),
        'page',
        'limit',
        'sort',
        'order',
        'search',
        'status',
        'from',
        'to',
        'vehicle_uuid',
      ]);
      const base = urlOf(name);
      const problems: Problem[] = [];
      const check = async (url: string) => {
        const res = await send('GET', url);
        const p = problemOf(res);
        if (p) problems.push({ what: url.slice(0, 140), status: res.statusCode, body: res.body, problem: p });
      };
      for (const key of keys) {
        for (const v of QUERY_VALUES) await check(`${base}?${key}=${encodeURIComponent(v)}`);
        await check(`${base}?${key}=a&${key}=b`);
        await check(`${base}?${key}[]=a`);
        await check(`${base}?${key}[x]=a`);
      }
      await check(`${base}?page=-1&limit=100000&sort=nope&order=sideways`);
      if (endpoints[name].path.includes(':uuid')) {
        for (const bad of ['not-a-uuid', '%00', 'x'.repeat(190), randomUUID().toUpperCase(), '1']) {
          await check(urlOf(name, bad));
        }
      }
      expect(problems, report(problems)).toEqual([]);
    },
    120_000,
  );
});

describe('fuzz: hostile bodies on every write route', () => {
  const writes = (Object.keys(endpoints) as EndpointName[]).filter(
    (n) =>
      endpoints[n].method !== 'GET' &&
      (endpoints[n] as { body?: unknown }).body !== undefined &&
      (endpoints[n] as { bodyType?: string }).bodyType !== 'multipart',
  );

  /**
   * Platform endpoints (super admins only): a company admin stops at the 403, so they are fuzzed as
   * the super admin, from a valid onboarding body whose unique fields (company name, admin e-mail)
   * change on every call so each hostile value reaches the handler and the database.
   */
  const PLATFORM_BODIES: Partial<Record<EndpointName, () => Body>> = {
    'companies.create': () => ({
      name: 'Fuzz Transport',
      country_code: 'AE',
      settings: { timezone: 'Asia/Dubai' },
      features: { emergency_driver_alert_enabled: true },
      admin: { email: 'fuzz-admin@fuzz.test', name: 'Fuzz Admin', locale: 'en' },
    }),
  };
  let platformCalls = 0;
  function uniquePlatform(body: unknown): unknown {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
    const b = { ...(body as Body) };
    const n = ++platformCalls;
    if (b.name === 'Fuzz Transport') b.name = `Fuzz Transport ${n}`;
    const admin = b.admin as Body | undefined;
    if (admin && typeof admin === 'object' && admin.email === 'fuzz-admin@fuzz.test')
      b.admin = { ...admin, email: `fuzz-admin-${n}@fuzz.test` };
    return b;
  }

  async function baseBody(name: EndpointName): Promise<Body> {
    const platform = PLATFORM_BODIES[name];
    if (platform) return platform();
    const ep = endpoints[name] as { body?: { safeParse(v: unknown): { success: boolean } } };
    const [group, action] = name.split('.') as [string, string];
    if (action === 'create' && CREATE[group]) {
      const deps: Record<string, string> = { school: w.a.schools[0]!.uuid, ...made };
      return CREATE[group]!(Math.floor(Math.random() * 1e4) + 1000, deps);
    }
    if (action === 'update' && made[group]) {
      const r = await send('GET', urlOf(`${group}.show` as EndpointName));
      return (r.json() as { data: Body }).data;
    }
    return OTHER_BODIES.find((b) => ep.body!.safeParse(b).success) ?? {};
  }

  it.each(writes)(
    '%s',
    async (name) => {
      if (!routes.some((r) => r.name === name)) return;
      const ep = endpoints[name];
      const base = await baseBody(name);
      const keys = new Set([...shapeKeys((ep as { body?: unknown }).body), ...Object.keys(base)]);
      const problems: Problem[] = [];
      const platform = Boolean(PLATFORM_BODIES[name]);
      const check = async (what: string, body: unknown, url = urlOf(name)) => {
        const res = platform
          ? await send(ep.method, url, uniquePlatform(body), w.users.super.token)
          : await send(ep.method, url, body);
        const p = problemOf(res);
        if (p) problems.push({ what, status: res.statusCode, body: res.body, problem: p });
      };
      for (const key of keys) {
        for (const v of BODY_VALUES) {
          // Unique fields must not collide with the record made above by chance: vary text per call.
          await check(`${key}=${JSON.stringify(v)?.slice(0, 40)}`, { ...base, [key]: v });
        }
        // Nested objects: every leaf replaced with a wrong type.
        const cur = base[key];
        if (cur && typeof cur === 'object' && !Array.isArray(cur)) {
          for (const leaf of Object.keys(cur)) {
            for (const v of [null, 'x', -1e308, [], { a: 1 }])
              await check(`${key}.${leaf}=${JSON.stringify(v)}`, { ...base, [key]: { ...cur, [leaf]: v } });
          }
        }
        if (Array.isArray(cur)) {
          await check(`${key}=[garbage]`, { ...base, [key]: [null, 1, 'x', {}, []] });
          await check(`${key}=[10k]`, { ...base, [key]: Array.from({ length: 10_000 }, () => randomUUID()) });
        }
      }
      for (const whole of [[], 'text', 1, null, { ...base, unknown_field: 'x', __proto__: { admin: true } }])
        await check(`whole=${JSON.stringify(whole)?.slice(0, 40)}`, whole);
      expect(problems, report(problems)).toEqual([]);
      if (platform) {
        // Positive control: the valid variants really reached the database as the super admin.
        const [made] = await s.storage.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM transport_companies WHERE name LIKE 'Fuzz Transport %'`,
        );
        expect(made!.n).toBeGreaterThan(0);
      }
    },
    180_000,
  );
});

describe('fuzz: hostile headers', () => {
  it('malformed Authorization, X-Transport-Uuid, X-User-Uuid, X-Locale and Timezone never give a 5xx', async () => {
    const token = w.users.adminA.token;
    const variants: Record<string, string>[] = [
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: `Bearer ${token} ${token}` },
      { authorization: `bearer ${'x'.repeat(8000)}` },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': 'not-a-uuid' },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': '' },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': `${w.a.uuid},${w.b.uuid}` },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': randomUUID() },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': w.a.uuid, 'x-user-uuid': 'garbage' },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': w.a.uuid, 'x-locale': 'ar;q=0.1, xx' },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': w.a.uuid, 'x-locale': 'x'.repeat(5000) },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': w.a.uuid, timezone: '../../etc/localtime' },
      { authorization: `Bearer ${token}`, 'x-transport-uuid': w.a.uuid, timezone: 'Etc/GMT+99' },
    ];
    const problems: string[] = [];
    for (const { name } of routes.filter((r) => r.route.method === 'GET')) {
      for (const headers of variants) {
        const res = await s.app.inject({ method: 'GET', url: urlOf(name), headers });
        const p = problemOf(res);
        if (p) problems.push(`${name} ${JSON.stringify(headers).slice(0, 80)} -> ${res.statusCode} ${p}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
