import type { CapacitorConfig } from '@capacitor/cli';

/**
 * The Capacitor wrapper ships the portal's production build (apps/portal/dist) inside a native
 * shell. `npm run sync -w @fleet/mobile` builds the portal and copies it into the platform projects.
 */
const config: CapacitorConfig = {
  appId: 'org.fleetportal.app',
  appName: 'Fleet',
  webDir: '../portal/dist',
  android: { allowMixedContent: false },
  plugins: {
    PushNotifications: { presentationOptions: ['badge', 'sound', 'alert'] },
    LocalNotifications: { smallIcon: 'ic_stat_notification', iconColor: '#1d4ed8' },
  },
};

export default config;
