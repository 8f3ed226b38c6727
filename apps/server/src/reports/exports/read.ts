import type { ReportKind } from '@fleet/api-client';
import type { Queryable } from '../../storage/db';
import type { Tenant } from '../../tenancy/context';
import {
  salikReport,
  stopsReport,
  tripsReport,
  violationsReport,
  type Cursor,
  type ReportRange,
} from '../queries';
import { engineReport, fuelReport, geofenceVisitsReport, wheelReport } from '../sensors';
import {
  driverActivityReport,
  eventsReport,
  salikMonthlyReport,
  summaryReport,
  tripListReport,
  utilisationReport,
} from '../daily-reports';
import { routeReport } from '../route-report';

/**
 * How an export (and a scheduled report) reads a report: keyset ("seek") pages in the report's own
 * order, each page starting after the sort keys of the previous page's last row (sort key, then id),
 * with no count and no OFFSET (issue 15). Paging with LIMIT/OFFSET plus a count per page made a
 * 100,000-row export quadratic: page k re-read the k-1 pages before it and counted the whole report
 * again, 404 s on PGlite for the trip list of 1,000 vehicles x 30 days. A seek reads each row once, so
 * every page costs about the same, and one page is one short query (with PGlite the query runs on the
 * event loop, so a page must stay well under the ~50 ms budget of issue 18: EXPORT_PAGE_ROWS rows).
 *
 * The report functions take `seek: { after }` and answer `next`, sharing their SQL and row shapes with
 * the API (whose paged answers keep the spec's envelope with `total`, unchanged). One report is read
 * differently: the violations report de-duplicates alerts (DISTINCT ON) over its range for every
 * page, so it is read a month at a time, newest first, like its on-screen order. (Stops and idling
 * were JSON arrays inside device-day rows and had a reader of their own; since migration 0030 they
 * are rows of device_stops and seek like the trip list.)
 */
export const EXPORT_PAGE_ROWS = 500;

/** The range, selection and language of an export (pages and cursors are the reader's business). */
export type ExportQuery = Omit<ReportRange, 'page' | 'limit' | 'seek'>;

interface SeekAnswer {
  data: unknown[];
  next?: Cursor | null;
}
type SeekFetcher = (
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  rollupTimeZone: string,
) => Promise<SeekAnswer>;

const seekers: Record<ReportKind, SeekFetcher> = {
  stops: (db, t, q) => stopsReport(db, t, q, 'stops'),
  idling: (db, t, q) => stopsReport(db, t, q, 'idles'),
  fuel: fuelReport,
  engine: engineReport,
  wheel: wheelReport,
  trips: tripsReport,
  'geofence-visits': (db, t, q) => geofenceVisitsReport(db, t, q),
  salik: (db, t, q) => salikReport(db, t, q),
  violations: (db, t, q) => violationsReport(db, t, q),
  'trip-list': (db, t, q) => tripListReport(db, t, q),
  summary: summaryReport,
  events: (db, t, q) => eventsReport(db, t, q),
  route: (db, t, q) => routeReport(db, t, q),
  utilisation: utilisationReport,
  'driver-activity': driverActivityReport,
  'salik-monthly': salikMonthlyReport,
};

/** One page of an export: its rows and, where the report is in time order, how far through the range. */
export interface ExportPage {
  readonly rows: Record<string, unknown>[];
  /** Share of the range read so far (0-1), or null when the report's order is not by time. */
  readonly done: number | null;
}

const MONTH_MS = 31 * 86_400_000;

/** A turn of the event loop between the steps of a read (each step is one query, or the rows of one). */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** The pages of a report over the export's range, in the report's order. */
export async function* exportPages(
  db: Queryable,
  tenant: Tenant,
  kind: ReportKind,
  q: ExportQuery,
  rollupTimeZone: string,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<ExportPage> {
  const from = Date.parse(q.from);
  const to = Date.parse(q.to);
  const span = Math.max(1, to - from);
  // Violations: month slices, newest first (see the file comment); the rest in one piece.
  const slices: { from: number; to: number }[] = [];
  if (kind === 'violations')
    for (let end = to; end > from; end -= MONTH_MS)
      slices.push({ from: Math.max(from, end - MONTH_MS), to: end });
  else slices.push({ from, to });
  const fetch = seekers[kind];
  for (const slice of slices) {
    let after: Cursor | null = null;
    for (;;) {
      const res = await fetch(
        db,
        tenant,
        {
          ...q,
          from: new Date(slice.from).toISOString(),
          to: new Date(slice.to).toISOString(),
          page: 1,
          limit: pageRows,
          seek: { after },
        },
        rollupTimeZone,
      );
      // With PGlite the query ran on the event loop: let timers and sockets run before the next step.
      await turn();
      const rows = res.data as Record<string, unknown>[];
      const next = res.next ?? null;
      if (rows.length > 0)
        yield {
          rows,
          done:
            kind === 'violations'
              ? (to - (next ? timeOf(next[0]) : slice.from)) / span
              : progressOf(kind, next, from, span),
        };
      if (!next || rows.length === 0) break;
      after = next;
    }
  }
}

const timeOf = (v: string | number | null | undefined) => (typeof v === 'string' ? Date.parse(v) : Number(v));

/** How far through the range a cursor is, for the reports ordered by time. */
function progressOf(kind: ReportKind, next: Cursor | null, from: number, span: number): number | null {
  if (!next) return 1;
  const share = (t: number) => (Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : null);
  switch (kind) {
    case 'trip-list':
    case 'stops':
    case 'idling':
    case 'route':
    case 'geofence-visits':
      return share((timeOf(next[0]) - from) / span);
    case 'summary':
      return share((Date.parse(`${String(next[0])}T00:00:00Z`) - from) / span);
    case 'events':
      return share(1 - (timeOf(next[0]) - from) / span);
    default:
      return null;
  }
}

/** Rows a report would export (the PDF's page count needs it before the first page): the same walk, counted. */
export async function countExportRows(
  db: Queryable,
  tenant: Tenant,
  kind: ReportKind,
  q: ExportQuery,
  rollupTimeZone: string,
): Promise<number> {
  let n = 0;
  // Addresses are not needed to count.
  for await (const p of exportPages(db, tenant, kind, { ...q, lang: undefined }, rollupTimeZone)) {
    n += p.rows.length;
    await new Promise((r) => setImmediate(r));
  }
  return n;
}
