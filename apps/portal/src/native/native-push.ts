import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MobileShell } from '@fleet/mobile';
import { useServices } from '../state/app-context';

/**
 * Push notifications inside the Capacitor app (spec §4: they start when a company is selected; the
 * web skips push entirely). The native module is loaded only when the Capacitor runtime says it is
 * native, so the web bundle carries none of it.
 */
let shell: Promise<MobileShell | null> | null = null;

function isNative(): boolean {
  const runtime = (globalThis as { Capacitor?: { isNativePlatform?: () => boolean } }).Capacitor;
  return typeof runtime?.isNativePlatform === 'function' && runtime.isNativePlatform();
}

export function useNativePush(): void {
  const { api, storage, toasts, i18n } = useServices();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isNative() || shell) return;
    shell = (async () => {
      const mobile = await import('@fleet/mobile');
      const started = await mobile.startMobileShell({
        plugins: await mobile.loadCapacitorPlugins(),
        storage,
        api: mobile.createPushApi(api),
        notifier: { notify: (kind, message) => toasts.show({ kind, message }) },
        navigation: {
          currentPath: () => window.location.pathname,
          goBack: () => window.history.back(),
          navigate: (path) => navigate(path),
        },
        locale: i18n.language,
      });
      await started.startPush();
      return started;
    })().catch((error: unknown) => {
      console.error('push: native shell failed to start', error);
      return null;
    });
  }, [api, storage, toasts, i18n, navigate]);
}

/** Logout: unregister the device and deactivate its token while the session is still valid. */
export async function stopNativePush(): Promise<void> {
  const current = await shell;
  shell = null;
  if (!current) return;
  await current.stopPush().catch(() => undefined);
  await current.dispose().catch(() => undefined);
}
