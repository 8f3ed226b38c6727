import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { pipelineConfig } from '../pipeline/config';
import { registerReportRoutes } from './routes';
import { geocodingFor } from '../geocoding/routes';

/**
 * The reports part: the report and export routes of the contract. They read what the pipeline stored,
 * so they belong to the API, not to the pipeline: an API-only process (the cluster's api role, or the
 * embedded server with the pipeline switched off) serves them. Rollups are bucketed in the pipeline's
 * FLEET_TIME_ZONE.
 */
const reportsPart: PartPlugin = async (app, { env, config }) => {
  registerReportRoutes(app, {
    rollupTimeZone: pipelineConfig(env).FLEET_TIME_ZONE,
    // The server's one geocoder (shared with POST /v1/geocoding/reverse and its rate limit).
    geocoding: geocodingFor(app, config),
    geocoderWaitMs: config.GEOCODER_REPORT_WAIT_MS,
  });
};

export default fp(reportsPart, { name: 'reports', decorators: { fastify: ['ctx'] }, fastify: '5.x' });
