/**
 * Reverse geocoding against a stand-in Nominatim on loopback (a real HTTP server speaking the
 * /reverse API): addresses in the reader's language, cached in the database (the geocoder is asked
 * once per rounded position and language), rate-limited (a batch past the budget gets null, not a
 * flood of requests), failures not cached, and everything off without GEOCODER_URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

interface Asked {
  lat: string;
  lon: string;
  lang: string;
}
const asked: Asked[] = [];
let mode: 'ok' | 'fail' | 'nothing' = 'ok';
let stand: Server;
let standUrl: string;

beforeAll(async () => {
  stand = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/reverse' || url.searchParams.get('format') !== 'jsonv2') {
      res.writeHead(404).end();
      return;
    }
    const q = { lat: url.searchParams.get('lat')!, lon: url.searchParams.get('lon')!, lang: url.searchParams.get('accept-language')! };
    asked.push(q);
    if (mode === 'fail') {
      res.writeHead(503).end('busy');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (mode === 'nothing') {
      res.end(JSON.stringify({ error: 'Unable to geocode' }));
      return;
    }
    const name = q.lang === 'ar' ? `شارع الشيخ زايد، دبي (${q.lat}, ${q.lon})` : `Sheikh Zayed Road, Dubai (${q.lat}, ${q.lon})`;
    res.end(JSON.stringify({ display_name: name, lat: q.lat, lon: q.lon }));
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  standUrl = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));
beforeEach(() => {
  asked.length = 0;
  mode = 'ok';
});

const reverse = (h: Harness, w: World, points: { lat: number; lng: number }[], locale = 'en') =>
  call(h.app, {
    method: 'POST',
    url: '/v1/geocoding/reverse',
    token: w.users.adminA.token,
    headers: { 'x-locale': locale },
    body: { points },
  });

describe('with a geocoder', () => {
  let h: Harness;
  let w: World;
  beforeAll(async () => {
    // A generous rate: these tests are about answers and the cache, not the limit.
    h = await createHarness('geocoding_on', { GEOCODER_URL: standUrl, GEOCODER_RATE_PER_SEC: '1000' });
    w = await buildWorld(h.storage.db);
  }, 60_000);
  afterAll(() => h.close());

  it('answers addresses in the reader language and keeps the coordinates', async () => {
    const en = await reverse(h, w, [{ lat: 25.2048, lng: 55.2708 }]);
    expect(en.statusCode).toBe(200);
    expect(en.json().data).toEqual({
      enabled: true,
      results: [{ lat: 25.2048, lng: 55.2708, address: 'Sheikh Zayed Road, Dubai (25.204800, 55.270800)' }],
    });
    const ar = await reverse(h, w, [{ lat: 25.2048, lng: 55.2708 }], 'ar');
    expect(ar.json().data.results[0].address).toBe('شارع الشيخ زايد، دبي (25.204800, 55.270800)');
    expect(asked.map((a) => a.lang)).toEqual(['en', 'ar']);
  });

  it('asks the geocoder once per position (rounded to ~11 m) and language, then answers from the database', async () => {
    const first = await reverse(h, w, [{ lat: 25.1, lng: 55.2 }, { lat: 25.3, lng: 55.4 }]);
    expect(first.json().data.results.every((r: { address: string | null }) => r.address)).toBe(true);
    expect(asked).toHaveLength(2);
    // The same places again, one a few metres off: no new request.
    const again = await reverse(h, w, [{ lat: 25.10002, lng: 55.19998 }, { lat: 25.3, lng: 55.4 }]);
    expect(again.json().data.results.map((r: { address: string }) => r.address)).toEqual(
      first.json().data.results.map((r: { address: string }) => r.address),
    );
    expect(asked).toHaveLength(2);
    const rows = await h.storage.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM geocode_cache WHERE lang = 'en' AND lat_e4 IN (251000, 253000)",
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('does not cache a failure, and does cache "no address here"', async () => {
    mode = 'fail';
    const failed = await reverse(h, w, [{ lat: 24.5, lng: 54.4 }]);
    expect(failed.statusCode).toBe(200);
    expect(failed.json().data.results[0].address).toBeNull();
    mode = 'ok';
    const later = await reverse(h, w, [{ lat: 24.5, lng: 54.4 }]);
    expect(later.json().data.results[0].address).toMatch(/^Sheikh Zayed Road/);
    expect(asked).toHaveLength(2);

    mode = 'nothing';
    const sea = await reverse(h, w, [{ lat: 25.6, lng: 54.9 }]);
    expect(sea.json().data.results[0].address).toBeNull();
    mode = 'ok';
    await reverse(h, w, [{ lat: 25.6, lng: 54.9 }]);
    expect(asked).toHaveLength(3); // the "nothing" answer was remembered
  });

  it.each([
    ['no points', { points: [] }],
    ['26 points', { points: Array.from({ length: 26 }, (_, i) => ({ lat: 25 + i / 100, lng: 55 })) }],
    ['a latitude past 90', { points: [{ lat: 91, lng: 55 }] }],
    ['a longitude that is text', { points: [{ lat: 25, lng: 'east' }] }],
  ])('refuses %s with 422', async (_name, body) => {
    const r = await call(h.app, { method: 'POST', url: '/v1/geocoding/reverse', token: w.users.adminA.token, body });
    expect(r.statusCode).toBe(422);
    expect(asked).toHaveLength(0);
  });

  it('refuses an anonymous caller', async () => {
    const r = await call(h.app, { method: 'POST', url: '/v1/geocoding/reverse', body: { points: [{ lat: 25, lng: 55 }] } });
    expect(r.statusCode).toBe(401);
    expect(asked).toHaveLength(0);
  });
});

describe('rate limit', () => {
  let h: Harness;
  let w: World;
  beforeAll(async () => {
    // One request a second and no waiting: the second distinct position of a batch has no slot.
    h = await createHarness('geocoding_rate', { GEOCODER_URL: standUrl, GEOCODER_RATE_PER_SEC: '1', GEOCODER_WAIT_MS: '0' });
    w = await buildWorld(h.storage.db);
  }, 60_000);
  afterAll(() => h.close());

  it('sends at most the allowed requests; positions past the budget get null and are not cached', async () => {
    const r = await reverse(h, w, [
      { lat: 25.01, lng: 55.01 },
      { lat: 25.02, lng: 55.02 },
      { lat: 25.03, lng: 55.03 },
    ]);
    const addresses = r.json().data.results.map((x: { address: string | null }) => x.address);
    expect(addresses.filter(Boolean)).toHaveLength(1);
    expect(addresses.filter((a: string | null) => a === null)).toHaveLength(2);
    expect(asked).toHaveLength(1);
    const rows = await h.storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM geocode_cache');
    expect(rows[0]!.n).toBe(1);
  });
});

describe('without a geocoder', () => {
  let h: Harness;
  let w: World;
  beforeAll(async () => {
    h = await createHarness('geocoding_off');
    w = await buildWorld(h.storage.db);
  }, 60_000);
  afterAll(() => h.close());

  it('is off: enabled false, every address null, nothing asked', async () => {
    const r = await reverse(h, w, [{ lat: 25.2, lng: 55.3 }]);
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toEqual({ enabled: false, results: [{ lat: 25.2, lng: 55.3, address: null }] });
    expect(asked).toHaveLength(0);
  });
});
