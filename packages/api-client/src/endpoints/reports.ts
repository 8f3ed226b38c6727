/** Reports: the dashboard, one endpoint per report kind, schedules, route files and exports. */
import { z } from 'zod';
import { dataEnvelope, messageResponseSchema, uuidParamsSchema } from '../schemas/common';
import {
  dashboardQuerySchema,
  dashboardSchema,
  reportExportInputSchema,
  reportExportJobSchema,
  reportQuerySchema,
  routeFileQuerySchema,
  reportScheduleInputSchema,
  reportScheduleSchema,
  reportResponseSchema,
  type ReportKind,
} from '../schemas/report';
import { API_PREFIX, binaryResponseSchema, endpoint } from './define';

function report<const K extends ReportKind>(kind: K) {
  return endpoint({
    method: 'GET',
    path: `${API_PREFIX}/reports/${kind}`,
    query: reportQuerySchema,
    response: reportResponseSchema(kind),
    auth: 'company',
    summary: `Report: ${kind}`,
  });
}

export const reportEndpoints = {
  'reports.dashboard': endpoint({
    method: 'GET',
    path: '/v1/reports/dashboard',
    query: dashboardQuerySchema,
    response: dataEnvelope(dashboardSchema),
    auth: 'company',
    summary: 'Home dashboard figures for a period',
  }),
  'reports.fuel': report('fuel'),
  'reports.engine': report('engine'),
  'reports.wheel': report('wheel'),
  'reports.trips': report('trips'),
  'reports.stops': report('stops'),
  'reports.idling': report('idling'),
  'reports.geofenceVisits': report('geofence-visits'),
  'reports.salik': report('salik'),
  'reports.violations': report('violations'),
  'reports.tripList': report('trip-list'),
  'reports.summary': report('summary'),
  'reports.events': report('events'),
  'reports.route': report('route'),
  'reports.utilisation': report('utilisation'),
  'reports.driverActivity': report('driver-activity'),
  'reports.salikMonthly': report('salik-monthly'),
  'reports.scheduleList': endpoint({
    method: 'GET',
    path: '/v1/reports/schedules',
    response: dataEnvelope(z.array(reportScheduleSchema)),
    auth: 'company',
    summary: "The user's scheduled reports",
  }),
  'reports.scheduleCreate': endpoint({
    method: 'POST',
    path: '/v1/reports/schedules',
    body: reportScheduleInputSchema,
    response: dataEnvelope(reportScheduleSchema),
    auth: 'company',
    summary: 'Schedule a report by e-mail (daily, weekly, monthly)',
  }),
  'reports.scheduleDelete': endpoint({
    method: 'DELETE',
    path: '/v1/reports/schedules/:uuid',
    params: uuidParamsSchema,
    response: messageResponseSchema,
    auth: 'company',
    summary: 'Stop a scheduled report',
  }),
  'reports.routeFile': endpoint({
    method: 'GET',
    path: '/v1/reports/route/file',
    query: routeFileQuerySchema,
    response: binaryResponseSchema,
    responseType: 'blob',
    auth: 'company',
    summary: 'Route of one vehicle as a GPX or KML track',
  }),
  'reports.exportCreate': endpoint({
    method: 'POST',
    path: '/v1/reports/exports',
    body: reportExportInputSchema,
    response: dataEnvelope(reportExportJobSchema),
    auth: 'company',
    summary: 'Start a report export (csv, xlsx, pdf)',
  }),
  'reports.exportShow': endpoint({
    method: 'GET',
    path: '/v1/reports/exports/:uuid',
    params: uuidParamsSchema,
    response: dataEnvelope(reportExportJobSchema),
    auth: 'company',
    summary: 'Progress of a report export',
  }),
} as const;
