/**
 * X-Locale over the whole route table: every refusal a client can provoke (401 without a token, 403
 * for a foreign company, 404 for an unknown uuid, 422 for a bad body or query) is answered in Arabic
 * when X-Locale is ar — its message and every field message carry Arabic text — and in English,
 * without Arabic, otherwise. Routes come from Fastify's router, so a new route is swept too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '@fleet/api-client';
import { buildWorld, type World } from '../../test/fixtures';
import { contractName, createFullServer, registeredRoutes, type RegisteredRoute } from './route-table';

let s: Awaited<ReturnType<typeof createFullServer>>;
let w: World;
let routes: RegisteredRoute[] = [];
beforeAll(async () => {
  s = await createFullServer('security_locale');
  w = await buildWorld(s.storage.db);
  routes = registeredRoutes(s.app);
}, 120_000);
afterAll(() => s.close());

const ARABIC = /[\u0600-\u06FF]/;

interface Probe {
  what: string;
  headers: Record<string, string>;
  url: string;
  body?: unknown;
}

function probes(r: RegisteredRoute): Probe[] {
  const name = contractName(r);
  if (!name) return [];
  const ep = endpoints[name] as { auth: string; body?: unknown; query?: unknown; bodyType?: string };
  const url = r.path
    .replace(':uuid', randomUUID())
    .replace(':country_code', 'AE')
    .replace(':kind', 'images')
    .replace(':name', 'missing.png')
    .replace(':token', 'x'.repeat(43));
  const auth = { authorization: `Bearer ${w.users.adminA.token}`, 'x-transport-uuid': w.a.uuid };
  const out: Probe[] = [];
  if (ep.auth !== 'none') out.push({ what: 'no token', headers: {}, url });
  if (ep.auth === 'company')
    out.push({ what: 'foreign company', headers: { ...auth, 'x-transport-uuid': w.b.uuid }, url });
  if (r.path.includes(':uuid') || r.path.includes(':name') || r.path.includes(':token'))
    out.push({ what: 'unknown record', headers: auth, url, body: r.method === 'GET' ? undefined : {} });
  if (ep.body && ep.bodyType !== 'multipart')
    out.push({ what: 'invalid body', headers: auth, url, body: { status: 12, name: ['x'], email: 'x' } });
  if (r.method === 'GET' && ep.query)
    out.push({ what: 'invalid query', headers: auth, url: `${url}?page=-1&sort=zz` });
  return out;
}

describe('every refusal speaks the language asked for', () => {
  it.each(['ar', 'en'] as const)('%s', async (locale) => {
    const failures: string[] = [];
    let refusals = 0;
    for (const r of routes) {
      for (const p of probes(r)) {
        const res = await s.app.inject({
          method: r.method as 'GET',
          url: p.url,
          headers: {
            ...p.headers,
            'x-locale': locale,
            ...(p.body ? { 'content-type': 'application/json' } : {}),
          },
          ...(p.body ? { payload: JSON.stringify(p.body) } : {}),
        });
        if (res.statusCode < 400) continue;
        refusals++;
        const json = res.json() as { message?: string; errors?: Record<string, string[]> };
        const texts = [json.message ?? '', ...Object.values(json.errors ?? {}).flat()];
        for (const t of texts) {
          const ok = locale === 'ar' ? ARABIC.test(t) : !ARABIC.test(t) && t !== '';
          if (!ok) failures.push(`${r.method} ${r.path} (${p.what}) ${res.statusCode}: ${t}`);
        }
      }
    }
    expect([...new Set(failures)]).toEqual([]);
    expect(refusals).toBeGreaterThan(300);
  });
});
