/** Trips: detected from devices, planned (trips, scheduled trips) and recorded by the trips app. */
import {
  dataEnvelope,
  entityStatusSchema,
  paginated,
  tripStatusSchema,
  uuidParamsSchema,
} from '../schemas/common';
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
} from '../schemas/trips';
import { crud, endpoint } from './define';

export const deviceTripEndpoints = {
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
} as const;

export const tripCrud = crud('trips', 'trips', 'trip', {
  item: tripSchema,
  input: tripInputSchema,
  query: tripListQuerySchema,
  status: tripStatusSchema,
});

export const scheduledTripCrud = crud('scheduledTrips', 'scheduled-trips', 'scheduled trip', {
  item: scheduledTripSchema,
  input: scheduledTripInputSchema,
  query: scheduledTripListQuerySchema,
  status: entityStatusSchema,
});

export const tripsAppCrud = crud('tripsApp', 'trips-app', 'trips-app', {
  item: tripsAppRecordSchema,
  input: tripsAppRecordInputSchema,
  query: tripsAppRecordListQuerySchema,
  status: tripStatusSchema,
});
