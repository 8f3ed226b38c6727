import { MemoryStorage, storageKeys, type PushApi, type PushTokenRegistration } from '@fleet/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CapacitorPushPlatform } from './capacitor-push-platform';
import { isNativeShell } from './capacitor-plugins';
import { NOTIFICATIONS_PATH, startMobileShell } from './mobile-shell';
import { CapacitorStandIn } from './plugin-stand-in';

class RecordingApi implements PushApi {
  registered: PushTokenRegistration[] = [];
  deactivated: string[] = [];
  failWith: { status: number } | null = null;
  async register(body: PushTokenRegistration) {
    this.registered.push(body);
    if (this.failWith) throw Object.assign(new Error(`Error ${this.failWith.status}: x`), this.failWith);
    return { success: true, data: { token: body.token, platform: body.platform } };
  }
  async deactivate(token: string) {
    this.deactivated.push(token);
    return { success: true };
  }
}

function setup() {
  const native = new CapacitorStandIn();
  const storage = new MemoryStorage();
  storage.setItem(storageKeys.accessToken, 'session-token');
  const api = new RecordingApi();
  const toasts: [string, string][] = [];
  const paths: string[] = [];
  let current = '/dashboard/live';
  const navigation = {
    currentPath: () => current,
    goBack: () => paths.push('back'),
    navigate: (path: string) => {
      paths.push(path);
      current = path;
    },
  };
  const setPath = (p: string) => {
    current = p;
  };
  return { native, storage, api, toasts, paths, navigation, setPath };
}

async function shellFor(t: ReturnType<typeof setup>) {
  return startMobileShell({
    plugins: t.native.plugins as never,
    storage: t.storage,
    api: t.api,
    notifier: { notify: (kind, message) => t.toasts.push([kind, message]) },
    navigation: t.navigation,
  });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 1_750_000_000_000 });
});
afterEach(() => vi.useRealTimers());

describe('CapacitorPushPlatform', () => {
  it('maps permissions, events and local notifications onto the Capacitor plugins', async () => {
    const t = setup();
    const platform = new CapacitorPushPlatform(t.native.plugins);
    expect(platform.isNative()).toBe(true);
    expect(platform.platform()).toBe('android');
    expect(await platform.checkPermissions()).toBe('prompt');
    expect(await platform.requestPermissions()).toBe('granted');
    const tokens: string[] = [];
    await platform.onRegistration((token) => tokens.push(token));
    t.native.emit('registration', { value: 'fcm-abc' });
    expect(tokens).toEqual(['fcm-abc']);
    const errors: string[] = [];
    await platform.onRegistrationError((e) => errors.push(e.error));
    t.native.emit('registrationError', { error: 'SERVICE_NOT_AVAILABLE' });
    expect(errors).toEqual(['SERVICE_NOT_AVAILABLE']);
    const at = new Date(1_750_000_000_100);
    await platform.scheduleLocalNotification({
      id: 7,
      title: 'Overspeed',
      body: '120 km/h',
      at,
      extra: { a: 1 },
    });
    expect(t.native.calls.at(-1)).toEqual({
      plugin: 'local',
      method: 'schedule',
      args: [
        {
          notifications: [{ id: 7, title: 'Overspeed', body: '120 km/h', schedule: { at }, extra: { a: 1 } }],
        },
      ],
    });
    expect(await platform.appVersion()).toBe('1.4.0');
  });

  it('reads delivered notifications and taps of local notifications', async () => {
    const t = setup();
    t.native.delivered = [{ id: 'n1', title: 'Geofence exit', body: 'Bus 12', data: { uuid: 'x' } }];
    const platform = new CapacitorPushPlatform(t.native.plugins);
    expect(await platform.getDeliveredNotifications()).toEqual([
      { id: 'n1', title: 'Geofence exit', body: 'Bus 12', data: { uuid: 'x' } },
    ]);
    const taps: string[] = [];
    await platform.onLocalNotificationAction((a) => taps.push(`${a.actionId}:${a.notification.id}`));
    t.native.emit('localNotificationActionPerformed', {
      actionId: 'tap',
      notification: { id: 42, title: 't', body: 'b' },
    });
    expect(taps).toEqual(['tap:42']);
  });
});

describe('startMobileShell', () => {
  it('registers with the server once permission is granted and the device sends its token', async () => {
    const t = setup();
    const shell = await shellFor(t);
    expect(await shell.startPush()).toBe('registered');
    expect(t.native.methods('push')).toContain('requestPermissions');
    t.native.emit('registration', { value: 'fcm-token-1' });
    await vi.waitFor(() => expect(t.api.registered).toHaveLength(1));
    expect(t.api.registered[0]).toMatchObject({
      token: 'fcm-token-1',
      platform: 'android',
      app_version: '1.4.0',
    });
    expect(t.api.registered[0]!.device_id).toMatch(/^android_1750000000000_[a-z0-9]{9}$/);
    await vi.waitFor(() => expect(t.toasts).toEqual([['success', 'Push notifications enabled']]));
    expect(t.storage.getItem(storageKeys.fcmToken)).toBe('fcm-token-1');
    await shell.dispose();
  });

  it('warns and stops when permission is denied', async () => {
    const t = setup();
    t.native.grantOnRequest = false;
    const shell = await shellFor(t);
    expect(await shell.startPush()).toBe('denied');
    expect(t.toasts).toEqual([['warning', 'Push notification permission denied']]);
    expect(t.native.methods('push')).not.toContain('register');
  });

  it('web skips push entirely and installs no back button', async () => {
    const t = setup();
    t.native.native = false;
    const shell = await shellFor(t);
    expect(await shell.startPush()).toBe('skipped-web');
    expect(t.native.calls).toEqual([]);
  });

  it('a tap on a push or a local notification opens the notification list', async () => {
    const t = setup();
    const shell = await shellFor(t);
    await shell.startPush();
    t.native.emit('pushNotificationActionPerformed', { actionId: 'tap', notification: { id: '1' } });
    t.native.emit('localNotificationActionPerformed', { actionId: 'tap', notification: { id: 2 } });
    expect(t.paths).toEqual([NOTIFICATIONS_PATH, NOTIFICATIONS_PATH]);
  });

  it('a notification already delivered at start opens the list after 500 ms', async () => {
    const t = setup();
    t.native.delivered = [{ id: 'old' }];
    const shell = await shellFor(t);
    await shell.startPush();
    vi.advanceTimersByTime(499);
    expect(t.paths).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(t.paths).toEqual([NOTIFICATIONS_PATH]);
  });

  it('a push in the foreground is shown as a local notification 100 ms ahead', async () => {
    const t = setup();
    const shell = await shellFor(t);
    await shell.startPush();
    const receivedAt = Date.now();
    t.native.emit('pushNotificationReceived', { id: 'p', title: 'Emergency', body: 'Bus 3', data: {} });
    await vi.waitFor(() => expect(t.native.methods('local')).toContain('schedule'));
    const call = t.native.calls.find((c) => c.method === 'schedule')!;
    const n = (call.args[0] as { notifications: { schedule: { at: Date }; title: string }[] })
      .notifications[0]!;
    expect(n.title).toBe('Emergency');
    expect(n.schedule.at.getTime()).toBe(receivedAt + 100);
  });

  it('logout unregisters the device and deactivates the token on the server', async () => {
    const t = setup();
    t.storage.setItem(storageKeys.fcmToken, 'tok');
    t.storage.setItem(storageKeys.fcmTokenData, '{}');
    const shell = await shellFor(t);
    await shell.startPush();
    await shell.stopPush();
    expect(t.native.methods('push')).toContain('unregister');
    expect(t.api.deactivated).toEqual(['tok']);
    expect(t.storage.getItem(storageKeys.fcmToken)).toBeNull();
  });

  it('a 401 on registration does not store the token; another failure stores it locally', async () => {
    const t = setup();
    t.api.failWith = { status: 401 };
    const shell = await shellFor(t);
    await shell.startPush();
    t.native.emit('registration', { value: 'one' });
    await vi.waitFor(() => expect(t.api.registered).toHaveLength(1));
    expect(t.storage.getItem(storageKeys.fcmToken)).toBeNull();
    t.api.failWith = { status: 503 };
    t.native.emit('registration', { value: 'two' });
    await vi.waitFor(() => expect(t.storage.getItem(storageKeys.fcmToken)).toBe('two'));
    expect(t.storage.getItem(storageKeys.fcmTokenData)).toBeNull();
  });
});

describe('hardware back button', () => {
  it.each([
    ['/dashboard/vehicles/details/1', true, ['back'], false],
    ['/dashboard/vehicles/details/1', false, ['/dashboard'], false],
    ['/menu', true, ['back'], false],
    ['/dashboard', true, [], true],
    ['/login', false, [], true],
  ])('on %s (canGoBack %s)', async (path, canGoBack, expected, exits) => {
    const t = setup();
    t.setPath(path);
    await shellFor(t);
    t.native.emit('backButton', { canGoBack });
    expect(t.paths).toEqual(expected);
    expect(t.native.methods('app').includes('exitApp')).toBe(exits);
  });
});

describe('isNativeShell', () => {
  it.each([
    [{}, false],
    [{ Capacitor: { isNativePlatform: () => false } }, false],
    [{ Capacitor: { isNativePlatform: () => true } }, true],
    [{ Capacitor: {} }, false],
  ])('%o -> %s', (scope, expected) => {
    expect(isNativeShell(scope)).toBe(expected);
  });
});
