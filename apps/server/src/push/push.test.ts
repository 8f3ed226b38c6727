import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestStorage } from '../../test/db';
import type { Storage } from '../storage/storage';
import { InProcessBus } from '../realtime/bus';
import { createNotifications } from '../modules/notifications';
import { FcmStandIn } from './fcm-stand-in';
import { loadPushConfig, PushConfigError } from './config';
import { FcmSender, parseRetryAfter } from './fcm';
import { backoffMs, PushOutbox, PUSH_PATH } from './outbox';
import { startPush, type PushService } from './plugin';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let storage: Storage;
let fcm: FcmStandIn;
let ids: { company: number; companyUuid: string; user: number; vehicle: number; vehicleUuid: string };

const account = () => ({
  type: 'service_account',
  project_id: 'fleet-test',
  private_key_id: 'key-1',
  private_key: PRIVATE_PEM,
  client_email: 'push@fleet-test.iam.gserviceaccount.com',
  token_uri: `${fcm.url}/token`,
});
const env = (extra: Record<string, string> = {}) => ({
  FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(account()),
  FCM_ENDPOINT: fcm.url,
  ...extra,
});

/** A clock the tests move by hand: no real waiting for back-off. */
const clock = { t: Date.now() };
const now = () => new Date(clock.t);

const services: PushService[] = [];
async function pushWith(e: Record<string, string | undefined>): Promise<{ svc: PushService; log: string[] }> {
  const log: string[] = [];
  const svc = await startPush({
    env: { PUSH_POLL_MS: '20', ...e },
    db: storage.db,
    log: (l) => log.push(l),
    now,
  });
  services.push(svc);
  return { svc, log };
}

async function registerToken(token: string, userId = ids.user): Promise<number> {
  const [r] = await storage.db.query<{ id: number }>(
    `INSERT INTO fcm_tokens (user_id, company_id, token, platform, device_id) VALUES ($1, $2, $3, 'android', 'd1') RETURNING id`,
    [userId, ids.company, token],
  );
  return r!.id;
}

const notify = (title = 'Overspeed') =>
  createNotifications(storage.db, new InProcessBus(), {
    companyId: ids.company,
    companyUuid: ids.companyUuid,
    userIds: [ids.user],
    vehicleId: ids.vehicle,
    type: 'overspeed',
    title,
    message: 'DXB 123 at 132 km/h',
    violationValue: 132,
  });

const outboxRows = () =>
  storage.db.query<{ status: string; attempts: number; last_error: string | null }>(
    'SELECT status, attempts, last_error FROM push_outbox ORDER BY id',
  );

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

beforeAll(async () => {
  storage = await openTestStorage('push');
  fcm = await new FcmStandIn().listen();
});
afterAll(async () => {
  await fcm.close();
  await storage.close();
});
beforeEach(async () => {
  await storage.db.exec(
    'TRUNCATE push_outbox, fcm_tokens, notifications, vehicles, users, transport_companies RESTART IDENTITY CASCADE',
  );
  const [c] = await storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO transport_companies (name) VALUES ('Push Co') RETURNING id, uuid`,
  );
  const [u] = await storage.db.query<{ id: number }>(
    `INSERT INTO users (email, name, password_hash) VALUES ('driver@push.test', 'Dispatcher', 'x') RETURNING id`,
  );
  const [v] = await storage.db.query<{ id: number; uuid: string }>(
    `INSERT INTO vehicles (company_id, license_plate_number) VALUES ($1, 'DXB 123') RETURNING id, uuid`,
    [c!.id],
  );
  ids = { company: c!.id, companyUuid: c!.uuid, user: u!.id, vehicle: v!.id, vehicleUuid: v!.uuid };
  fcm.reset();
  // A little ahead of the database's now(), which stamps queued pushes as due.
  clock.t = Date.now() + 5_000;
});
afterEach(async () => {
  while (services.length) await services.pop()!.stop();
});

describe('push through FCM HTTP v1 (local stand-in over real HTTP)', () => {
  it('delivers one FCM request per notification and token, with the message body and bearer token', async () => {
    await registerToken('device-token-1');
    const { svc, log } = await pushWith(env());
    expect(log.some((l) => l.startsWith('push: on'))).toBe(true);
    const [uuid] = await notify();
    await waitFor(() => fcm.sendRequests.length >= 1);
    await svc.outbox!.drain(); // nothing left: no second request
    await new Promise((r) => setTimeout(r, 80)); // a few more polls
    expect(fcm.sendRequests).toHaveLength(1);
    const req = fcm.sendRequests[0]!;
    expect(req.path).toBe('/v1/projects/fleet-test/messages:send');
    expect(req.headers.authorization).toBe('Bearer access-1');
    expect(JSON.parse(req.body)).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: 'Overspeed', body: 'DXB 123 at 132 km/h' },
        data: { notification_uuid: uuid, type: 'overspeed', vehicle_uuid: ids.vehicleUuid, path: PUSH_PATH },
        android: { priority: 'high', notification: { sound: 'default' } },
        apns: {
          headers: { 'apns-priority': '10', 'apns-push-type': 'alert' },
          payload: { aps: { sound: 'default' } },
        },
      },
    });
    expect(await outboxRows()).toEqual([{ status: 'sent', attempts: 1, last_error: null }]);

    // The access token is cached: a second notification reuses it.
    await notify('Ignition on');
    await waitFor(() => fcm.sendRequests.length >= 2);
    expect(fcm.tokenRequests).toHaveLength(1);
    expect(fcm.sendRequests[1]!.headers.authorization).toBe('Bearer access-1');
  });

  it('signs the OAuth assertion with the service account key (RS256, verifiable with its public key)', async () => {
    const sender = new FcmSender({
      account: loadPushConfig(env()).account!,
      endpoint: fcm.url,
      now: () => clock.t,
    });
    expect(await sender.send('t1', { title: 'a', body: 'b', data: {} })).toMatchObject({ kind: 'sent' });
    const [tokenReq] = fcm.tokenRequests;
    const form = new URLSearchParams(tokenReq!.body);
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [h, p, s] = form.get('assertion')!.split('.');
    const ok = createVerify('RSA-SHA256').update(`${h}.${p}`).verify(publicKey, Buffer.from(s!, 'base64url'));
    expect(ok).toBe(true);
    // A different key does not verify it: the check can fail.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(createVerify('RSA-SHA256').update(`${h}.${p}`).verify(other, Buffer.from(s!, 'base64url'))).toBe(
      false,
    );
    expect(JSON.parse(Buffer.from(h!, 'base64url').toString())).toEqual({
      alg: 'RS256',
      typ: 'JWT',
      kid: 'key-1',
    });
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const iat = Math.floor(clock.t / 1000);
    expect(claims).toEqual({
      iss: 'push@fleet-test.iam.gserviceaccount.com',
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
      aud: `${fcm.url}/token`,
      iat,
      exp: iat + 3600,
    });
    // Cached until five minutes before expiry, then exchanged again.
    await sender.send('t1', { title: 'a', body: 'b', data: {} });
    expect(fcm.tokenRequests).toHaveLength(1);
    clock.t += 56 * 60_000;
    await sender.send('t1', { title: 'a', body: 'b', data: {} });
    expect(fcm.tokenRequests).toHaveLength(2);
    expect(fcm.sendRequests.at(-1)!.headers.authorization).toBe('Bearer access-2');
  });

  it('retries with back-off while FCM is down and delivers exactly once when it is back', async () => {
    await registerToken('device-token-1');
    fcm.failNext = 2;
    fcm.retryAfter = '30';
    const outbox = new PushOutbox({
      db: storage.db,
      sender: new FcmSender({
        account: loadPushConfig(env()).account!,
        endpoint: fcm.url,
        now: () => clock.t,
      }),
      now,
      random: () => 0,
      retryBaseMs: 1000,
      maxAttempts: 5,
    });
    await notify();
    expect(await outbox.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
    let [row] = await outboxRows();
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.last_error).toContain('503');
    // Not due yet: Retry-After (30 s) wins over the 0.5 s back-off.
    clock.t += 29_000;
    expect(await outbox.runOnce()).toMatchObject({ claimed: 0 });
    clock.t += 1_000;
    expect(await outbox.runOnce()).toMatchObject({ claimed: 1, retried: 1 });
    clock.t += 30_000;
    expect(await outbox.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    clock.t += 3_600_000;
    expect(await outbox.runOnce()).toMatchObject({ claimed: 0 });
    expect(fcm.sendRequests).toHaveLength(3);
    [row] = await outboxRows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('a worker that dies mid-send leaves its claimed pushes to be sent again once the lease ends', async () => {
    await registerToken('device-token-1');
    await notify();
    const hung = new PushOutbox({
      db: storage.db,
      sender: { send: () => new Promise(() => undefined) }, // never answers: the process "died" here
      now,
      leaseMs: 60_000,
    });
    void hung.runOnce();
    await waitFor(() => false, 200).catch(() => undefined);
    const survivor = new PushOutbox({
      db: storage.db,
      sender: new FcmSender({
        account: loadPushConfig(env()).account!,
        endpoint: fcm.url,
        now: () => clock.t,
      }),
      now,
    });
    expect(await survivor.runOnce()).toMatchObject({ claimed: 0 }); // leased to the dead worker
    clock.t += 60_000;
    expect(await survivor.runOnce()).toMatchObject({ claimed: 1, sent: 1 });
    expect(await outboxRows()).toEqual([{ status: 'sent', attempts: 2, last_error: null }]);
  });

  it('gives up after the maximum attempts (dead, with the last error kept)', async () => {
    await registerToken('device-token-1');
    fcm.failNext = 10;
    const outbox = new PushOutbox({
      db: storage.db,
      sender: new FcmSender({
        account: loadPushConfig(env()).account!,
        endpoint: fcm.url,
        now: () => clock.t,
      }),
      now,
      random: () => 0.5,
      retryBaseMs: 1000,
      maxAttempts: 3,
    });
    await notify();
    for (let i = 0; i < 5; i++) {
      await outbox.runOnce();
      clock.t += 3_600_000;
    }
    expect(fcm.sendRequests).toHaveLength(3);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: 'dead', attempts: 3 });
    expect(row!.last_error).toContain('gave up after 3 attempts');
  });

  it('deactivates a token FCM reports UNREGISTERED and sends nothing more to it', async () => {
    const gone = await registerToken('gone-token');
    await registerToken('live-token');
    fcm.unregistered.add('gone-token');
    const outbox = new PushOutbox({
      db: storage.db,
      sender: new FcmSender({
        account: loadPushConfig(env()).account!,
        endpoint: fcm.url,
        now: () => clock.t,
      }),
      now,
    });
    await notify();
    expect(await outbox.runOnce()).toMatchObject({ claimed: 2, sent: 1, dead: 1 });
    const [t] = await storage.db.query<{ active: boolean }>('SELECT active FROM fcm_tokens WHERE id = $1', [
      gone,
    ]);
    expect(t!.active).toBe(false);
    await notify('Again');
    await outbox.drain();
    const tokens = fcm.sendRequests.map(
      (r) => (JSON.parse(r.body) as { message: { token: string } }).message.token,
    );
    expect(tokens.sort()).toEqual(['gone-token', 'live-token', 'live-token']);
  });

  it('without credentials sends nothing, logs one line, and notifications are still stored', async () => {
    await registerToken('device-token-1');
    const { svc, log } = await pushWith({ FCM_ENDPOINT: fcm.url });
    expect(svc.outbox).toBeNull();
    expect(log).toEqual([
      'push: off (set FCM_SERVICE_ACCOUNT_FILE or FCM_SERVICE_ACCOUNT_JSON to send mobile push through FCM)',
    ]);
    await notify();
    await new Promise((r) => setTimeout(r, 100));
    expect(fcm.requests).toHaveLength(0);
    const [n] = await storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications');
    expect(n!.n).toBe(1);
  });

  it('queues pushes for notifications the pipeline stores directly (trigger on notifications)', async () => {
    await registerToken('device-token-1');
    await storage.db.query(
      `INSERT INTO notifications (company_id, user_id, type, title, message) VALUES ($1, $2, 'general', 't', 'm')`,
      [ids.company, ids.user],
    );
    expect(await outboxRows()).toEqual([{ status: 'pending', attempts: 0, last_error: null }]);
  });
});

describe('FCM answers, classified', () => {
  const err = (code: number, status: string, message: string, errorCode?: string) => ({
    error: { code, status, message, ...(errorCode ? { details: [{ errorCode }] } : {}) },
  });
  it.each([
    [200, { name: 'projects/p/messages/1' }, {}, { kind: 'sent', name: 'projects/p/messages/1' }],
    [
      429,
      err(429, 'RESOURCE_EXHAUSTED', 'quota', 'QUOTA_EXCEEDED'),
      { 'retry-after': '7' },
      { kind: 'retry', retryAfterMs: 7000 },
    ],
    [500, err(500, 'INTERNAL', 'oops'), {}, { kind: 'retry', retryAfterMs: null }],
    [
      404,
      err(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'),
      {},
      { kind: 'invalid-token' },
    ],
    [
      400,
      err(
        400,
        'INVALID_ARGUMENT',
        'The registration token is not a valid FCM registration token',
        'INVALID_ARGUMENT',
      ),
      {},
      { kind: 'invalid-token' },
    ],
    [
      400,
      err(400, 'INVALID_ARGUMENT', 'Invalid value at message.data', 'INVALID_ARGUMENT'),
      {},
      { kind: 'rejected' },
    ],
    [403, err(403, 'PERMISSION_DENIED', 'SenderId mismatch', 'SENDER_ID_MISMATCH'), {}, { kind: 'rejected' }],
    [502, '<html>bad gateway</html>', {}, { kind: 'retry' }],
  ])('HTTP %i -> outcome', async (status, body, headers, want) => {
    fcm.scripted.push({ status, body, headers });
    const sender = new FcmSender({
      account: loadPushConfig(env()).account!,
      endpoint: fcm.url,
      now: () => clock.t,
    });
    expect(await sender.send('t1', { title: 'a', body: 'b', data: {} })).toMatchObject(want);
  });

  it('a 401 drops the cached access token; the retry fetches a new one', async () => {
    const sender = new FcmSender({
      account: loadPushConfig(env()).account!,
      endpoint: fcm.url,
      now: () => clock.t,
    });
    fcm.scripted.push({
      status: 401,
      body: { error: { code: 401, status: 'UNAUTHENTICATED', message: 'expired' } },
    });
    expect(await sender.send('t1', { title: 'a', body: 'b', data: {} })).toMatchObject({ kind: 'retry' });
    expect(await sender.send('t1', { title: 'a', body: 'b', data: {} })).toMatchObject({ kind: 'sent' });
    expect(fcm.tokenRequests).toHaveLength(2);
    expect(fcm.sendRequests.at(-1)!.headers.authorization).toBe('Bearer access-2');
  });

  it('a network error (nothing listening) is a retry, not a crash', async () => {
    const down = await new FcmStandIn().listen();
    const url = down.url;
    await down.close();
    const sender = new FcmSender({
      account: { ...loadPushConfig(env()).account!, token_uri: `${url}/token` },
      endpoint: url,
      now: () => clock.t,
    });
    const r = await sender.send('t1', { title: 'a', body: 'b', data: {} });
    expect(r).toMatchObject({ kind: 'retry' });
    expect(r.kind === 'retry' && r.error).toContain('OAuth token request failed');
  });

  it('two workers draining at once send each queued push exactly once', async () => {
    for (let i = 0; i < 5; i++) await registerToken(`device-${i}`);
    for (let i = 0; i < 4; i++) await notify(`n${i}`);
    const mk = () =>
      new PushOutbox({
        db: storage.db,
        sender: new FcmSender({
          account: loadPushConfig(env()).account!,
          endpoint: fcm.url,
          now: () => clock.t,
        }),
        now,
        batchSize: 3,
      });
    await Promise.all([mk().drain(), mk().drain()]);
    const sent = fcm.sendRequests.map((r) => r.body);
    expect(sent).toHaveLength(20);
    expect(new Set(sent).size).toBe(20);
    expect((await outboxRows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });
});

describe('push configuration', () => {
  it.each([
    [{ FCM_SERVICE_ACCOUNT_JSON: '{not json' }, 'FCM_SERVICE_ACCOUNT_JSON is not valid JSON'],
    [{ FCM_SERVICE_ACCOUNT_JSON: '{"project_id":"p"}' }, 'client_email'],
    [{ FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/key.json' }, 'FCM_SERVICE_ACCOUNT_FILE cannot be read'],
    [{ FCM_ENDPOINT: 'not a url' }, 'FCM_ENDPOINT'],
    [{ PUSH_MAX_ATTEMPTS: '0' }, 'PUSH_MAX_ATTEMPTS'],
  ])('%j is refused with a clear message', (e, msg) => {
    expect(() => loadPushConfig(e)).toThrow(PushConfigError);
    expect(() => loadPushConfig(e)).toThrow(msg);
  });

  it('reads defaults and the key file', () => {
    const c = loadPushConfig({});
    expect(c).toMatchObject({ account: null, endpoint: 'https://fcm.googleapis.com', maxAttempts: 8 });
    const dir = mkdtempSync(join(tmpdir(), 'push-'));
    const file = join(dir, 'key.json');
    writeFileSync(file, JSON.stringify({ ...account(), token_uri: undefined }));
    const f = loadPushConfig({ FCM_SERVICE_ACCOUNT_FILE: file, FCM_ENDPOINT: 'http://fcm.local/' });
    expect(f.account).toMatchObject({
      project_id: 'fleet-test',
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    expect(f.endpoint).toBe('http://fcm.local');
    rmSync(dir, { recursive: true });
  });
});

describe('back-off and Retry-After', () => {
  it.each([
    [1, 0, null, 500],
    [1, 0.999, null, 1000],
    [3, 0, null, 2000],
    [20, 0, null, 30_000],
    [1, 0, 45_000, 45_000],
  ])('attempt %i, random %f, retry-after %s -> %i ms', (attempt, random, retryAfterMs, want) => {
    expect(backoffMs(attempt, { baseMs: 1000, maxMs: 60_000, random, retryAfterMs })).toBe(want);
  });

  it.each([
    ['120', 0, 120_000],
    ['Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT'), 60_000],
    ['soon', 0, null],
    [null, 0, null],
  ])('Retry-After %s', (v, at, want) => {
    expect(parseRetryAfter(v, at)).toBe(want);
  });
});
