import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage, storageKeys } from '../session/storage';
import type { Logger } from '../realtime/logger';
import { registrationErrorInfo } from './messages';
import type {
  LocalNotificationRequest,
  PushApi,
  PushNotificationAction,
  PushNotificationPayload,
  PushPermissionState,
  PushPlatform,
  PushRegistrationErrorEvent,
  PushTokenRegistration,
} from './platform';
import { PushRegistration, type PushRegistrationOptions } from './push-registration';

// PushPlatform is core's own port; the test implements it the way the Capacitor adapter will.
class TestPlatform implements PushPlatform {
  native = true;
  name = 'android';
  permission: PushPermissionState = 'granted';
  afterRequest: PushPermissionState = 'granted';
  requested = 0;
  registerCalls = 0;
  unregisterCalls = 0;
  registerError: unknown = null;
  unregisterError: unknown = null;
  version: string | null = '2.3.1';
  delivered: PushNotificationPayload[] = [];
  deliveredError: unknown = null;
  scheduled: LocalNotificationRequest[] = [];
  scheduleError: unknown = null;
  removeError: unknown = null;
  listeners = new Map<string, (value: never) => void>();
  removed: string[] = [];

  isNative() {
    return this.native;
  }
  platform() {
    return this.name;
  }
  async checkPermissions() {
    return this.permission;
  }
  async requestPermissions() {
    this.requested += 1;
    return this.afterRequest;
  }
  async register() {
    this.registerCalls += 1;
    if (this.registerError) throw this.registerError;
  }
  async unregister() {
    this.unregisterCalls += 1;
    if (this.unregisterError) throw this.unregisterError;
  }
  private add(name: string, listener: (value: never) => void) {
    this.listeners.set(name, listener);
    return Promise.resolve({
      remove: () => {
        this.removed.push(name);
        if (this.removeError) throw this.removeError;
      },
    });
  }
  onRegistration(l: (token: string) => void) {
    return this.add('registration', l);
  }
  onRegistrationError(l: (event: PushRegistrationErrorEvent) => void) {
    return this.add('registrationError', l);
  }
  onNotificationReceived(l: (n: PushNotificationPayload) => void) {
    return this.add('received', l);
  }
  onNotificationAction(l: (a: PushNotificationAction) => void) {
    return this.add('action', l);
  }
  onLocalNotificationAction(l: (a: PushNotificationAction) => void) {
    return this.add('localAction', l);
  }
  async getDeliveredNotifications() {
    if (this.deliveredError) throw this.deliveredError;
    return this.delivered;
  }
  async scheduleLocalNotification(n: LocalNotificationRequest) {
    if (this.scheduleError) throw this.scheduleError;
    this.scheduled.push(n);
  }
  async appVersion() {
    return this.version;
  }
  emit(name: string, value: unknown) {
    (this.listeners.get(name) as (v: unknown) => void)(value);
  }
}

class TestApi implements PushApi {
  registered: PushTokenRegistration[] = [];
  deactivated: string[] = [];
  registerError: unknown = null;
  deactivateError: unknown = null;
  answer: unknown = { success: true, data: { id: 9, token: 'stored' } };
  async register(body: PushTokenRegistration) {
    this.registered.push(body);
    if (this.registerError) throw this.registerError;
    return this.answer;
  }
  async deactivate(token: string) {
    this.deactivated.push(token);
    if (this.deactivateError) throw this.deactivateError;
    return {};
  }
}

function setup(overrides: Partial<PushRegistrationOptions> = {}) {
  const platform = new TestPlatform();
  const api = new TestApi();
  const storage = new MemoryStorage();
  storage.setItem(storageKeys.accessToken, 'access');
  const toasts: [string, string][] = [];
  const logs: string[] = [];
  const logger: Logger = {
    debug: (m) => logs.push(`debug ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  const timeouts: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const opened = vi.fn();
  const received = vi.fn();
  const push = new PushRegistration({
    platform,
    api,
    storage,
    notifier: { notify: (kind, message) => toasts.push([kind, message]) },
    logger,
    now: () => 1_700_000_000_000,
    random: () => 0.5,
    timers: {
      setTimeout: (callback, ms) => {
        const entry = { callback, ms, cleared: false };
        timeouts.push(entry);
        return entry;
      },
      clearTimeout: (handle) => {
        (handle as { cleared: boolean }).cleared = true;
      },
    },
    onOpenNotifications: opened,
    onNotification: received,
    ...overrides,
  });
  return { platform, api, storage, toasts, logs, timeouts, opened, received, push };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('PushRegistration.initialize', () => {
  it('skips the web entirely', async () => {
    const t = setup();
    t.platform.native = false;
    expect(await t.push.initialize()).toBe('skipped-web');
    expect(t.platform.listeners.size).toBe(0);
  });

  it('needs a stored access token', async () => {
    const t = setup();
    t.storage.removeItem(storageKeys.accessToken);
    expect(await t.push.initialize()).toBe('skipped-no-session');
    expect(t.platform.registerCalls).toBe(0);
  });

  it.each<[PushPermissionState, PushPermissionState, number, string]>([
    ['granted', 'granted', 0, 'registered'],
    ['prompt', 'granted', 1, 'registered'],
    ['prompt-with-rationale', 'granted', 1, 'registered'],
    ['prompt', 'denied', 1, 'denied'],
    ['denied', 'granted', 0, 'denied'],
  ])('permission %s (request -> %s)', async (initial, afterRequest, requests, outcome) => {
    const t = setup();
    t.platform.permission = initial;
    t.platform.afterRequest = afterRequest;
    expect(await t.push.initialize()).toBe(outcome);
    expect(t.platform.requested).toBe(requests);
    if (outcome === 'denied') {
      expect(t.toasts).toEqual([['warning', 'Push notification permission denied']]);
      expect(t.platform.registerCalls).toBe(0);
      expect(t.push.state).toBe('not-registered');
    } else {
      expect(t.toasts).toEqual([]);
      expect(t.platform.registerCalls).toBe(1);
      expect(t.push.state).toBe('registered');
    }
  });

  it('never registers twice: busy while registering, then already registered', async () => {
    const t = setup();
    const first = t.push.initialize();
    expect(t.push.state).toBe('registering');
    expect(await t.push.initialize()).toBe('busy');
    expect(await first).toBe('registered');
    expect(await t.push.initialize()).toBe('already-registered');
    expect(t.platform.registerCalls).toBe(1);
  });

  it('a failing device registration shows the failure text and can be retried', async () => {
    const t = setup();
    t.platform.registerError = new Error('no FCM');
    expect(await t.push.initialize()).toBe('failed');
    expect(t.toasts).toEqual([['error', 'Failed to register push notifications: no FCM']]);
    expect(t.push.state).toBe('not-registered');
    t.platform.registerError = null;
    expect(await t.push.initialize()).toBe('registered');
    expect(t.platform.listeners.size).toBe(5);
  });

  it('re-registers a stored token without token data at start, silently', async () => {
    const t = setup();
    t.storage.setItem(storageKeys.fcmToken, 'old-token');
    expect(await t.push.initialize()).toBe('registered');
    expect(t.api.registered).toEqual([
      {
        token: 'old-token',
        platform: 'android',
        device_id: 'android_1700000000000_sssssssss',
        app_version: '2.3.1',
      },
    ]);
    expect(t.storage.getItem(storageKeys.fcmTokenData)).toBe('{"id":9,"token":"stored"}');
    expect(t.toasts).toEqual([]);
  });

  it('does not re-register when token data is present', async () => {
    const t = setup();
    t.storage.setItem(storageKeys.fcmToken, 'old-token');
    t.storage.setItem(storageKeys.fcmTokenData, '{}');
    await t.push.initialize();
    expect(t.api.registered).toEqual([]);
  });

  it('opens the notification list 500 ms after start when notifications were delivered', async () => {
    const t = setup();
    t.platform.delivered = [{ id: '1', title: 'Overspeed' }];
    await t.push.initialize();
    expect(t.timeouts.map((x) => x.ms)).toEqual([500]);
    expect(t.opened).not.toHaveBeenCalled();
    t.timeouts[0]!.callback();
    expect(t.opened).toHaveBeenCalledTimes(1);
  });

  it('nothing delivered -> no timer; a failing read is only logged', async () => {
    const t = setup();
    await t.push.initialize();
    expect(t.timeouts).toEqual([]);
    const u = setup();
    u.platform.deliveredError = new Error('tray');
    expect(await u.push.initialize()).toBe('registered');
    expect(u.logs).toContain('warn push: reading delivered notifications failed');
  });
});

describe('registration events', () => {
  it('sends a new token to the server, stores it and its data, and says so', async () => {
    const t = setup();
    await t.push.initialize();
    t.platform.emit('registration', 'new-token');
    await flush();
    expect(t.api.registered).toHaveLength(1);
    expect(t.storage.getItem(storageKeys.fcmToken)).toBe('new-token');
    expect(t.storage.getItem(storageKeys.deviceId)).toBe('android_1700000000000_sssssssss');
    expect(t.toasts).toEqual([['success', 'Push notifications enabled']]);
  });

  it('ignores a registration when a token is already stored, and a concurrent one', async () => {
    const t = setup();
    const first = t.push.handleRegistration('a');
    expect(await t.push.handleRegistration('b')).toBe('ignored');
    expect(await first).toBe('stored');
    expect(await t.push.handleRegistration('c')).toBe('ignored');
    expect(t.api.registered.map((b) => b.token)).toEqual(['a']);
  });

  it('401 does not store the token', async () => {
    const t = setup();
    t.api.registerError = Object.assign(new Error('Unauthenticated'), { status: 401 });
    expect(await t.push.handleRegistration('tok')).toBe('unauthorized');
    expect(t.storage.getItem(storageKeys.fcmToken)).toBeNull();
    expect(t.toasts).toEqual([]);
  });

  it.each<[unknown, string]>([
    [
      Object.assign(new Error('Server Error'), { status: 500 }),
      'Failed to register push notifications: Server Error',
    ],
    [
      new TypeError('Failed to fetch'),
      'Failed to register push notifications: A network error occurred. This might be due to CORS restrictions.',
    ],
  ])('other failures store the token locally anyway (%s)', async (error, message) => {
    const t = setup();
    t.api.registerError = error;
    expect(await t.push.handleRegistration('tok')).toBe('failed-stored-locally');
    expect(t.storage.getItem(storageKeys.fcmToken)).toBe('tok');
    expect(t.storage.getItem(storageKeys.fcmTokenData)).toBeNull();
    expect(t.toasts).toEqual([['error', message]]);
  });

  it.each<[unknown, string]>([
    [{ success: true }, '{"token":"tok","platform":"android","device_id":"android_1700000000000_sssssssss"}'],
    [null, '{"token":"tok","platform":"android","device_id":"android_1700000000000_sssssssss"}'],
    [{ data: null }, '{"token":"tok","platform":"android","device_id":"android_1700000000000_sssssssss"}'],
  ])(
    'token data falls back to the sent body (answer %j), app_version left out when unknown',
    async (answer, data) => {
      const t = setup();
      t.api.answer = answer;
      t.platform.version = null;
      await t.push.handleRegistration('tok');
      expect(t.storage.getItem(storageKeys.fcmTokenData)).toBe(data);
    },
  );

  it('a failing app version read is treated as unknown', async () => {
    const t = setup();
    t.platform.appVersion = () => Promise.reject(new Error('no info'));
    await t.push.handleRegistration('tok');
    expect(t.api.registered[0]).not.toHaveProperty('app_version');
  });

  it.each<[string, string, boolean]>([
    ['SERVICE_NOT_AVAILABLE', 'Google Play Services not available', true],
    [
      'java.io.IOException: MISSING_INSTANCEID_SERVICE',
      'Push notifications not supported on this device',
      true,
    ],
    ['INVALID_SENDER', 'Firebase configuration error', false],
    ['phone_registration_error', 'Device registration failed', false],
    ['AUTHENTICATION_FAILED', 'Firebase auth error - Enable FCM API in Google Cloud Console', false],
    ['TOO_MANY_REGISTRATIONS', 'Registration failed: TOO_MANY_REGISTRATIONS', false],
  ])('registration error %s', async (code, message, silent) => {
    expect(registrationErrorInfo(code)).toEqual({ message, silent });
    const t = setup();
    await t.push.initialize();
    t.platform.emit('registrationError', { error: code });
    expect(t.toasts).toEqual(silent ? [] : [['error', message]]);
    expect(t.logs).toContain(`${silent ? 'warn' : 'error'} push: ${message}`);
  });

  it('registrationErrorInfo accepts Error objects and other values', () => {
    expect(registrationErrorInfo(new Error('INVALID_SENDER')).message).toBe('Firebase configuration error');
    expect(registrationErrorInfo(42).message).toBe('Registration failed: 42');
  });
});

describe('notifications', () => {
  it('a foreground push is re-shown as a local notification 100 ms ahead', async () => {
    const t = setup();
    await t.push.initialize();
    const payload = { id: 'n1', title: 'Overspeed', body: 'ABC 123', data: { uuid: 'u1' } };
    t.platform.emit('received', payload);
    await flush();
    expect(t.received).toHaveBeenCalledWith(payload);
    expect(t.platform.scheduled).toEqual([
      {
        id: 1_073_741_823,
        title: 'Overspeed',
        body: 'ABC 123',
        at: new Date(1_700_000_000_100),
        extra: { uuid: 'u1' },
      },
    ]);
    t.platform.emit('received', {});
    await flush();
    expect(t.platform.scheduled[1]).toMatchObject({ title: '', body: '', extra: {} });
  });

  it('a failing local schedule is only logged', async () => {
    const t = setup({ onNotification: undefined });
    await t.push.initialize();
    t.platform.scheduleError = new Error('no channel');
    t.platform.emit('received', { title: 'x' });
    await flush();
    expect(t.logs).toContain('warn push: scheduling the local notification failed');
  });

  it.each(['action', 'localAction'])('tapping (%s) opens the notification list', async (name) => {
    const t = setup();
    await t.push.initialize();
    t.platform.emit(name, { actionId: 'tap', notification: {} });
    expect(t.opened).toHaveBeenCalledTimes(1);
  });

  it('works without the optional callbacks', async () => {
    const t = setup({ onOpenNotifications: undefined });
    t.platform.delivered = [{}];
    await t.push.initialize();
    t.platform.emit('action', { actionId: 'tap', notification: {} });
    t.timeouts[0]!.callback();
    expect(t.opened).not.toHaveBeenCalled();
  });
});

describe('unregister', () => {
  it('clears the stored token and data, removes listeners and tells the server', async () => {
    const t = setup();
    t.platform.delivered = [{}];
    await t.push.initialize();
    await t.push.handleRegistration('tok');
    await t.push.unregister();
    expect(t.storage.getItem(storageKeys.fcmToken)).toBeNull();
    expect(t.storage.getItem(storageKeys.fcmTokenData)).toBeNull();
    expect(t.api.deactivated).toEqual(['tok']);
    expect(t.platform.unregisterCalls).toBe(1);
    expect(t.platform.removed).toHaveLength(5);
    expect(t.timeouts[0]!.cleared).toBe(true);
    expect(t.push.state).toBe('not-registered');
  });

  it('ignores server, device and listener errors; no token means no server call', async () => {
    const t = setup();
    await t.push.initialize();
    t.storage.setItem(storageKeys.fcmToken, 'tok');
    t.api.deactivateError = new Error('gone');
    t.platform.unregisterError = new Error('device');
    t.platform.removeError = new Error('remove');
    await expect(t.push.unregister()).resolves.toBeUndefined();
    expect(t.logs).toEqual(
      expect.arrayContaining([
        'warn push: device unregister failed',
        'warn push: removing a listener failed',
        'debug push: deactivate failed (ignored)',
      ]),
    );
    const u = setup();
    await u.push.unregister();
    expect(u.api.deactivated).toEqual([]);
  });

  it('dispose stops listening but keeps stored data', async () => {
    const t = setup();
    await t.push.initialize();
    t.storage.setItem(storageKeys.fcmToken, 'tok');
    await t.push.dispose();
    expect(t.platform.removed).toHaveLength(5);
    expect(t.storage.getItem(storageKeys.fcmToken)).toBe('tok');
    expect(t.push.state).toBe('not-registered');
  });
});

describe('Arabic toasts', () => {
  it('permission denied, enabled, failures and registration errors follow the locale', async () => {
    const t = setup({ locale: 'ar' });
    t.platform.permission = 'denied';
    await t.push.initialize();
    await t.push.handleRegistration('tok');
    t.push.handleRegistrationError({ error: 'INVALID_SENDER' });
    t.storage.removeItem(storageKeys.fcmToken);
    t.api.registerError = Object.assign(new Error('Server Error'), { status: 500 });
    await t.push.handleRegistration('tok2');
    expect(t.toasts).toEqual([
      ['warning', 'تم رفض إذن الإشعارات الفورية'],
      ['success', 'تم تفعيل الإشعارات الفورية'],
      ['error', 'خطأ في إعدادات Firebase'],
      ['error', 'فشل تسجيل الإشعارات الفورية: Server Error'],
    ]);
    expect(registrationErrorInfo('OTHER', 'ar')).toEqual({ message: 'فشل التسجيل: OTHER', silent: false });
  });
});

describe('defaults', () => {
  it('runs with the default clock, randomness, timers and logger', async () => {
    const platform = new TestPlatform();
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.accessToken, 'a');
    const push = new PushRegistration({
      platform,
      storage,
      api: new TestApi(),
      notifier: { notify: () => undefined },
    });
    expect(await push.initialize()).toBe('registered');
    expect(await push.handleRegistration('t')).toBe('stored');
    expect(storage.getItem(storageKeys.deviceId)).toMatch(/^android_\d+_[a-z0-9]{9}$/);
    await push.dispose();
  });
});
