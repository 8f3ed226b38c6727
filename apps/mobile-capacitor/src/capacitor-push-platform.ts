import type { AppPlugin } from '@capacitor/app';
import type { LocalNotificationsPlugin } from '@capacitor/local-notifications';
import type { PushNotificationSchema, PushNotificationsPlugin } from '@capacitor/push-notifications';
import type {
  LocalNotificationRequest,
  PushListenerHandle,
  PushNotificationAction,
  PushNotificationPayload,
  PushPermissionState,
  PushPlatform,
  PushRegistrationErrorEvent,
} from '@fleet/core';

/** The part of `Capacitor` (from @capacitor/core) the adapter reads. */
export interface CapacitorRuntime {
  isNativePlatform(): boolean;
  getPlatform(): string;
}

/**
 * The plugins the adapter drives. In the app they are the real Capacitor plugin objects; tests pass
 * stand-ins with the same methods and events.
 */
export interface CapacitorPushPlugins {
  capacitor: CapacitorRuntime;
  push: Pick<
    PushNotificationsPlugin,
    | 'checkPermissions'
    | 'requestPermissions'
    | 'register'
    | 'unregister'
    | 'getDeliveredNotifications'
    | 'addListener'
  >;
  local: Pick<
    LocalNotificationsPlugin,
    'schedule' | 'addListener' | 'checkPermissions' | 'requestPermissions'
  >;
  app: Pick<AppPlugin, 'getInfo'>;
}

function toPayload(n: PushNotificationSchema): PushNotificationPayload {
  const payload: PushNotificationPayload = { id: n.id };
  if (n.title !== undefined) payload.title = n.title;
  if (n.body !== undefined) payload.body = n.body;
  if (n.data && typeof n.data === 'object') payload.data = n.data as Record<string, unknown>;
  return payload;
}

/**
 * @fleet/core's {@link PushPlatform} over Capacitor 7: @capacitor/push-notifications for FCM/APNs,
 * @capacitor/local-notifications to re-show a push received in the foreground, @capacitor/app for
 * the app version. On the web (`isNativePlatform()` false) core's state machine skips push
 * entirely, so nothing here is called.
 */
export class CapacitorPushPlatform implements PushPlatform {
  constructor(private readonly plugins: CapacitorPushPlugins) {}

  isNative(): boolean {
    return this.plugins.capacitor.isNativePlatform();
  }

  platform(): string {
    return this.plugins.capacitor.getPlatform();
  }

  async checkPermissions(): Promise<PushPermissionState> {
    return (await this.plugins.push.checkPermissions()).receive;
  }

  async requestPermissions(): Promise<PushPermissionState> {
    return (await this.plugins.push.requestPermissions()).receive;
  }

  register(): Promise<void> {
    return this.plugins.push.register();
  }

  unregister(): Promise<void> {
    return this.plugins.push.unregister();
  }

  onRegistration(listener: (token: string) => void): Promise<PushListenerHandle> {
    return this.plugins.push.addListener('registration', (token) => listener(token.value));
  }

  onRegistrationError(listener: (event: PushRegistrationErrorEvent) => void): Promise<PushListenerHandle> {
    return this.plugins.push.addListener('registrationError', (error) => listener({ error: error.error }));
  }

  onNotificationReceived(
    listener: (notification: PushNotificationPayload) => void,
  ): Promise<PushListenerHandle> {
    return this.plugins.push.addListener('pushNotificationReceived', (n) => listener(toPayload(n)));
  }

  onNotificationAction(listener: (action: PushNotificationAction) => void): Promise<PushListenerHandle> {
    return this.plugins.push.addListener('pushNotificationActionPerformed', (a) =>
      listener({ actionId: a.actionId, notification: toPayload(a.notification) }),
    );
  }

  onLocalNotificationAction(listener: (action: PushNotificationAction) => void): Promise<PushListenerHandle> {
    return this.plugins.local.addListener('localNotificationActionPerformed', (a) => {
      const notification: PushNotificationPayload = { id: String(a.notification.id) };
      if (a.notification.title) notification.title = a.notification.title;
      if (a.notification.body) notification.body = a.notification.body;
      if (a.notification.extra && typeof a.notification.extra === 'object') {
        notification.data = a.notification.extra as Record<string, unknown>;
      }
      listener({ actionId: a.actionId, notification });
    });
  }

  async getDeliveredNotifications(): Promise<PushNotificationPayload[]> {
    const { notifications } = await this.plugins.push.getDeliveredNotifications();
    return notifications.map(toPayload);
  }

  async scheduleLocalNotification(n: LocalNotificationRequest): Promise<void> {
    await this.plugins.local.schedule({
      notifications: [
        { id: n.id, title: n.title, body: n.body, schedule: { at: n.at }, extra: n.extra ?? {} },
      ],
    });
  }

  async appVersion(): Promise<string | null> {
    try {
      const info = await this.plugins.app.getInfo();
      return info.version || null;
    } catch {
      // The web implementation of App.getInfo is unavailable; core only asks on native platforms.
      return null;
    }
  }
}
