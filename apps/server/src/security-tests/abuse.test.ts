/**
 * Sign-in abuse regressions of issue 18 (findings 6, 7, 8): growing delays per (account, address) and
 * per address, never an account-wide lock; otp/send answers alike for existing and unknown accounts;
 * forgot-password is throttled by its own use and reset / OTP messages are capped per recipient per hour.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, PASSWORD, type Harness } from '../../test/harness';
import { createServer } from '../server';
import { registerReportRoutes } from '../reports/routes';
import { buildWorld, type World } from '../../test/fixtures';
import { MESSAGES_PER_RECIPIENT_HOUR } from '../auth/throttle';

let h: Harness;
let w: World;

beforeAll(async () => {
  h = await createHarness('abuse');
}, 60_000);
beforeEach(async () => {
  await h.reset();
  h.clock.now = new Date('2026-11-20T10:00:00Z');
  w = await buildWorld(h.storage.db);
});
afterAll(() => h.close());

const login = (email: string, password: string, ip: string) =>
  h.app.inject({ method: 'POST', url: '/v1/login', payload: { email, password }, remoteAddress: ip });
const post = (url: string, body: unknown, ip = '10.5.5.5') =>
  h.app.inject({ method: 'POST', url, payload: body as object, remoteAddress: ip });

describe('finding 6: no lock a stranger can trigger everywhere', () => {
  it('delays grow per (account, address); the owner elsewhere is never locked out', async () => {
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await login(w.users.adminA.email, 'wrong-guess-x', '10.6.6.6');
      if (r.statusCode === 429) {
        waits.push(Number(r.headers['retry-after']));
        // Wait it out, then guess again: each further failure doubles the delay.
        h.clock.now = new Date(h.clock.now.getTime() + Number(r.headers['retry-after']) * 1000);
        expect((await login(w.users.adminA.email, 'wrong-guess-y', '10.6.6.6')).statusCode).toBe(422);
      }
    }
    expect(waits.length).toBeGreaterThan(1);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]!);
    expect((await login(w.users.adminA.email, PASSWORD, '10.7.7.7')).statusCode).toBe(200);
  });
});

describe('finding 7: otp/send is no account oracle', () => {
  it('answers a repeated request the same for an existing and an unknown account', async () => {
    const codes = async (email: string) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++)
        out.push((await post('/v1/otp/send', { purpose: 'reset_password', email })).statusCode);
      return out;
    };
    const known = await codes(w.users.adminA.email);
    const unknown = await codes('nobody-here@fleet.test');
    expect(known).toEqual(unknown);
    expect(known).toEqual([200, 200, 200]);
  });
});

describe('finding 8: forgot-password throttled and capped', () => {
  it('sends at most the hourly cap of reset messages to one person, answering alike', async () => {
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const r = await post('/v1/forgot-password', { email: w.users.adminA.email }, `10.8.0.${i}`);
      expect(r.statusCode).toBe(200);
      answers.add(r.body);
    }
    expect(answers.size).toBe(1);
    const sent = h.messenger.sent.filter((m) => m.to === w.users.adminA.email && m.kind === 'reset_password');
    expect(sent.length).toBe(MESSAGES_PER_RECIPIENT_HOUR);
    const [tokens] = await h.storage.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = $1 AND kind = 'reset_password'`,
      [w.users.adminA.id],
    );
    expect(tokens!.n).toBe(MESSAGES_PER_RECIPIENT_HOUR);
    // An hour later the person can ask again.
    h.clock.now = new Date(h.clock.now.getTime() + 61 * 60_000);
    await post('/v1/forgot-password', { email: w.users.adminA.email });
    expect(h.messenger.sent.filter((m) => m.kind === 'reset_password').length).toBe(
      MESSAGES_PER_RECIPIENT_HOUR + 1,
    );
  });

  it('throttles one address by its own forgot-password use', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 35; i++)
      codes.push((await post('/v1/forgot-password', { email: `x${i}@fleet.test` }, '10.9.0.1')).statusCode);
    expect(codes.at(-1)).toBe(429);
    expect((await post('/v1/forgot-password', { email: 'y@fleet.test' }, '10.9.0.2')).statusCode).toBe(200);
  });

  it('caps OTP codes per recipient per hour too', async () => {
    for (let i = 0; i < 10; i++) {
      h.clock.now = new Date(h.clock.now.getTime() + 2 * 60_000); // past the resend delay each time
      await post('/v1/otp/send', { purpose: 'reset_password', email: w.users.adminB.email }, `10.10.0.${i}`);
    }
    expect(h.messenger.sent.filter((m) => m.to === w.users.adminB.email).length).toBe(
      MESSAGES_PER_RECIPIENT_HOUR,
    );
  });
});

describe('finding 9: what tenants learn about each other and about hidden geofences', () => {
  const as = (
    actor: { token: string },
    company: string,
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
  ) =>
    h.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${actor.token}`, 'x-transport-uuid': company, 'x-locale': 'en' },
      ...(body ? { payload: body as object } : {}),
    });

  it("does not confirm another tenant's IMEI; the own company's stays 'already taken'", async () => {
    await h.storage.db.query(
      `INSERT INTO devices (company_id, imei, type) VALUES ($1, '356307042441013', 'teltonika')`,
      [w.b.id],
    );
    const other = await as(w.users.adminA, w.a.uuid, 'POST', '/v1/devices', {
      imei: '356307042441013',
      type: 'teltonika',
    });
    expect(other.statusCode).toBe(422);
    expect(other.body).not.toContain('already taken');
    expect(other.json().errors.imei[0]).toMatch(/cannot be registered/);
    const own = await as(w.users.adminB, w.b.uuid, 'POST', '/v1/devices', {
      imei: '356307042441013',
      type: 'teltonika',
    });
    expect(own.json().errors.imei).toEqual(['This IMEI is already taken']);
  });

  it('names no geofence a station admin cannot see, in the events list nor in the visits report', async () => {
    const db = h.storage.db;
    const [v] = await db.query<{ id: number }>(
      `INSERT INTO vehicles (company_id, sub_company_id, license_plate_number) VALUES ($1, $2, 'S 1') RETURNING id`,
      [w.a.id, w.a.stations[0]!.id],
    );
    const geofence = async (name: string, station: number | null) =>
      (
        await db.query<{ id: number; uuid: string }>(
          `INSERT INTO geofences (company_id, sub_company_id, name, shape, geometry, min_lat, min_lng, max_lat, max_lng)
           VALUES ($1, $2, $3, 'circle', '{"shape":"circle","center":{"latitude":25.2,"longitude":55.3},"radius":300}',
                   25.19, 55.29, 25.21, 55.31) RETURNING id, uuid`,
          [w.a.id, station, name],
        )
      )[0]!;
    const hidden = await geofence('Secret HQ', null);
    const own = await geofence('Station yard', w.a.stations[0]!.id);
    for (const g of [hidden, own])
      await db.query(
        `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
         VALUES ($1, $2, $3, 'entry', '2026-11-20T08:00:00Z', $4)`,
        [
          w.a.id,
          v!.id,
          g.id,
          JSON.stringify({
            geofence_uuid: g.uuid,
            geofence_name: g === hidden ? 'Secret HQ' : 'Station yard',
            latitude: 25.2,
            longitude: 55.3,
            speed: 20,
            dwell_seconds: null,
          }),
        ],
      );
    const st = w.users.stationA1;
    expect((await as(st, w.a.uuid, 'GET', `/v1/geofences/${hidden.uuid}`)).statusCode).toBe(404);
    const events = await as(st, w.a.uuid, 'GET', '/v1/geofences/events');
    expect(events.statusCode, events.body).toBe(200);
    expect(events.body).toContain('Station yard');
    expect(events.body).not.toContain('Secret HQ');
    // Searching for the hidden name finds nothing either (the search reads the geofence's name).
    const probe = await as(st, w.a.uuid, 'GET', '/v1/geofences/events?search=Secret');
    expect(probe.statusCode, probe.body).toBe(200);
    expect((probe.json() as { total: number }).total).toBe(0);
    // The geofence-visits report (its routes come with the pipeline: a server of this storage with them).
    const reports = await createServer({
      config: h.config,
      storage: h.storage,
      bus: h.bus,
      messenger: h.messenger,
      now: () => h.clock.now,
      logger: false,
    });
    registerReportRoutes(reports, { rollupTimeZone: 'Asia/Dubai' });
    await reports.ready();
    const report = (actor: { token: string }, url: string) =>
      reports.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${actor.token}`, 'x-transport-uuid': w.a.uuid, 'x-locale': 'en' },
      });
    // The station admin: the open visit of the station's own geofence only.
    const range = 'from=2026-11-19T00:00:00Z&to=2026-11-21T00:00:00Z';
    const visits = await report(st, `/v1/reports/geofence-visits?${range}`);
    expect(visits.statusCode, visits.body).toBe(200);
    const seen = visits.json() as { total: number; data: { geofence_name: string; geofence_uuid: string }[] };
    expect(seen.data.map((x) => [x.geofence_name, x.geofence_uuid])).toEqual([['Station yard', own.uuid]]);
    expect(seen.total).toBe(1);
    expect(visits.body).not.toContain('Secret HQ');
    expect(visits.body).not.toContain(hidden.uuid);
    // The company admin sees both, in the list and in the report.
    const all = await as(w.users.adminA, w.a.uuid, 'GET', '/v1/geofences/events');
    expect(all.body).toContain('Secret HQ');
    const allVisits = await report(w.users.adminA, `/v1/reports/geofence-visits?${range}`);
    expect(allVisits.statusCode, allVisits.body).toBe(200);
    expect(
      (allVisits.json() as { data: { geofence_name: string }[] }).data.map((x) => x.geofence_name).sort(),
    ).toEqual(['Secret HQ', 'Station yard']);
    await reports.close();
  });
});

describe('finding 9: password policy', () => {
  it('refuses the most common passwords, in en and ar, wherever a password is chosen', async () => {
    for (const [locale, text] of [
      ['en', 'This password is too common. Choose a less predictable one'],
      ['ar', 'كلمة المرور هذه شائعة جدًا. اختر كلمة يصعب تخمينها'],
    ] as const) {
      for (const password of ['12345678', 'password123', 'Qwertyuiop', 'aaaaaaaa', 'abcdefgh']) {
        const r = await h.app.inject({
          method: 'POST',
          url: '/v1/users',
          headers: {
            authorization: `Bearer ${w.users.adminA.token}`,
            'x-transport-uuid': w.a.uuid,
            'x-locale': locale,
          },
          payload: { name: 'Weak', email: `weak-${password}@fleet.test`, user_type: 'admin', password },
        });
        expect(r.statusCode, password).toBe(422);
        expect(r.json().errors.password).toEqual([text]);
      }
    }
    const ok = await h.app.inject({
      method: 'POST',
      url: '/v1/users',
      headers: { authorization: `Bearer ${w.users.adminA.token}`, 'x-transport-uuid': w.a.uuid },
      payload: {
        name: 'Strong',
        email: 'strong@fleet.test',
        user_type: 'admin',
        password: 'Amber-Falcon-82',
      },
    });
    expect(ok.statusCode).toBe(201);
  });
});

describe('finding 4: the media token', () => {
  it('reads files only, opens nothing else, and dies with its session on logout', async () => {
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: w.users.adminA.email, password: PASSWORD },
    });
    const { token, media_app_token: media } = signIn.json().data as {
      token: string;
      media_app_token: string;
    };
    const bearer = (t: string) => ({ authorization: `Bearer ${t}`, 'x-transport-uuid': w.a.uuid });
    // Not a session for the API: no profile, no writes, no password step-up.
    expect((await h.app.inject({ method: 'GET', url: '/v1/auth', headers: bearer(media) })).statusCode).toBe(
      401,
    );
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: '/v1/verify-password',
          headers: bearer(media),
          payload: { password: PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: '/v1/vehicles',
          headers: bearer(media),
          payload: { license_plate_number: 'X 1' },
        })
      ).statusCode,
    ).toBe(401);
    // The file route takes it (an unknown file is 404, not 401).
    const file = (t: string) =>
      h.app.inject({ method: 'GET', url: `/v1/file/avatars/nothing.png?token=${t}` });
    expect((await file(media)).statusCode).toBe(404);
    // Short-lived: gone after its lifetime even while the session lives.
    h.clock.now = new Date(h.clock.now.getTime() + 13 * 3600_000);
    expect((await file(media)).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/v1/auth', headers: bearer(token) })).statusCode).toBe(
      200,
    );
    // A fresh pair; logout revokes both.
    const again = await h.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: w.users.adminA.email, password: PASSWORD },
    });
    const pair = again.json().data as { token: string; media_app_token: string };
    expect((await file(pair.media_app_token)).statusCode).toBe(404);
    expect(
      (await h.app.inject({ method: 'DELETE', url: '/v1/logout', headers: bearer(pair.token) })).statusCode,
    ).toBe(200);
    expect((await file(pair.media_app_token)).statusCode).toBe(401);
  });
});
