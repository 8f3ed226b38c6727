export {
  CapacitorPushPlatform,
  type CapacitorPushPlugins,
  type CapacitorRuntime,
} from './capacitor-push-platform';
export { installBackButton, exitPaths, type BackButtonNavigation } from './back-button';
export { createPushApi } from './push-api';
export {
  startMobileShell,
  NOTIFICATIONS_PATH,
  type MobileShell,
  type MobileShellOptions,
} from './mobile-shell';
export { loadCapacitorPlugins, isNativeShell } from './capacitor-plugins';
