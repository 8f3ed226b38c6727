import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route';
import { notFound } from '../http/errors';
import {
  driverActivityReport,
  eventsReport,
  salikMonthlyReport,
  summaryReport,
  tripListReport,
  utilisationReport,
} from './daily-reports';
import { routeFile, routeReport } from './route-report';
import type { PlaceOptions } from './routes';

/**
 * Endpoints of the everyday reports (trip list, summary, events, route with its GPX/KML file,
 * utilisation, driver activity, Salik per month), permission 'reports.view' like every report.
 * `rollupTimeZone` is the pipeline's zone the rollup days are cut in.
 */
export function registerDailyReportRoutes(
  app: FastifyInstance,
  rollupTimeZone: string,
  places: (locale: 'en' | 'ar') => PlaceOptions = (lang) => ({ lang }),
): void {
  const db = () => app.ctx.storage.db;
  const tz = rollupTimeZone;
  const perm = { permission: 'reports.view' };
  route(
    app,
    'reports.tripList',
    async ({ req, query, tenant }) =>
      (await tripListReport(db(), tenant, { ...query, ...places(req.locale) })) as never,
    perm,
  );
  route(
    app,
    'reports.summary',
    async ({ query, tenant }) => (await summaryReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.events',
    async ({ query, tenant, principal }) =>
      (await eventsReport(db(), tenant, { ...query, viewer_id: principal.user.id })) as never,
    perm,
  );
  route(
    app,
    'reports.route',
    async ({ query, tenant }) => (await routeReport(db(), tenant, query)) as never,
    perm,
  );
  route(
    app,
    'reports.utilisation',
    async ({ query, tenant }) => (await utilisationReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.driverActivity',
    async ({ query, tenant }) => (await driverActivityReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.salikMonthly',
    async ({ query, tenant }) => (await salikMonthlyReport(db(), tenant, query, tz)) as never,
    perm,
  );
  route(
    app,
    'reports.routeFile',
    async ({ query, tenant, reply }) => {
      const file = await routeFile(db(), tenant, query);
      if (!file) throw notFound();
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(file.chunks));
    },
    perm,
  );
}
