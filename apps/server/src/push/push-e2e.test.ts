import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { createNotifications } from '../modules/notifications';
import { FcmStandIn } from './fcm-stand-in';
import { startPush, type PushService } from './plugin';

const PRIVATE_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

let h: Harness;
let w: World;
let fcm: FcmStandIn;
let push: PushService;

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

beforeAll(async () => {
  h = await createHarness('push_e2e');
  w = await buildWorld(h.storage.db);
  fcm = await new FcmStandIn().listen();
  push = await startPush({
    env: {
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({
        project_id: 'fleet-e2e',
        private_key: PRIVATE_PEM,
        client_email: 'push@fleet-e2e.iam.gserviceaccount.com',
        token_uri: `${fcm.url}/token`,
      }),
      FCM_ENDPOINT: fcm.url,
      // A long poll: delivery within the test must come from the realtime wake-up.
      PUSH_POLL_MS: '600000',
    },
    db: h.storage.db,
    bus: h.bus,
    log: () => undefined,
  });
});
afterAll(async () => {
  await push.stop();
  await fcm.close();
  await h.close();
});

describe('push end to end: token from the API, notification, FCM stand-in', () => {
  it('pushes to the token registered with /v1/fcm-tokens/register, and stops after /deactivate', async () => {
    const reg = await call(h.app, {
      method: 'POST',
      url: '/v1/fcm-tokens/register',
      token: w.users.adminA.token,
      body: { token: 'phone-of-admin-a', platform: 'android', device_id: 'pixel-1' },
    });
    expect(reg.statusCode, reg.body).toBe(200);

    const notifyAdminA = (title: string) =>
      createNotifications(h.storage.db, h.bus, {
        companyId: w.a.id,
        companyUuid: w.a.uuid,
        userIds: [w.users.adminA.id, w.users.branchA1.id],
        type: 'general',
        title,
        message: 'Emergency button pressed',
      });

    const [uuid] = await notifyAdminA('SOS');
    await waitFor(() => fcm.sendRequests.length >= 1);
    // branchA1 has no token: one request only.
    await new Promise((r) => setTimeout(r, 50));
    expect(fcm.sendRequests).toHaveLength(1);
    const body = JSON.parse(fcm.sendRequests[0]!.body) as {
      message: { token: string; notification: unknown; data: Record<string, string> };
    };
    expect(body.message.token).toBe('phone-of-admin-a');
    expect(body.message.notification).toEqual({ title: 'SOS', body: 'Emergency button pressed' });
    expect(body.message.data).toMatchObject({ notification_uuid: uuid, type: 'general', vehicle_uuid: '' });

    const off = await call(h.app, {
      method: 'POST',
      url: '/v1/fcm-tokens/deactivate',
      token: w.users.adminA.token,
      body: { token: 'phone-of-admin-a' },
    });
    expect(off.statusCode).toBe(200);
    await notifyAdminA('SOS again');
    await push.outbox!.drain();
    expect(fcm.sendRequests).toHaveLength(1);
    // Both notifications are stored and listed for the user all the same.
    const list = await call(h.app, {
      method: 'GET',
      url: '/v1/notifications',
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { total: number }).total).toBe(2);
  });
});
