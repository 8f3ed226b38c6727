/** Options and settings the forms and maps read: base layers, geocoding, option lists, device commands. */
import { z } from 'zod';
import { supportedCommandsSchema } from '../schemas/command';
import {
  countryCodeParamsSchema,
  deviceOptionSchema,
  nestedListEnvelope,
  optionSchema,
} from '../schemas/configuration';
import { reverseGeocodeInputSchema, reverseGeocodeResponseSchema } from '../schemas/geocoding';
import { baseLayersResponseSchema } from '../schemas/map';
import { endpoint } from './define';

export const configurationEndpoints = {
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
