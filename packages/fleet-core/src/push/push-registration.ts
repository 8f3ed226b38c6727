import { DELIVERED_NOTIFICATION_DELAY_MS, LOCAL_NOTIFICATION_DELAY_MS } from '../constants';
import { errorStatus, toastErrorMessage } from '../errors/api-failure';
import { silentLogger, type Logger } from '../realtime/logger';
import { globalTimers, type Timers } from '../realtime/timers';
import {
  getOrCreateDeviceId,
  storageKeys,
  type KeyValueStorage,
  type RandomSource,
} from '../session/storage';
import { translate } from '../i18n/translate';
import { pushRegistrationFailedMessage, registrationErrorInfo } from './messages';
import type {
  PushApi,
  PushListenerHandle,
  PushNotificationAction,
  PushNotificationPayload,
  PushNotifier,
  PushPlatform,
  PushRegistrationErrorEvent,
  PushTokenRegistration,
} from './platform';

export const pushRegistrationStates = ['not-registered', 'registering', 'registered'] as const;
export type PushRegistrationState = (typeof pushRegistrationStates)[number];

/** Why `initialize()` ended. */
export type PushInitOutcome =
  'skipped-web' | 'skipped-no-session' | 'busy' | 'already-registered' | 'denied' | 'registered' | 'failed';

/** What happened to one token sent to the server. */
export type TokenSendOutcome = 'stored' | 'unauthorized' | 'failed-stored-locally' | 'ignored';

export interface PushRegistrationOptions {
  platform: PushPlatform;
  storage: KeyValueStorage;
  api: PushApi;
  notifier: PushNotifier;
  logger?: Logger;
  /** Clock in epoch ms (device id timestamp, local notification time). */
  now?: () => number;
  /** Random source in [0, 1) (device id suffix, local notification id). */
  random?: RandomSource;
  timers?: Pick<Timers, 'setTimeout' | 'clearTimeout'>;
  /** Opens the notification list (tap on a push or local notification, or one delivered at start). */
  onOpenNotifications?: () => void;
  /** A push arrived while the app was in the foreground. */
  onNotification?: (notification: PushNotificationPayload) => void;
  /** Language of the toasts (default en-US). */
  locale?: string;
}

/**
 * The push-registration state machine of spec sections 4 and 8.
 *
 * - Web skips push entirely; initialisation needs a stored access token.
 * - States not-registered -> registering -> registered; `initialize()` while registering or
 *   registered does nothing (no double registration).
 * - Permission 'prompt' (or 'prompt-with-rationale') is asked; anything but 'granted' shows the
 *   warning 'Push notification permission denied' and stops.
 * - A registration event is ignored when a token is already stored; otherwise the token is sent to
 *   the server and 'Push notifications enabled' is shown. A 401 does not store the token; any other
 *   failure stores it locally anyway (without token data) and shows 'Failed to register push
 *   notifications: {error}'.
 * - A stored token without stored token data is registered again at start (silently on success).
 * - A foreground push is re-shown as a local notification 100 ms ahead; taps open the notification
 *   list; a notification already delivered at start opens it after 500 ms.
 * - `unregister()` clears the stored token and token data and tells the server (errors ignored).
 */
export class PushRegistration {
  private readonly o: PushRegistrationOptions;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly random: RandomSource;
  private readonly timers: Pick<Timers, 'setTimeout' | 'clearTimeout'>;
  private currentState: PushRegistrationState = 'not-registered';
  private handles: PushListenerHandle[] = [];
  private listening = false;
  private sending: Promise<TokenSendOutcome> | null = null;
  private deliveredTimer: unknown = null;
  private readonly locale: string;

  constructor(options: PushRegistrationOptions) {
    this.o = options;
    this.logger = options.logger ?? silentLogger;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.timers = options.timers ?? globalTimers;
    this.locale = options.locale ?? 'en-US';
  }

  get state(): PushRegistrationState {
    return this.currentState;
  }

  async initialize(): Promise<PushInitOutcome> {
    const { platform, storage, notifier } = this.o;
    if (!platform.isNative()) return 'skipped-web';
    if (!storage.getItem(storageKeys.accessToken)) return 'skipped-no-session';
    if (this.currentState === 'registering') return 'busy';
    if (this.currentState === 'registered') return 'already-registered';
    this.currentState = 'registering';
    try {
      await this.listen();
      const storedToken = storage.getItem(storageKeys.fcmToken);
      if (storedToken && !storage.getItem(storageKeys.fcmTokenData)) {
        await this.sendToken(storedToken, false);
      }
      let permission = await platform.checkPermissions();
      if (permission === 'prompt' || permission === 'prompt-with-rationale') {
        permission = await platform.requestPermissions();
      }
      if (permission !== 'granted') {
        notifier.notify('warning', translate(this.locale, 'push.permissionDenied'));
        this.currentState = 'not-registered';
        return 'denied';
      }
      await platform.register();
      this.currentState = 'registered';
      await this.openDeliveredAtStart();
      return 'registered';
    } catch (error) {
      this.logger.error('push: initialisation failed', error);
      notifier.notify(
        'error',
        pushRegistrationFailedMessage(toastErrorMessage(error, this.locale), this.locale),
      );
      this.currentState = 'not-registered';
      return 'failed';
    }
  }

  /** Handles a token from the device's registration event. */
  async handleRegistration(token: string): Promise<TokenSendOutcome> {
    if (this.o.storage.getItem(storageKeys.fcmToken)) {
      this.logger.debug('push: token already stored, registration event ignored');
      return 'ignored';
    }
    if (this.sending) return 'ignored';
    this.sending = this.sendToken(token, true);
    try {
      return await this.sending;
    } finally {
      this.sending = null;
    }
  }

  /** Handles the device's registration error event. */
  handleRegistrationError(event: PushRegistrationErrorEvent): void {
    const info = registrationErrorInfo(event.error, this.locale);
    if (info.silent) {
      this.logger.warn(`push: ${info.message}`, event.error);
      return;
    }
    this.logger.error(`push: ${info.message}`, event.error);
    this.o.notifier.notify('error', info.message);
  }

  /** Clears the stored token and token data, unregisters the device and tells the server. */
  async unregister(): Promise<void> {
    const { platform, storage, api } = this.o;
    const token = storage.getItem(storageKeys.fcmToken);
    try {
      await platform.unregister();
    } catch (error) {
      this.logger.warn('push: device unregister failed', error);
    }
    storage.removeItem(storageKeys.fcmToken);
    storage.removeItem(storageKeys.fcmTokenData);
    await this.stopListening();
    this.currentState = 'not-registered';
    if (token) {
      try {
        await api.deactivate(token);
      } catch (error) {
        this.logger.debug('push: deactivate failed (ignored)', error);
      }
    }
  }

  /** Stops listening and cancels a pending delivered-notification timer, keeping stored data. */
  async dispose(): Promise<void> {
    await this.stopListening();
    this.currentState = 'not-registered';
  }

  private async sendToken(token: string, announce: boolean): Promise<TokenSendOutcome> {
    const { platform, storage, api, notifier } = this.o;
    const body: PushTokenRegistration = {
      token,
      platform: platform.platform(),
      device_id: getOrCreateDeviceId(storage, platform.platform(), this.now(), this.random),
    };
    if (platform.isNative()) {
      const version = await platform.appVersion().catch(() => null);
      if (version) body.app_version = version;
    }
    try {
      const answer = await api.register(body);
      const data =
        typeof answer === 'object' && answer !== null && 'data' in answer
          ? (answer as { data: unknown }).data
          : body;
      storage.setItem(storageKeys.fcmToken, token);
      storage.setItem(storageKeys.fcmTokenData, JSON.stringify(data ?? body));
      if (announce) notifier.notify('success', translate(this.locale, 'push.enabled'));
      return 'stored';
    } catch (error) {
      if (errorStatus(error) === 401) {
        this.logger.warn('push: token registration unauthorized, token not stored', error);
        return 'unauthorized';
      }
      this.logger.error('push: token registration failed, token kept locally', error);
      storage.setItem(storageKeys.fcmToken, token);
      notifier.notify(
        'error',
        pushRegistrationFailedMessage(toastErrorMessage(error, this.locale), this.locale),
      );
      return 'failed-stored-locally';
    }
  }

  private async listen(): Promise<void> {
    if (this.listening) return;
    this.listening = true;
    const { platform } = this.o;
    const open = (action: PushNotificationAction) => {
      this.logger.debug('push: notification tapped', action.actionId);
      this.o.onOpenNotifications?.();
    };
    this.handles = await Promise.all([
      platform.onRegistration((token) => {
        void this.handleRegistration(token);
      }),
      platform.onRegistrationError((event) => this.handleRegistrationError(event)),
      platform.onNotificationReceived((notification) => {
        void this.showInForeground(notification);
      }),
      platform.onNotificationAction(open),
      platform.onLocalNotificationAction(open),
    ]);
  }

  private async stopListening(): Promise<void> {
    if (this.deliveredTimer !== null) {
      this.timers.clearTimeout(this.deliveredTimer);
      this.deliveredTimer = null;
    }
    const handles = this.handles;
    this.handles = [];
    this.listening = false;
    for (const handle of handles) {
      try {
        await handle.remove();
      } catch (error) {
        this.logger.warn('push: removing a listener failed', error);
      }
    }
  }

  private async showInForeground(notification: PushNotificationPayload): Promise<void> {
    this.o.onNotification?.(notification);
    try {
      await this.o.platform.scheduleLocalNotification({
        id: Math.floor(this.random() * 2_147_483_647),
        title: notification.title ?? '',
        body: notification.body ?? '',
        at: new Date(this.now() + LOCAL_NOTIFICATION_DELAY_MS),
        extra: notification.data ?? {},
      });
    } catch (error) {
      this.logger.warn('push: scheduling the local notification failed', error);
    }
  }

  private async openDeliveredAtStart(): Promise<void> {
    let delivered: PushNotificationPayload[];
    try {
      delivered = await this.o.platform.getDeliveredNotifications();
    } catch (error) {
      this.logger.warn('push: reading delivered notifications failed', error);
      return;
    }
    if (delivered.length === 0) return;
    this.deliveredTimer = this.timers.setTimeout(() => {
      this.deliveredTimer = null;
      this.o.onOpenNotifications?.();
    }, DELIVERED_NOTIFICATION_DELAY_MS);
  }
}
