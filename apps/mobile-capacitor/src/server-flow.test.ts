/**
 * The whole push-registration flow of the app against the real server (embedded PGlite) over HTTP:
 * sign in with POST /v1/login, register the device token with POST /v1/fcm-tokens/register through
 * the typed client, and deactivate it on logout. Only the phone itself is a stand-in.
 */
import type { AddressInfo } from 'node:net';
import { createApiClient } from '@fleet/api-client';
import { MemoryStorage, storageKeys } from '@fleet/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, PASSWORD, type Harness } from '../../server/test/harness';
import { buildWorld, type World } from '../../server/test/fixtures';
import { startMobileShell } from './mobile-shell';
import { CapacitorStandIn } from './plugin-stand-in';
import { createPushApi } from './push-api';

let h: Harness;
let world: World;
let baseUrl: string;

beforeAll(async () => {
  h = await createHarness('mobile_flow');
  world = await buildWorld(h.storage.db);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
});

function clientFor(storage: MemoryStorage, onUnauthorized = vi.fn()) {
  return createApiClient({
    baseUrl,
    getToken: () => storage.getItem(storageKeys.accessToken),
    getTransportUuid: () => world.a.uuid,
    getUserUuid: () => storage.getItem(storageKeys.userUuid),
    getLocale: () => 'en-US',
    getTimezone: () => 'Asia/Dubai',
    onUnauthorized,
  });
}

async function tokensOf(userId: number) {
  return h.storage.db.query<{
    token: string;
    platform: string;
    device_id: string;
    app_version: string;
    active: boolean;
  }>(
    'SELECT token, platform, device_id, app_version, active FROM fcm_tokens WHERE user_id = $1 ORDER BY id',
    [userId],
  );
}

describe('push registration against the real server', () => {
  it('signs in, registers the device token, and deactivates it on logout', async () => {
    const storage = new MemoryStorage();
    const client = clientFor(storage);
    const login = await client.request('auth.login', {
      body: { email: world.users.adminA.email, password: PASSWORD },
    });
    storage.setItem(storageKeys.accessToken, login.data.token);
    storage.setItem(storageKeys.userUuid, login.data.user.uuid);

    const phone = new CapacitorStandIn();
    const toasts: [string, string][] = [];
    const shell = await startMobileShell({
      plugins: phone.plugins as never,
      storage,
      api: createPushApi(client),
      notifier: { notify: (kind, message) => toasts.push([kind, message]) },
      navigation: { currentPath: () => '/dashboard', goBack: () => undefined, navigate: () => undefined },
    });
    expect(await shell.startPush()).toBe('registered');
    phone.emit('registration', { value: 'fcm-device-token-1' });
    await vi.waitFor(() => expect(toasts).toEqual([['success', 'Push notifications enabled']]), {
      timeout: 10_000,
    });

    const [row] = await tokensOf(world.users.adminA.id);
    expect(row).toMatchObject({
      token: 'fcm-device-token-1',
      platform: 'android',
      app_version: '1.4.0',
      active: true,
    });
    expect(row!.device_id).toBe(storage.getItem(storageKeys.deviceId));
    expect(JSON.parse(storage.getItem(storageKeys.fcmTokenData)!)).toMatchObject({
      token: 'fcm-device-token-1',
    });

    await shell.stopPush();
    expect((await tokensOf(world.users.adminA.id))[0]!.active).toBe(false);
    expect(storage.getItem(storageKeys.fcmToken)).toBeNull();
    await shell.dispose();
  });

  it('a 401 from the server (expired session) does not store the token', async () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.accessToken, 'not-a-session-token');
    const unauthorized = vi.fn();
    const phone = new CapacitorStandIn();
    const shell = await startMobileShell({
      plugins: phone.plugins as never,
      storage,
      api: createPushApi(clientFor(storage, unauthorized)),
      notifier: { notify: () => undefined },
      navigation: { currentPath: () => '/dashboard', goBack: () => undefined, navigate: () => undefined },
    });
    await shell.startPush();
    phone.emit('registration', { value: 'fcm-device-token-2' });
    await vi.waitFor(() => expect(unauthorized).toHaveBeenCalled(), { timeout: 10_000 });
    expect(storage.getItem(storageKeys.fcmToken)).toBeNull();
    const rows = await h.storage.db.query('SELECT 1 FROM fcm_tokens WHERE token = $1', [
      'fcm-device-token-2',
    ]);
    expect(rows).toEqual([]);
    await shell.dispose();
  });
});
