import type { CapacitorPushPlugins } from './capacitor-push-platform';
import type { MobileShellOptions } from './mobile-shell';

/**
 * The real Capacitor plugin objects, loaded on demand so the web build never carries them: the
 * portal calls this only when the Capacitor runtime says it is native.
 */
export async function loadCapacitorPlugins(): Promise<MobileShellOptions['plugins'] & CapacitorPushPlugins> {
  const [{ Capacitor }, { PushNotifications }, { LocalNotifications }, { App }] = await Promise.all([
    import('@capacitor/core'),
    import('@capacitor/push-notifications'),
    import('@capacitor/local-notifications'),
    import('@capacitor/app'),
  ]);
  return { capacitor: Capacitor, push: PushNotifications, local: LocalNotifications, app: App };
}

/** True inside the native shell (Capacitor injects its runtime as a global before the page runs). */
export function isNativeShell(scope: unknown = globalThis): boolean {
  const runtime = (scope as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor;
  return typeof runtime?.isNativePlatform === 'function' && runtime.isNativePlatform();
}
