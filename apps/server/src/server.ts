import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from './app';
import { registerAuthRoutes } from './auth/routes';
import { registerCrud, type Crud } from './entities/crud';
import { entityDefs } from './entities/definitions';
import { registerUserRoutes } from './entities/users';
import { registerPlatformRoutes } from './entities/companies';
import { registerLocationRoutes } from './modules/locations';
import { registerNotificationRoutes } from './modules/notifications';
import { registerRecordRoutes } from './modules/records';
import { registerDeviceFieldRoutes } from './modules/device-field';
import { registerFileRoutes } from './modules/files';
import { registerWebSocket } from './realtime/ws';
import { registerOpenApi } from './openapi/openapi';
import { registerShareRoutes } from './modules/share';
import { registerCommandRoutes } from './commands/routes';
import { registerSalikGateRoutes } from './modules/salik-gates';
import { instrumentHttp } from './metrics/health';
import { registerMapRoutes } from './map/base-layers';
import { registerGeocodingRoutes } from './geocoding/routes';
import { registerMessagingRoutes } from './messaging/routes';
import { registerGuardianMessageRoutes } from './guardians/routes';

/**
 * Composition of the HTTP API: the app (hooks, errors, hub) plus every route module.
 * main.ts adds the WebSocket endpoint, the portal and the gateway / pipeline.
 */
export async function createServer(
  deps: AppDeps,
): Promise<FastifyInstance & { cruds: Record<string, Crud> }> {
  const app = buildApp(deps);
  instrumentHttp(app);
  await registerWebSocket(app);
  registerAuthRoutes(app);
  const cruds: Record<string, Crud> = {};
  for (const def of entityDefs) cruds[def.name] = registerCrud(app, def);
  registerUserRoutes(app);
  registerPlatformRoutes(app);
  registerLocationRoutes(app);
  registerNotificationRoutes(app);
  registerRecordRoutes(app);
  registerDeviceFieldRoutes(app);
  registerFileRoutes(app);
  registerShareRoutes(app);
  registerOpenApi(app);
  registerCommandRoutes(app);
  registerSalikGateRoutes(app);
  registerMapRoutes(app, deps.config);
  registerGeocodingRoutes(app, deps.config);
  registerMessagingRoutes(app);
  registerGuardianMessageRoutes(app);
  return Object.assign(app, { cruds });
}
