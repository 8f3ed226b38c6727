/** Geofences and what crossing them records: entry and exit events, Salik gates and toll crossings. */
import { dataEnvelope, entityStatusSchema, paginated, uuidParamsSchema } from '../schemas/common';
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
} from '../schemas/geofence';
import { crud, endpoint } from './define';

export const geofenceEventEndpoints = {
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

export const geofenceCrud = crud('geofences', 'geofences', 'geofence', {
  item: geofenceSchema,
  input: geofenceInputSchema,
  query: geofenceListQuerySchema,
  status: entityStatusSchema,
});
