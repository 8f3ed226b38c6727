import type { FastifyInstance } from 'fastify';
import { registerDeviceEventRoutes } from './device-events';
import { registerUnknownDeviceRoutes } from './unknown-devices';
import { registerActivityLogRoutes } from './activity-log';
import { registerFcmTokenRoutes } from './fcm-tokens';
import { registerConfigurationRoutes } from './configurations';

/**
 * The record endpoints, one file per endpoint group: device trips, geofence and Salik events
 * (device-events.ts), unknown devices, the activity log, FCM tokens and configurations.
 */
export function registerRecordRoutes(app: FastifyInstance): void {
  registerDeviceEventRoutes(app);
  registerUnknownDeviceRoutes(app);
  registerActivityLogRoutes(app);
  registerFcmTokenRoutes(app);
  registerConfigurationRoutes(app);
}
