/** Vehicles: the managed records, the live list and share-location links. */
import { uuidParamsSchema, vehicleStatusSchema } from '../schemas/common';
import { tokenParamsSchema } from '../schemas/auth';
import {
  liveVehiclesQuerySchema,
  liveVehiclesResponseSchema,
  shareLinkInputSchema,
  shareLinkResponseSchema,
  sharedLocationResponseSchema,
  vehicleInputSchema,
  vehicleListQuerySchema,
  vehicleSchema,
} from '../schemas/vehicle';
import { crud, endpoint } from './define';

export const vehicleEndpoints = {
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

export const vehicleCrud = crud('vehicles', 'vehicles', 'vehicle', {
  item: vehicleSchema,
  input: vehicleInputSchema,
  query: vehicleListQuerySchema,
  status: vehicleStatusSchema,
});
