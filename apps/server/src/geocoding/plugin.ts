import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import { registerGeocodingRoutes } from './routes';

/**
 * The geocoding part: POST /v1/geocoding/reverse over a Nominatim-compatible geocoder with its cache
 * (geocoding/service.ts). An API part (embedded and the cluster's api role).
 *
 * Its on/off switch is GEOCODER_URL, read inside rather than in server.ts: without a geocoder the route
 * still answers, with `enabled: false`, which is how the portal learns to leave addresses out. Not
 * registering the route would turn that answer into a 404 on every map page. The service holds no
 * timer or connection of its own (a request waits for its rate slot and ends), so nothing stops on
 * close.
 */
const geocodingPart: PartPlugin = async (app, { config }) => {
  registerGeocodingRoutes(app, config);
};

export default fp(geocodingPart, { name: 'geocoding', decorators: { fastify: ['ctx'] }, fastify: '5.x' });
