import type { FastifyInstance } from 'fastify';
import { route } from '../http/route';
import { pipelineConfig } from '../pipeline/config';
import { dashboardReport, salikReport, stopsReport, tripsReport, violationsReport } from './queries';
import { engineReport, fuelReport, geofenceVisitsReport, wheelReport } from './sensors';
import { registerExportRoutes, type ExportRunner } from './exports/jobs';
import { registerDailyReportRoutes } from './report-routes-daily';
import { registerScheduleRoutes, type ReportOutbox } from './schedules';
import { MessengerReportOutbox } from '../messaging/reports';
import type { GeocodingService } from '../geocoding/service';
import type { AddressLookup } from './addresses';

export interface ReportRouteOptions {
  /** Zone the pipeline buckets rollups in (FLEET_TIME_ZONE); requests may come from any other zone. */
  readonly rollupTimeZone: string;
  /**
   * Where scheduled reports are delivered (the messaging module's outbox). Without one they are kept
   * in memory and logged, so schedules and rendering work before the outbox is wired in.
   */
  readonly outbox?: ReportOutbox;
  /**
   * The server's geocoder (geocoding/routes.ts geocodingFor) for the addresses of the stops and trip
   * list pages, waited on at most `geocoderWaitMs` per page. Without one the pages carry the addresses
   * the cache already has; with one that is off (no GEOCODER_URL) they carry none.
   */
  readonly geocoding?: GeocodingService;
  readonly geocoderWaitMs?: number;
}

/** What a report page needs to fill in addresses for a reader of `locale`. */
export interface PlaceOptions {
  readonly lang?: 'en' | 'ar';
  readonly addresses?: AddressLookup;
}

function placeOptions(opts: ReportRouteOptions): (locale: 'en' | 'ar') => PlaceOptions {
  const service = opts.geocoding;
  if (!service) return (lang) => ({ lang });
  if (!service.enabled) return () => ({});
  const wait = opts.geocoderWaitMs ?? 1500;
  const addresses: AddressLookup = (points, lang) => service.reverseWithin(points, lang, wait);
  return (lang) => ({ lang, addresses });
}

/**
 * Report endpoints of the @fleet/api-client contract, reading the pipeline's rollups and event tables
 * (permission 'reports.view'), and the export jobs. The composition root registers them with
 * `registerReportRoutes(app)`; the rollup zone defaults to FLEET_TIME_ZONE (the pipeline's zone, default
 * Asia/Dubai). Day bucketing of the answers uses the request's `Timezone`.
 */
export function registerReportRoutes(
  app: FastifyInstance,
  opts: ReportRouteOptions = { rollupTimeZone: pipelineConfig(process.env).FLEET_TIME_ZONE },
): ExportRunner {
  const db = () => app.ctx.storage.db;
  const tz = opts.rollupTimeZone;
  const perm = { permission: 'reports.view' };
  const places = placeOptions(opts);
  route(
    app,
    'reports.dashboard',
    async ({ req, query, tenant }) =>
      ({ data: await dashboardReport(db(), tenant, query.period, app.ctx.now(), req.timezone, tz) }) as never,
    perm,
  );
  route(
    app,
    'reports.trips',
    async ({ query, tenant }) => (await tripsReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.salik',
    async ({ query, tenant }) => (await salikReport(db(), tenant, query)) as never,
    perm,
  );
  route(
    app,
    'reports.violations',
    async ({ query, tenant }) => (await violationsReport(db(), tenant, query)) as never,
    perm,
  );
  route(
    app,
    'reports.stops',
    async ({ req, query, tenant }) =>
      (await stopsReport(db(), tenant, { ...query, ...places(req.locale) }, 'stops')) as never,
    perm,
  );
  route(
    app,
    'reports.idling',
    async ({ req, query, tenant }) =>
      (await stopsReport(db(), tenant, { ...query, ...places(req.locale) }, 'idles')) as never,
    perm,
  );
  route(
    app,
    'reports.fuel',
    async ({ query, tenant }) => (await fuelReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.engine',
    async ({ query, tenant }) => (await engineReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.wheel',
    async ({ query, tenant }) => (await wheelReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.geofenceVisits',
    async ({ query, tenant }) => (await geofenceVisitsReport(db(), tenant, query)) as never,
    perm,
  );
  registerDailyReportRoutes(app, tz, places);
  registerScheduleRoutes(app, {
    rollupTimeZone: tz,
    // The product's message outbox (messaging/reports.ts); a caller may pass another (tests).
    outbox: opts.outbox ?? new MessengerReportOutbox(() => app.ctx.messenger),
  });
  return registerExportRoutes(app, { rollupTimeZone: tz });
}
