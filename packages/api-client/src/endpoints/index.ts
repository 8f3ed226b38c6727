/**
 * The endpoint table of API v1: one entry per call, used by the server (routes, validation, OpenAPI) and
 * by the client (paths, headers, response validation).
 *
 * Each entry: method, path template ('/v1/vehicles/:uuid'), zod schemas of params, query and body, the
 * response schema, and `auth`: 'none' (public), 'session' (a bearer token) or 'company' (a bearer token and
 * the X-Transport-Uuid header of a company the user belongs to). Names are '<group>.<action>'.
 *
 * One file per endpoint group (auth.ts, vehicles.ts, ...) holds that group's entries; this file composes
 * them into the one table, in a fixed order (static routes before the ':uuid' CRUD routes, which is also
 * the order of the OpenAPI document), and derives the client-side types from it.
 */
import type { z } from 'zod';
import { activityLogEndpoints } from './activity-log';
import { authEndpoints } from './auth';
import { branchCrud, platformEndpoints, stationCrud } from './companies';
import { configurationEndpoints } from './configurations';
import { deviceCrud, deviceEndpoints } from './devices';
import { driverCrud } from './drivers';
import { fileEndpoints } from './files';
import { geofenceCrud, geofenceEventEndpoints } from './geofences';
import { guardianMessageEndpoints } from './guardian-messages';
import { locationEndpoints } from './locations';
import { messageEndpoints } from './messages';
import { notificationEndpoints, notificationRuleCrud, pushTokenEndpoints } from './notifications';
import { guardianCrud, passengerCrud, supervisorCrud } from './people';
import { reportEndpoints } from './reports';
import { schoolCrud } from './schools';
import { deviceTripEndpoints, scheduledTripCrud, tripCrud, tripsAppCrud } from './trips';
import { userCrud } from './users';
import { vehicleCrud, vehicleEndpoints } from './vehicles';

export {
  API_PREFIX,
  binaryResponseSchema,
  type AuthLevel,
  type EndpointDef,
  type HttpMethod,
} from './define';
export { buildPath, buildQuery, pathParamNames, type QueryValue } from './paths';

/** The endpoint table of API v1. */
export const endpoints = {
  ...authEndpoints,
  ...platformEndpoints,
  ...messageEndpoints,
  ...guardianMessageEndpoints,
  ...configurationEndpoints,
  ...locationEndpoints,
  ...pushTokenEndpoints,
  // Static routes first in reading order; routers give static segments precedence over ':uuid' anyway.
  ...vehicleEndpoints,
  ...deviceEndpoints,
  ...deviceTripEndpoints,
  ...geofenceEventEndpoints,
  ...notificationEndpoints,
  ...reportEndpoints,
  ...fileEndpoints,
  ...activityLogEndpoints,
  ...vehicleCrud,
  ...driverCrud,
  ...deviceCrud,
  ...userCrud,
  ...geofenceCrud,
  ...branchCrud,
  ...stationCrud,
  ...schoolCrud,
  ...passengerCrud,
  ...guardianCrud,
  ...supervisorCrud,
  ...tripCrud,
  ...scheduledTripCrud,
  ...tripsAppCrud,
  ...notificationRuleCrud,
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

export const endpointNames = Object.keys(endpoints) as EndpointName[];

type SchemaInput<S> = S extends z.ZodType ? z.input<S> : undefined;
type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Path parameters of an endpoint (client side: what the caller passes). */
export type EndpointParams<N extends EndpointName> = Endpoints[N] extends { params: infer P }
  ? SchemaInput<P>
  : undefined;
/** Query of an endpoint (client side). */
export type EndpointQuery<N extends EndpointName> = Endpoints[N] extends { query: infer Q }
  ? SchemaInput<Q>
  : undefined;
/** Body of an endpoint (client side); FormData for uploads. */
export type EndpointBody<N extends EndpointName> = Endpoints[N] extends { bodyType: 'multipart' }
  ? FormData
  : Endpoints[N] extends { body: infer B }
    ? SchemaInput<B>
    : undefined;
/** Parsed answer of an endpoint. */
export type EndpointResponse<N extends EndpointName> = SchemaOutput<Endpoints[N]['response']>;
