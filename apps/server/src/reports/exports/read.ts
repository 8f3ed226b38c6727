import type { ReportKind } from '@fleet/api-client';
import { scopeSql } from '../../entities/scope';
import type { Queryable } from '../../storage/db';
import type { Tenant } from '../../tenancy/context';
import { selectionAnd } from '../filters';
import {
  salikReport,
  stopRows,
  tripsReport,
  VEHICLE_SUMMARY,
  violationsReport,
  type Cursor,
  type ReportRange,
  type StoredStop,
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
 * the API (whose paged answers keep the spec's envelope with `total`, unchanged). Two reports are read
 * differently:
 * - stops and idling are stored as JSON arrays inside the device-day rows of `device_trips`: the paged
 *   API query expands every day's array for each page; here each day row is read once, in start order,
 *   its periods kept in a small buffer and written out in start order once no later day row can hold
 *   an earlier period (a day's periods start within two days of its row's start);
 * - the violations report de-duplicates alerts (DISTINCT ON) over its range for every page, so it is
 *   read a month at a time, newest first, like its on-screen order.
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

const seekers: Record<Exclude<ReportKind, 'stops' | 'idling'>, SeekFetcher> = {
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
  if (kind === 'stops' || kind === 'idling') {
    yield* stopPages(db, tenant, q, kind === 'stops' ? 'stops' : 'idles', pageRows);
    return;
  }
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

/** Device-days read per query by the stops reader. */
const DAY_ROWS = 100;
/** A day row's periods start within this of the row's own start (sql-store keeps a day's periods there). */
const DAY_ROW_REACH_MS = 2 * 86_400_000;

interface DayRow {
  id: number;
  at: string;
  at_ms: number;
  vehicle: unknown;
  items: StoredStop[] | null;
}

interface Held {
  vehicle: unknown;
  item: StoredStop;
  row: number;
  index: number;
}

/**
 * Stops or idles of the range in start order, reading every device-day row once (see the file
 * comment). The API's stops report orders by start time only; rows with the same start come here by
 * day row id, then by their place in the day's list.
 */
async function* stopPages(
  db: Queryable,
  tenant: Tenant,
  q: ExportQuery,
  kind: 'stops' | 'idles',
  pageRows: number,
): AsyncGenerator<ExportPage> {
  const fromMs = Date.parse(q.from);
  const toMs = Date.parse(q.to);
  const span = Math.max(1, toMs - fromMs);
  let after: { at: string; id: number } | null = null;
  let held: Held[] = [];
  for (;;) {
    const params: unknown[] = [];
    const scope = scopeSql('vehicles', 'v', tenant, params);
    const sel = selectionAnd('v', q, params);
    const lo: string = after
      ? `$${params.push(after.at)}::timestamptz`
      : `to_timestamp($${params.push(fromMs)}::float8 / 1000) - interval '2 days'`;
    const seek: string = after
      ? ` AND (t.started_at, t.id) > (${lo}, $${params.push(after.id)}::bigint)`
      : '';
    const rows: DayRow[] = await db.query<DayRow>(
      `SELECT t.id, t.started_at::text AS at, extract(epoch FROM t.started_at) * 1000 AS at_ms,
              ${VEHICLE_SUMMARY} AS vehicle, t.data->'${kind}' AS items
       FROM device_trips t JOIN vehicles v ON v.id = t.vehicle_id
       WHERE ${scope} AND t.company_id = $1${sel} AND jsonb_typeof(t.data->'${kind}') = 'array'
         AND t.started_at >= ${lo}
         AND t.started_at < to_timestamp($${params.push(toMs)}::float8 / 1000) + interval '2 days'${seek}
       ORDER BY t.started_at, t.id LIMIT $${params.push(DAY_ROWS)}`,
      params,
    );
    await turn();
    for (const r of rows) {
      (r.items ?? []).forEach((item, index) => {
        const start = Number(item?.startTime);
        if (start >= fromMs && start < toMs)
          held.push({ vehicle: r.vehicle, item, row: Number(r.id), index });
      });
    }
    const last: DayRow | undefined = rows[rows.length - 1];
    const end = rows.length < DAY_ROWS || !last;
    // Periods before this are final: every later day row starts after `last`, so its periods start
    // after last - DAY_ROW_REACH_MS.
    const final = end ? Infinity : Number(last.at_ms) - DAY_ROW_REACH_MS;
    held.sort((a, b) => a.item.startTime - b.item.startTime || a.row - b.row || a.index - b.index);
    let ready = 0;
    while (ready < held.length && held[ready]!.item.startTime < final) ready++;
    // Full pages only until the end, so the pages match the page size like the other reports'.
    const take = end ? ready : ready - (ready % pageRows);
    for (let i = 0; i < take; i += pageRows) {
      await turn();
      const part = held.slice(i, Math.min(take, i + pageRows));
      const lastStart = part[part.length - 1]!.item.startTime;
      yield { rows: await stopRows(db, q, part), done: Math.min(1, (lastStart - fromMs) / span) };
    }
    held = held.slice(take);
    if (end) return;
    after = { at: last.at, id: Number(last.id) };
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
