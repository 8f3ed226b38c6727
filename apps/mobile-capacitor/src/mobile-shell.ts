import type { AppPlugin } from '@capacitor/app';
import {
  PushRegistration,
  type KeyValueStorage,
  type Logger,
  type PushApi,
  type PushListenerHandle,
  type PushNotificationPayload,
  type PushNotifier,
} from '@fleet/core';
import { installBackButton, type BackButtonNavigation } from './back-button';
import { CapacitorPushPlatform, type CapacitorPushPlugins } from './capacitor-push-platform';

/** Where a tap on any notification leads (spec section 2). */
export const NOTIFICATIONS_PATH = '/dashboard/notifications';

export interface MobileShellOptions {
  plugins: CapacitorPushPlugins & { app: Pick<AppPlugin, 'getInfo' | 'addListener' | 'exitApp'> };
  storage: KeyValueStorage;
  api: PushApi;
  notifier: PushNotifier;
  navigation: BackButtonNavigation;
  locale?: string;
  logger?: Logger;
  /** A push received in the foreground (the portal refreshes its notification list and badge). */
  onNotification?: (notification: PushNotificationPayload) => void;
}

export interface MobileShell {
  push: PushRegistration;
  /** Call when a company is selected (spec: push starts then); no-op on the web. */
  startPush(): ReturnType<PushRegistration['initialize']>;
  /** Call on logout: unregisters the device and deactivates the token on the server. */
  stopPush(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Wires the native side of the portal: push registration (core's state machine over Capacitor),
 * notification taps that open the notification list, and the hardware back button.
 */
export async function startMobileShell(options: MobileShellOptions): Promise<MobileShell> {
  const platform = new CapacitorPushPlatform(options.plugins);
  const push = new PushRegistration({
    platform,
    storage: options.storage,
    api: options.api,
    notifier: options.notifier,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.locale ? { locale: options.locale } : {}),
    onOpenNotifications: () => options.navigation.navigate(NOTIFICATIONS_PATH),
    ...(options.onNotification ? { onNotification: options.onNotification } : {}),
  });
  const handles: PushListenerHandle[] = [];
  if (platform.isNative()) handles.push(await installBackButton(options.plugins.app, options.navigation));
  return {
    push,
    startPush: () => push.initialize(),
    stopPush: () => push.unregister(),
    async dispose() {
      await push.dispose();
      for (const handle of handles.splice(0)) await handle.remove();
    },
  };
}
