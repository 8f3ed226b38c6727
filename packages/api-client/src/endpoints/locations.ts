/** Stored positions of a vehicle. */
import { vehicleLocationsQuerySchema, vehicleLocationsResponseSchema } from '../schemas/location';
import { endpoint } from './define';

export const locationEndpoints = {
  'deviceLocations.vehicle': endpoint({
    method: 'GET',
    path: '/v1/device-locations/vehicle/locations',
    query: vehicleLocationsQuerySchema,
    response: vehicleLocationsResponseSchema,
    auth: 'company',
    summary: 'Locations of one vehicle over a range, pages of up to 500',
  }),
} as const;
