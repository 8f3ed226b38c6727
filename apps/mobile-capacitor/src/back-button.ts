import type { AppPlugin } from '@capacitor/app';
import type { PushListenerHandle } from '@fleet/core';

export interface BackButtonNavigation {
  /** The current path of the router (e.g. '/dashboard/live'). */
  currentPath(): string;
  /** Goes one step back in the router's history. */
  goBack(): void;
  /** Navigates to a path (used to leave the mobile menu and sub pages). */
  navigate(path: string): void;
}

/** Pages where the hardware back button leaves the app instead of navigating. */
export const exitPaths: readonly string[] = ['/login', '/dashboard', '/select-transport'];

/**
 * The Android back button as users expect it: close the mobile menu first; go back in history when
 * there is somewhere to go; on the home page (or the sign-in page) leave the app; and from a deep
 * link with no history go to the home page rather than exiting.
 */
export function installBackButton(
  app: Pick<AppPlugin, 'addListener' | 'exitApp'>,
  nav: BackButtonNavigation,
): Promise<PushListenerHandle> {
  return app.addListener('backButton', ({ canGoBack }) => {
    const path = nav.currentPath().replace(/\/+$/, '') || '/';
    if (path === '/menu') {
      nav.goBack();
      return;
    }
    if (exitPaths.includes(path) || path === '/') {
      void app.exitApp();
      return;
    }
    if (canGoBack) nav.goBack();
    else nav.navigate('/dashboard');
  });
}
