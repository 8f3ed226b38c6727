/**
 * The endpoint table of API v1: one entry per call, used by the server (routes, validation, OpenAPI) and
 * by the client (paths, headers, response validation).
 *
 * Each entry: method, path template ('/v1/vehicles/:uuid'), zod schemas of params, query and body, the
 * response schema, and `auth`: 'none' (public), 'session' (a bearer token) or 'company' (a bearer token and
 * the X-Transport-Uuid header of a company the user belongs to). Names are '<group>.<action>'.
 */
import { z } from 'zod';
import { activityLogEntrySchema, activityLogQuerySchema } from './schemas/activity';
import { baseLayersResponseSchema } from './schemas/map';
import {
  guardianSubscriptionResponseSchema,
  publicTokenParamsSchema,
  trackedTripResponseSchema,
  trackingLinksRevokedResponseSchema,
} from './schemas/guardian-messages';
import { reverseGeocodeInputSchema, reverseGeocodeResponseSchema } from './schemas/geocoding';
import {
  messageListQuerySchema,
  outboundMessageDetailSchema,
  outboundMessageSchema,
  shareEmailInputSchema,
  shareEmailResponseSchema,
} from './schemas/message';
import {
  authResponseSchema,
  changePasswordInputSchema,
  forgotPasswordInputSchema,
  loginInputSchema,
  loginResponseSchema,
  otpSendInputSchema,
  otpSendResponseSchema,
  otpVerifyInputSchema,
  otpVerifyResponseSchema,
  resetPasswordInputSchema,
  setPasswordInputSchema,
  switchCompanyInputSchema,
  switchCompanyResponseSchema,
  tokenParamsSchema,
  verifyPasswordInputSchema,
  verifyPasswordResponseSchema,
} from './schemas/auth';
import {
  verifiedCommandTypes,
  deviceCommandInputSchema,
  deviceCommandListQuerySchema,
  deviceCommandSchema,
  supportedCommandsSchema,
} from './schemas/command';
import {
  dataEnvelope,
  entityStatusSchema,
  messageResponseSchema,
  paginated,
  statusInputSchema,
  tripStatusSchema,
  uuidParamsSchema,
  vehicleStatusSchema,
} from './schemas/common';
import {
  branchInputSchema,
  branchListQuerySchema,
  branchSchema,
  companyCreateInputSchema,
  companyCreatedSchema,
  platformCompanySchema,
  stationInputSchema,
  stationListQuerySchema,
  stationSchema,
} from './schemas/company';
import {
  countryCodeParamsSchema,
  deviceOptionSchema,
  nestedListEnvelope,
  optionSchema,
} from './schemas/configuration';
import {
  deviceInputSchema,
  deviceListQuerySchema,
  deviceSchema,
  unknownDeviceListQuerySchema,
  unknownDeviceSchema,
} from './schemas/device';
import {
  deviceSensorsInputSchema,
  deviceSensorsSchema,
  frameCounterSchema,
  rawFrameListQuerySchema,
  rawFrameReplayInputSchema,
  rawFrameReplayOutcomeSchema,
  rawFrameSchema,
} from './schemas/device-field';
import { driverInputSchema, driverListQuerySchema, driverSchema } from './schemas/driver';
import { fileParamsSchema, fileQuerySchema, uploadParamsSchema, uploadedFileSchema } from './schemas/files';
import {
  geofenceEventListQuerySchema,
  geofenceEventSchema,
  geofenceInputSchema,
  geofenceListQuerySchema,
  geofenceSchema,
  salikEventListQuerySchema,
  salikEventSchema,
  salikGateListQuerySchema,
  salikGateSchema,
} from './schemas/geofence';
import { vehicleLocationsQuerySchema, vehicleLocationsResponseSchema } from './schemas/location';
import {
  fcmTokenDeactivateInputSchema,
  fcmTokenDeactivateResponseSchema,
  fcmTokenRegisterInputSchema,
  fcmTokenRegisterResponseSchema,
  notificationListQuerySchema,
  notificationRuleInputSchema,
  notificationRuleListQuerySchema,
  notificationRuleSchema,
  notificationSchema,
  readAllResultSchema,
  unreadCountSchema,
} from './schemas/notification';
import {
  guardianInputSchema,
  guardianListQuerySchema,
  guardianSchema,
  passengerInputSchema,
  passengerListQuerySchema,
  passengerSchema,
  supervisorInputSchema,
  supervisorListQuerySchema,
  supervisorSchema,
} from './schemas/people';
import {
  dashboardQuerySchema,
  dashboardSchema,
  reportExportInputSchema,
  reportExportJobSchema,
  reportQuerySchema,
  routeFileQuerySchema,
  reportScheduleInputSchema,
  reportScheduleSchema,
  reportResponseSchema,
  type ReportKind,
} from './schemas/report';
import { schoolInputSchema, schoolListQuerySchema, schoolSchema } from './schemas/school';
import {
  deviceTripListQuerySchema,
  deviceTripSchema,
  scheduledTripInputSchema,
  scheduledTripListQuerySchema,
  scheduledTripSchema,
  tripInputSchema,
  tripListQuerySchema,
  tripSchema,
  tripsAppRecordInputSchema,
  tripsAppRecordListQuerySchema,
  tripsAppRecordSchema,
} from './schemas/trips';
import { userInputSchema, userListQuerySchema, userSchema } from './schemas/user';
import {
  liveVehiclesQuerySchema,
  liveVehiclesResponseSchema,
  shareLinkInputSchema,
  shareLinkResponseSchema,
  sharedLocationResponseSchema,
  vehicleInputSchema,
  vehicleListQuerySchema,
  vehicleSchema,
} from './schemas/vehicle';

export const API_PREFIX = '/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuthLevel = 'none' | 'session' | 'company';

export interface EndpointDef {
  method: HttpMethod;
  /** Template with ':name' parameters, e.g. '/v1/vehicles/:uuid'. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** 'multipart': the body is FormData with a `file` field, not JSON (uploads). */
  bodyType?: 'json' | 'multipart';
  response: z.ZodType;
  /** 'blob': the answer is a file, not JSON. */
  responseType?: 'json' | 'blob';
  auth: AuthLevel;
  summary: string;
}

function endpoint<const E extends EndpointDef>(definition: E): E {
  return definition;
}

/** A file answer (GET /v1/file/...). The client gives a Blob; the server streams the file. */
export const binaryResponseSchema = z.custom<Blob>((value) => value instanceof Blob, {
  error: 'Expected a file',
});

// ---------------------------------------------------------------------------------------------------------
// CRUD groups
// ---------------------------------------------------------------------------------------------------------

type Crud<
  N extends string,
  R extends z.ZodType,
  I extends z.ZodType,
  Q extends z.ZodType,
  S extends z.ZodType,
> = Record<
  `${N}.list`,
  {
    method: 'GET';
    path: string;
    query: Q;
    response: ReturnType<typeof paginated<R>>;
    auth: 'company';
    summary: string;
  }
> &
  Record<
    `${N}.create`,
    {
      method: 'POST';
      path: string;
      body: I;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.show`,
    {
      method: 'GET';
      path: string;
      params: typeof uuidParamsSchema;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.update`,
    {
      method: 'PUT';
      path: string;
      params: typeof uuidParamsSchema;
      body: I;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.delete`,
    {
      method: 'DELETE';
      path: string;
      params: typeof uuidParamsSchema;
      response: typeof messageResponseSchema;
      auth: 'company';
      summary: string;
    }
  > &
  Record<
    `${N}.status`,
    {
      method: 'PATCH';
      path: string;
      params: typeof uuidParamsSchema;
      body: ReturnType<typeof statusInputSchema<S>>;
      response: ReturnType<typeof dataEnvelope<R>>;
      auth: 'company';
      summary: string;
    }
  >;

/**
 * list (GET /v1/R), create (POST /v1/R), show / update / delete (GET, PUT, DELETE /v1/R/:uuid) and status
 * (PATCH /v1/R/:uuid/status {status}) of one managed resource.
 */
function crud<
  const N extends string,
  R extends z.ZodType,
  I extends z.ZodType,
  Q extends z.ZodType,
  S extends z.ZodType,
>(
  name: N,
  resource: string,
  label: string,
  s: { item: R; input: I; query: Q; status: S },
): Crud<N, R, I, Q, S> {
  const path = `${API_PREFIX}/${resource}`;
  const one = `${path}/:uuid`;
  return {
    [`${name}.list`]: {
      method: 'GET',
      path,
      query: s.query,
      response: paginated(s.item),
      auth: 'company',
      summary: `List ${label}`,
    },
    [`${name}.create`]: {
      method: 'POST',
      path,
      body: s.input,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Create a ${label} record`,
    },
    [`${name}.show`]: {
      method: 'GET',
      path: one,
      params: uuidParamsSchema,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Details of a ${label} record`,
    },
    [`${name}.update`]: {
      method: 'PUT',
      path: one,
      params: uuidParamsSchema,
      body: s.input,
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Update a ${label} record`,
    },
    [`${name}.delete`]: {
      method: 'DELETE',
      path: one,
      params: uuidParamsSchema,
      response: messageResponseSchema,
      auth: 'company',
      summary: `Delete a ${label} record`,
    },
    [`${name}.status`]: {
      method: 'PATCH',
      path: `${one}/status`,
      params: uuidParamsSchema,
      body: statusInputSchema(s.status),
      response: dataEnvelope(s.item),
      auth: 'company',
      summary: `Change the status of a ${label} record`,
    },
  } as Crud<N, R, I, Q, S>;
}

function report<const K extends ReportKind>(kind: K) {
  return endpoint({
    method: 'GET',
    path: `${API_PREFIX}/reports/${kind}`,
    query: reportQuerySchema,
    response: reportResponseSchema(kind),
    auth: 'company',
    summary: `Report: ${kind}`,
  });
}

const auth = {
  'auth.login': endpoint({
    method: 'POST',
    path: '/v1/login',
    body: loginInputSchema,
    response: loginResponseSchema,
    auth: 'none',
    summary: 'Sign in with email or phone and password',
  }),
  'auth.me': endpoint({
    method: 'GET',
    path: '/v1/auth',
    response: authResponseSchema,
    auth: 'session',
    summary: 'The signed-in user and their transport companies',
  }),
  'auth.logout': endpoint({
    method: 'DELETE',
    path: '/v1/logout',
    response: messageResponseSchema,
    auth: 'session',
    summary: 'Revoke the session',
  }),
  'auth.setPassword': endpoint({
    method: 'POST',
    path: '/v1/set-password/:token',
    params: tokenParamsSchema,
    body: setPasswordInputSchema,
    response: messageResponseSchema,
    auth: 'none',
    summary: 'Set the password from an invitation link',
  }),
  'auth.forgotPassword': endpoint({
    method: 'POST',
    path: '/v1/forgot-password',
    body: forgotPasswordInputSchema,
    response: messageResponseSchema,
    auth: 'none',
    summary: 'Send a password reset link or code',
  }),
  'auth.resetPassword': endpoint({
    method: 'POST',
    path: '/v1/reset-password',
    body: resetPasswordInputSchema,
    response: messageResponseSchema,
    auth: 'none',
    summary: 'Reset the password with a reset token',
  }),
  'auth.changePassword': endpoint({
    method: 'POST',
    path: '/v1/change-password',
    body: changePasswordInputSchema,
    response: messageResponseSchema,
    auth: 'session',
    summary: 'Change the password of the signed-in user',
  }),
  'auth.otpSend': endpoint({
    method: 'POST',
    path: '/v1/otp/send',
    body: otpSendInputSchema,
    response: otpSendResponseSchema,
    auth: 'none',
    summary: 'Send a one-time code',
  }),
  'auth.otpVerify': endpoint({
    method: 'POST',
    path: '/v1/otp/verify',
    body: otpVerifyInputSchema,
    response: otpVerifyResponseSchema,
    auth: 'none',
    summary: 'Verify a one-time code',
  }),
  'auth.verifyPassword': endpoint({
    method: 'POST',
    path: '/v1/verify-password',
    body: verifyPasswordInputSchema,
    response: verifyPasswordResponseSchema,
    auth: 'session',
    summary: 'Re-enter the password for a sensitive action; answers a short-lived verification token',
  }),
  'auth.switchCompany': endpoint({
    method: 'POST',
    path: '/v1/switch-company',
    body: switchCompanyInputSchema,
    response: switchCompanyResponseSchema,
    auth: 'session',
    summary: 'Switch the transport company of the session',
  }),
} as const;

/** Platform operation: super admins only (the rule lives in tenancy/ranks.ts assertPlatformOperator). */
const platform = {
  'companies.list': endpoint({
    method: 'GET',
    path: '/v1/platform/companies',
    response: dataEnvelope(z.array(platformCompanySchema)),
    auth: 'session',
    summary: 'Every transport company of the platform (super admins only)',
  }),
  'companies.create': endpoint({
    method: 'POST',
    path: '/v1/platform/companies',
    body: companyCreateInputSchema,
    response: dataEnvelope(companyCreatedSchema),
    auth: 'session',
    summary:
      'Onboard a transport company with its first company admin, who gets a set-password invitation (super admins only)',
  }),
} as const;

const configurations = {
  'map.baseLayers': endpoint({
    method: 'GET',
    path: '/v1/map/base-layers',
    response: baseLayersResponseSchema,
    auth: 'session',
    summary: 'Base layers (tile sources) configured for the maps',
  }),
  'geocoding.reverse': endpoint({
    method: 'POST',
    path: '/v1/geocoding/reverse',
    body: reverseGeocodeInputSchema,
    response: reverseGeocodeResponseSchema,
    auth: 'session',
    summary: 'Addresses of positions in the reader language (X-Locale), from the configured geocoder',
  }),
  'configurations.devices': endpoint({
    method: 'GET',
    path: '/v1/configurations/options/devices',
    response: nestedListEnvelope(deviceOptionSchema),
    auth: 'company',
    summary: 'Device options for vehicle forms',
  }),
  'configurations.vehicleTypes': endpoint({
    method: 'GET',
    path: '/v1/configurations/options/vehicle-types',
    response: nestedListEnvelope(optionSchema),
    auth: 'session',
    summary: 'Vehicle type options',
  }),
  'configurations.vehicleStates': endpoint({
    method: 'GET',
    path: '/v1/configurations/options/vehicle/states/:country_code',
    params: countryCodeParamsSchema,
    response: nestedListEnvelope(optionSchema),
    auth: 'session',
    summary: 'Plate state options of a country',
  }),
  'device.supportedCommands': endpoint({
    method: 'GET',
    path: '/v1/device/commands/supported',
    response: z.object({ data: z.object({ data: supportedCommandsSchema }) }),
    auth: 'session',
    summary: 'Command types each device type supports',
  }),
} as const;

const locations = {
  'deviceLocations.vehicle': endpoint({
    method: 'GET',
    path: '/v1/device-locations/vehicle/locations',
    query: vehicleLocationsQuerySchema,
    response: vehicleLocationsResponseSchema,
    auth: 'company',
    summary: 'Locations of one vehicle over a range, pages of up to 500',
  }),
} as const;

const fcm = {
  'fcmTokens.register': endpoint({
    method: 'POST',
    path: '/v1/fcm-tokens/register',
    body: fcmTokenRegisterInputSchema,
    response: fcmTokenRegisterResponseSchema,
    auth: 'session',
    summary: 'Register a push token',
  }),
  'fcmTokens.deactivate': endpoint({
    method: 'POST',
    path: '/v1/fcm-tokens/deactivate',
    body: fcmTokenDeactivateInputSchema,
    response: fcmTokenDeactivateResponseSchema,
    auth: 'session',
    summary: 'Deactivate a push token',
  }),
} as const;

const vehicleExtras = {
  'vehicles.live': endpoint({
    method: 'GET',
    path: '/v1/vehicles/live',
    query: liveVehiclesQuerySchema,
    response: liveVehiclesResponseSchema,
    auth: 'company',
    summary: 'Vehicles with latest location and live status, and counts per status tab',
  }),
  'vehicles.share': endpoint({
    method: 'POST',
    path: '/v1/vehicles/:uuid/share',
    params: uuidParamsSchema,
    body: shareLinkInputSchema,
    response: shareLinkResponseSchema,
    auth: 'company',
    summary: 'Create a share-location link',
  }),
  'share.show': endpoint({
    method: 'GET',
    path: '/v1/share/:token',
    params: tokenParamsSchema,
    response: sharedLocationResponseSchema,
    auth: 'none',
    summary: 'Public view of a shared vehicle location',
  }),
} as const;

const deviceExtras = {
  'devices.unknown': endpoint({
    method: 'GET',
    path: '/v1/devices/unknown',
    query: unknownDeviceListQuerySchema,
    response: paginated(unknownDeviceSchema),
    auth: 'company',
    summary: 'Devices that tried to connect with an unknown IMEI',
  }),
  'devices.unknownDismiss': endpoint({
    method: 'DELETE',
    path: '/v1/devices/unknown/:uuid',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Dismiss an unknown device',
  }),
  'devices.commandSend': endpoint({
    method: 'POST',
    path: '/v1/devices/:uuid/commands',
    params: uuidParamsSchema,
    body: deviceCommandInputSchema,
    response: dataEnvelope(deviceCommandSchema),
    auth: 'company',
    summary: `Send (or queue) a command to a device (password step-up, verification_token, for: ${verifiedCommandTypes.join(', ')})`,
  }),
  'devices.commandList': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/commands',
    params: uuidParamsSchema,
    query: deviceCommandListQuerySchema,
    response: paginated(deviceCommandSchema),
    auth: 'company',
    summary: 'Command history of a device',
  }),
  'devices.rawFrames': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/raw-frames',
    params: uuidParamsSchema,
    query: rawFrameListQuerySchema,
    response: dataEnvelope(z.array(rawFrameSchema)),
    auth: 'company',
    summary: 'Frames of a device the gateway could not decode (super admins)',
  }),
  'devices.rawFramesReplay': endpoint({
    method: 'POST',
    path: '/v1/devices/:uuid/raw-frames/replay',
    params: uuidParamsSchema,
    body: rawFrameReplayInputSchema,
    response: dataEnvelope(z.array(rawFrameReplayOutcomeSchema)),
    auth: 'company',
    summary: 'Feed archived frames through the decoder again (super admins)',
  }),
  'devices.frameCounters': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/frame-counters',
    params: uuidParamsSchema,
    response: dataEnvelope(z.array(frameCounterSchema)),
    auth: 'company',
    summary: 'Frames decoded, refused and archived per protocol',
  }),
  'devices.sensors': endpoint({
    method: 'GET',
    path: '/v1/devices/:uuid/sensors',
    params: uuidParamsSchema,
    response: dataEnvelope(deviceSensorsSchema),
    auth: 'company',
    summary: 'Sensor settings of a device (ignition, odometer, fuel calibration)',
  }),
  'devices.sensorsUpdate': endpoint({
    method: 'PUT',
    path: '/v1/devices/:uuid/sensors',
    params: uuidParamsSchema,
    body: deviceSensorsInputSchema,
    response: dataEnvelope(deviceSensorsSchema),
    auth: 'company',
    summary: 'Record a new sensor setting of a device, applying from a chosen time',
  }),
} as const;

const events = {
  'deviceTrips.list': endpoint({
    method: 'GET',
    path: '/v1/device-trips',
    query: deviceTripListQuerySchema,
    response: paginated(deviceTripSchema),
    auth: 'company',
    summary: 'Trips detected from devices',
  }),
  'deviceTrips.show': endpoint({
    method: 'GET',
    path: '/v1/device-trips/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(deviceTripSchema),
    auth: 'company',
    summary: 'Details of a trip detected from a device',
  }),
  'geofenceEvents.list': endpoint({
    method: 'GET',
    path: '/v1/geofences/events',
    query: geofenceEventListQuerySchema,
    response: paginated(geofenceEventSchema),
    auth: 'company',
    summary: 'Geofence entry and exit events',
  }),
  'geofenceEvents.show': endpoint({
    method: 'GET',
    path: '/v1/geofences/events/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(geofenceEventSchema),
    auth: 'company',
    summary: 'Details of a geofence event',
  }),
  'salikEvents.list': endpoint({
    method: 'GET',
    path: '/v1/geofences/events/salik',
    query: salikEventListQuerySchema,
    response: paginated(salikEventSchema),
    auth: 'company',
    summary: 'Salik toll crossings',
  }),
  'salikEvents.show': endpoint({
    method: 'GET',
    path: '/v1/geofences/events/salik/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(salikEventSchema),
    auth: 'company',
    summary: 'Details of a salik crossing',
  }),
  'salikGates.list': endpoint({
    method: 'GET',
    path: '/v1/salik-gates',
    query: salikGateListQuerySchema,
    response: paginated(salikGateSchema),
    auth: 'company',
    summary: 'Salik toll gates',
  }),
  'salikGates.show': endpoint({
    method: 'GET',
    path: '/v1/salik-gates/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(salikGateSchema),
    auth: 'company',
    summary: 'Details of a salik gate',
  }),
} as const;

const notifications = {
  'notifications.list': endpoint({
    method: 'GET',
    path: '/v1/notifications',
    query: notificationListQuerySchema,
    response: paginated(notificationSchema),
    auth: 'company',
    summary: "The user's notifications",
  }),
  'notifications.unreadCount': endpoint({
    method: 'GET',
    path: '/v1/notifications/unread-count',
    response: dataEnvelope(unreadCountSchema),
    auth: 'company',
    summary: 'Number of unread notifications',
  }),
  'notifications.show': endpoint({
    method: 'GET',
    path: '/v1/notifications/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(notificationSchema),
    auth: 'company',
    summary: 'Details of a notification',
  }),
  'notifications.read': endpoint({
    method: 'POST',
    path: '/v1/notifications/:uuid/read',
    params: uuidParamsSchema,
    response: dataEnvelope(notificationSchema),
    auth: 'company',
    summary: 'Mark a notification read',
  }),
  'notifications.readAll': endpoint({
    method: 'POST',
    path: '/v1/notifications/read-all',
    response: dataEnvelope(readAllResultSchema),
    auth: 'company',
    summary: 'Mark every notification read',
  }),
} as const;

const reports = {
  'reports.dashboard': endpoint({
    method: 'GET',
    path: '/v1/reports/dashboard',
    query: dashboardQuerySchema,
    response: dataEnvelope(dashboardSchema),
    auth: 'company',
    summary: 'Home dashboard figures for a period',
  }),
  'reports.fuel': report('fuel'),
  'reports.engine': report('engine'),
  'reports.wheel': report('wheel'),
  'reports.trips': report('trips'),
  'reports.stops': report('stops'),
  'reports.idling': report('idling'),
  'reports.geofenceVisits': report('geofence-visits'),
  'reports.salik': report('salik'),
  'reports.violations': report('violations'),
  'reports.tripList': report('trip-list'),
  'reports.summary': report('summary'),
  'reports.events': report('events'),
  'reports.route': report('route'),
  'reports.utilisation': report('utilisation'),
  'reports.driverActivity': report('driver-activity'),
  'reports.salikMonthly': report('salik-monthly'),
  'reports.scheduleList': endpoint({
    method: 'GET',
    path: '/v1/reports/schedules',
    response: dataEnvelope(z.array(reportScheduleSchema)),
    auth: 'company',
    summary: "The user's scheduled reports",
  }),
  'reports.scheduleCreate': endpoint({
    method: 'POST',
    path: '/v1/reports/schedules',
    body: reportScheduleInputSchema,
    response: dataEnvelope(reportScheduleSchema),
    auth: 'company',
    summary: 'Schedule a report by e-mail (daily, weekly, monthly)',
  }),
  'reports.scheduleDelete': endpoint({
    method: 'DELETE',
    path: '/v1/reports/schedules/:uuid',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Stop a scheduled report',
  }),
  'reports.routeFile': endpoint({
    method: 'GET',
    path: '/v1/reports/route/file',
    query: routeFileQuerySchema,
    response: binaryResponseSchema,
    responseType: 'blob',
    auth: 'company',
    summary: 'Route of one vehicle as a GPX or KML track',
  }),
  'reports.exportCreate': endpoint({
    method: 'POST',
    path: '/v1/reports/exports',
    body: reportExportInputSchema,
    response: dataEnvelope(reportExportJobSchema),
    auth: 'company',
    summary: 'Start a report export (csv, xlsx, pdf)',
  }),
  'reports.exportShow': endpoint({
    method: 'GET',
    path: '/v1/reports/exports/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(reportExportJobSchema),
    auth: 'company',
    summary: 'Progress of a report export',
  }),
} as const;

const files = {
  'files.show': endpoint({
    method: 'GET',
    path: '/v1/file/:kind/:name',
    params: fileParamsSchema,
    query: fileQuerySchema,
    response: binaryResponseSchema,
    responseType: 'blob',
    auth: 'session',
    summary: 'Download a stored file',
  }),
  'files.upload': endpoint({
    method: 'POST',
    path: '/v1/files/:kind',
    params: uploadParamsSchema,
    bodyType: 'multipart',
    response: dataEnvelope(uploadedFileSchema),
    auth: 'company',
    summary: 'Upload a file (multipart field "file")',
  }),
  'activityLog.list': endpoint({
    method: 'GET',
    path: '/v1/activity-log',
    query: activityLogQuerySchema,
    response: paginated(activityLogEntrySchema),
    auth: 'company',
    summary: 'User activity log',
  }),
} as const;

/** The endpoint table of API v1. */
/** Outbound messages (issue 14): the outbox status, the local mailbox, invitations, share by e-mail. */
const messages = {
  'messages.list': endpoint({
    method: 'GET',
    path: '/v1/messages',
    query: messageListQuerySchema,
    response: paginated(outboundMessageSchema),
    auth: 'session',
    summary:
      "Sent messages (e-mail and SMS) with their status; super admins see all, a company admin (users.view) the selected company's",
  }),
  'messages.show': endpoint({
    method: 'GET',
    path: '/v1/messages/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(outboundMessageDetailSchema),
    auth: 'session',
    summary: 'One sent message; its content (local mailbox) for super admins only',
  }),
  'users.invite': endpoint({
    method: 'POST',
    path: '/v1/users/:uuid/invite',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Send the set-password invitation again (a new link; earlier links stop working)',
  }),
  'vehicles.shareEmail': endpoint({
    method: 'POST',
    path: '/v1/vehicles/:uuid/share/email',
    params: uuidParamsSchema,
    body: shareEmailInputSchema,
    response: shareEmailResponseSchema,
    auth: 'company',
    summary: 'Share the live location by e-mail: an expiring link mailed to each address',
  }),
} as const;

/**
 * Guardians' messages (issue 14): the public tracking page of a message's link, the unsubscribe link of
 * every guardian message, and revoking a guardian's tracking links.
 */
const guardianMessages = {
  'track.show': endpoint({
    method: 'GET',
    path: '/v1/track/:token',
    params: publicTokenParamsSchema,
    response: trackedTripResponseSchema,
    auth: 'none',
    summary: "Public view of a guardian's tracking link: that trip's bus and its way to the guardian's stop",
  }),
  'unsubscribe.show': endpoint({
    method: 'GET',
    path: '/v1/unsubscribe/:token',
    params: publicTokenParamsSchema,
    response: guardianSubscriptionResponseSchema,
    auth: 'none',
    summary: 'Whether the guardian of an unsubscribe link still gets messages (changes nothing)',
  }),
  'unsubscribe.confirm': endpoint({
    method: 'POST',
    path: '/v1/unsubscribe/:token',
    params: publicTokenParamsSchema,
    response: guardianSubscriptionResponseSchema,
    auth: 'none',
    summary: "Stop the guardian's messages on the link's channel",
  }),
  'guardians.revokeTracking': endpoint({
    method: 'POST',
    path: '/v1/guardians/:uuid/tracking-links/revoke',
    params: uuidParamsSchema,
    response: trackingLinksRevokedResponseSchema,
    auth: 'company',
    summary: "Make every open tracking link of a guardian's messages stop working",
  }),
} as const;

export const endpoints = {
  ...auth,
  ...platform,
  ...messages,
  ...guardianMessages,
  ...configurations,
  ...locations,
  ...fcm,
  // Static routes first in reading order; routers give static segments precedence over ':uuid' anyway.
  ...vehicleExtras,
  ...deviceExtras,
  ...events,
  ...notifications,
  ...reports,
  ...files,
  ...crud('vehicles', 'vehicles', 'vehicle', {
    item: vehicleSchema,
    input: vehicleInputSchema,
    query: vehicleListQuerySchema,
    status: vehicleStatusSchema,
  }),
  ...crud('drivers', 'drivers', 'driver', {
    item: driverSchema,
    input: driverInputSchema,
    query: driverListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('devices', 'devices', 'device', {
    item: deviceSchema,
    input: deviceInputSchema,
    query: deviceListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('users', 'users', 'user', {
    item: userSchema,
    input: userInputSchema,
    query: userListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('geofences', 'geofences', 'geofence', {
    item: geofenceSchema,
    input: geofenceInputSchema,
    query: geofenceListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('branches', 'branches', 'branch', {
    item: branchSchema,
    input: branchInputSchema,
    query: branchListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('stations', 'stations', 'station', {
    item: stationSchema,
    input: stationInputSchema,
    query: stationListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('schools', 'schools', 'school', {
    item: schoolSchema,
    input: schoolInputSchema,
    query: schoolListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('passengers', 'passengers', 'passenger', {
    item: passengerSchema,
    input: passengerInputSchema,
    query: passengerListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('guardians', 'guardians', 'guardian', {
    item: guardianSchema,
    input: guardianInputSchema,
    query: guardianListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('supervisors', 'supervisors', 'supervisor', {
    item: supervisorSchema,
    input: supervisorInputSchema,
    query: supervisorListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('trips', 'trips', 'trip', {
    item: tripSchema,
    input: tripInputSchema,
    query: tripListQuerySchema,
    status: tripStatusSchema,
  }),
  ...crud('scheduledTrips', 'scheduled-trips', 'scheduled trip', {
    item: scheduledTripSchema,
    input: scheduledTripInputSchema,
    query: scheduledTripListQuerySchema,
    status: entityStatusSchema,
  }),
  ...crud('tripsApp', 'trips-app', 'trips-app', {
    item: tripsAppRecordSchema,
    input: tripsAppRecordInputSchema,
    query: tripsAppRecordListQuerySchema,
    status: tripStatusSchema,
  }),
  ...crud('notificationRules', 'notification-rules', 'notification rule', {
    item: notificationRuleSchema,
    input: notificationRuleInputSchema,
    query: notificationRuleListQuerySchema,
    status: entityStatusSchema,
  }),
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

/**
 * Builds a concrete path from a template and its parameters: buildPath('/v1/vehicles/:uuid', {uuid}) ->
 * '/v1/vehicles/<uuid>'. Values are URI-encoded; a missing or empty parameter throws.
 */
export function buildPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '')
      throw new Error(`buildPath: missing parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** Names of the ':name' parameters of a template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);
}

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * A query string ('?a=1&b=x', or '' when empty) from an object: undefined and null are left out, arrays
 * repeat the key.
 */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
