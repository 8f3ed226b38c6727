/**
 * What the native side must provide for push notifications. A Capacitor adapter implements it over
 * @capacitor/core (isNativePlatform, getPlatform), @capacitor/push-notifications (permissions,
 * register/unregister, registration / registrationError / pushNotificationReceived /
 * pushNotificationActionPerformed, getDeliveredNotifications), @capacitor/local-notifications
 * (schedule, localNotificationActionPerformed) and @capacitor/app or @capacitor/device (app version).
 * The web build uses an adapter whose isNative() is false: push is skipped entirely.
 */

/** Capacitor's PermissionState. */
export type PushPermissionState = 'prompt' | 'prompt-with-rationale' | 'granted' | 'denied';

/** What listener registration returns (Capacitor's PluginListenerHandle). */
export interface PushListenerHandle {
  remove(): Promise<void> | void;
}

/** A push notification as delivered by the device. */
export interface PushNotificationPayload {
  id?: string;
  title?: string;
  body?: string;
  data?: Record<string, unknown>;
}

/** A tap on a push notification. */
export interface PushNotificationAction {
  actionId: string;
  notification: PushNotificationPayload;
}

/** A local notification to schedule. */
export interface LocalNotificationRequest {
  id: number;
  title: string;
  body: string;
  /** Absolute time to show it at. */
  at: Date;
  extra?: Record<string, unknown>;
}

/** The registration error event: Capacitor reports `{ error: string }`. */
export interface PushRegistrationErrorEvent {
  error: string;
}

export interface PushPlatform {
  /** True on a native (Android/iOS) build, false in a browser. */
  isNative(): boolean;
  /** 'android' | 'ios' | 'web' (Capacitor.getPlatform()). */
  platform(): string;
  checkPermissions(): Promise<PushPermissionState>;
  requestPermissions(): Promise<PushPermissionState>;
  /** Asks the OS for a push token; the answer arrives through onRegistration / onRegistrationError. */
  register(): Promise<void>;
  unregister(): Promise<void>;
  onRegistration(listener: (token: string) => void): Promise<PushListenerHandle>;
  onRegistrationError(listener: (event: PushRegistrationErrorEvent) => void): Promise<PushListenerHandle>;
  /** A push arrived while the app is in the foreground. */
  onNotificationReceived(
    listener: (notification: PushNotificationPayload) => void,
  ): Promise<PushListenerHandle>;
  /** The user tapped a push notification. */
  onNotificationAction(listener: (action: PushNotificationAction) => void): Promise<PushListenerHandle>;
  /** The user tapped a local notification. */
  onLocalNotificationAction(listener: (action: PushNotificationAction) => void): Promise<PushListenerHandle>;
  /** Notifications already in the tray (checked at app start). */
  getDeliveredNotifications(): Promise<PushNotificationPayload[]>;
  scheduleLocalNotification(notification: LocalNotificationRequest): Promise<void>;
  /** The app version string (only sent from a native platform), or null when unknown. */
  appVersion(): Promise<string | null>;
}

/** Body of POST fcm-tokens/register. */
export interface PushTokenRegistration {
  token: string;
  platform: string;
  device_id: string;
  app_version?: string;
}

/** The server side of push registration; rejected errors carry the HTTP `status` when there was one. */
export interface PushApi {
  /** POST fcm-tokens/register; resolves to the answer (`{success, data}`). */
  register(body: PushTokenRegistration): Promise<unknown>;
  /** POST fcm-tokens/deactivate; errors are ignored by the caller. */
  deactivate(token: string): Promise<unknown>;
}

/** Shows a toast; kinds as in the toast model. */
export interface PushNotifier {
  notify(kind: 'success' | 'warning' | 'error', message: string): void;
}
