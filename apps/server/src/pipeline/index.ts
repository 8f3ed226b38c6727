/**
 * The processing pipeline: pure engines (sanity, trips, geofences, Salik, alerts, scheduled trips,
 * rollups) and their wiring (PipelineService on the Bus, PipelineStore port with SQL and memory stores).
 */
export * from './common/types';
export { IO, ioNumber, ioFlag, type IoMap } from './common/io';
export { haversineM, bearingDeg } from './common/geo';
export * from './sanity/sanity';
export * from './trips/trips';
export * from './geofence/geometry';
export * from './geofence/grid-index';
export * from './geofence/tracker';
export * from './salik/tariff';
export * from './salik/gates';
export * from './salik/detector';
export * from './salik/load';
export * from './salik/api-gates';
export * from './alerts/engine';
export * from '../alerts/messages';
export * from './alerts/from-rules';
export * from './scheduled/instances';
export * from './rollups/fuel';
export * from './rollups/rollups';
export * from './rollups/dashboard';
export * from './rollups/sql';
export * from './service/ports';
export * from './service/service';
export * from './service/memory-store';
export * from './service/sql-store';
