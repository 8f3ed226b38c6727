import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config';
import { route } from '../http/route';
import { NominatimGeocoder } from './nominatim';
import { GeocodingService } from './service';

/** Builds the service from the settings: no GEOCODER_URL, no geocoder (addresses off). */
export function geocodingFromConfig(app: FastifyInstance, config: Config): GeocodingService {
  const geocoder = config.GEOCODER_URL
    ? new NominatimGeocoder(config.GEOCODER_URL, {
        userAgent: config.GEOCODER_USER_AGENT,
        timeoutMs: config.GEOCODER_TIMEOUT_MS,
      })
    : null;
  return new GeocodingService(app.ctx.storage.db, geocoder, {
    ratePerSec: config.GEOCODER_RATE_PER_SEC,
    maxWaitMs: config.GEOCODER_WAIT_MS,
  });
}

const shared = new WeakMap<object, GeocodingService>();

/**
 * The one geocoding service of a server (keyed by its context): the geocoding route and the report
 * routes share it, so they share one rate limit and one set of in-flight lookups.
 */
export function geocodingFor(app: FastifyInstance, config: Config): GeocodingService {
  let service = shared.get(app.ctx);
  if (!service) {
    service = geocodingFromConfig(app, config);
    shared.set(app.ctx, service);
  }
  return service;
}

/** POST /v1/geocoding/reverse: addresses of up to 25 positions in the caller's language (X-Locale). */
export function registerGeocodingRoutes(app: FastifyInstance, config: Config): GeocodingService {
  const service = geocodingFor(app, config);
  route(app, 'geocoding.reverse', async ({ req, body }) => {
    const addresses = await service.reverse(body.points, req.locale);
    return {
      data: {
        enabled: service.enabled,
        results: body.points.map((p, i) => ({ lat: p.lat, lng: p.lng, address: addresses[i] ?? null })),
      },
    };
  });
  return service;
}
