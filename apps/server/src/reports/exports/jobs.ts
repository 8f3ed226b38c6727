import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import type { ExportFormat, ReportKind } from '@fleet/api-client';
import { route, iso } from '../../http/route';
import { fieldError, notFound } from '../../http/errors';
import type { Locale } from '../../http/i18n';
import type { Queryable } from '../../storage/db';
import type { Tenant } from '../../tenancy/context';
import { salikReport, stopsReport, tripsReport, violationsReport, type ReportRange } from '../queries';
import { engineReport, fuelReport, geofenceVisitsReport, wheelReport } from '../sensors';
import { toCsv } from './csv';
import { formatTime, tableOf } from './table';
import { toXlsx, XLSX_CONTENT_TYPE } from './xlsx';

/**
 * Report exports as background jobs.
 *
 * POST /v1/reports/exports stores a `report_exports` row (queued) and answers at once; the runner of the
 * process that took the request reads the report page by page (500 rows at a time, through the same
 * queries as the report endpoints, so the tenant's scope applies), renders CSV, XLSX or PDF, stores the
 * file as a `files` row of kind 'exports' owned by the company and the requesting user, and marks the job
 * completed with the file name. Progress: 0-80 while reading pages, 90 while rendering, 100 when stored.
 * GET /v1/reports/exports/:uuid polls it (only the user who asked sees their job); the file is fetched
 * from /v1/file/exports/{name} with the user's token.
 *
 * Jobs run one at a time per process, every step awaits the database or yields, and compression runs
 * in the thread pool, so the API keeps answering while an export runs. A job left queued or running by a
 * process that stopped is shown as failed once it is older than `STALE_MS`.
 */
export const PAGE_ROWS = 500;
/** At most this many unfinished exports per user (a 422 asks to wait). */
export const MAX_PENDING_PER_USER = 3;
const STALE_MS = 60 * 60 * 1000;

const text = {
  en: {
    failed: 'The export failed. Please try again.',
    interrupted: 'The export was interrupted. Please start it again.',
    busy: 'You already have exports in progress. Please wait for them to finish.',
    range: 'Showing',
  },
  ar: {
    failed: 'تعذّر التصدير. يرجى المحاولة مرة أخرى.',
    interrupted: 'توقف التصدير قبل اكتماله. يرجى البدء من جديد.',
    busy: 'لديك عمليات تصدير قيد التنفيذ. يرجى الانتظار حتى تكتمل.',
    range: 'الفترة',
  },
} as const;

type ReportFetcher = (
  db: Queryable,
  tenant: Tenant,
  q: ReportRange,
  rollupTimeZone: string,
) => Promise<{ data: unknown[]; total: number; last_page: number }>;

const fetchers: Record<ReportKind, ReportFetcher> = {
  fuel: fuelReport,
  engine: engineReport,
  wheel: wheelReport,
  trips: tripsReport,
  stops: (db, t, q) => stopsReport(db, t, q, 'stops'),
  idling: (db, t, q) => stopsReport(db, t, q, 'idles'),
  'geofence-visits': (db, t, q) => geofenceVisitsReport(db, t, q),
  salik: (db, t, q) => salikReport(db, t, q),
  violations: (db, t, q) => violationsReport(db, t, q),
};

const contentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv',
  xlsx: XLSX_CONTENT_TYPE,
  pdf: 'application/pdf',
};

export interface ExportJob {
  readonly id: number;
  readonly uuid: string;
  readonly tenant: Tenant;
  readonly userId: number;
  readonly report: ReportKind;
  readonly format: ExportFormat;
  readonly from: string;
  readonly to: string;
  readonly vehicleUuid?: string | undefined;
  readonly locale: Locale;
  readonly timeZone: string;
}

/** The in-process queue of export jobs. */
export class ExportRunner {
  private readonly queue: ExportJob[] = [];
  private running: Promise<void> | null = null;
  private readonly active = new Set<string>();

  constructor(
    private readonly db: () => Queryable,
    private readonly rollupTimeZone: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  enqueue(job: ExportJob): void {
    this.queue.push(job);
    this.active.add(job.uuid);
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }
  }

  isActive(uuid: string): boolean {
    return this.active.has(uuid);
  }

  /** Resolves when the queue is empty (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Let the request that queued the job answer first.
    await new Promise((r) => setImmediate(r));
    for (let job = this.queue.shift(); job; job = this.queue.shift()) {
      try {
        await this.run(job);
      } catch (err) {
        console.error(`[reports] export ${job.uuid} failed:`, err);
        await this.db()
          .query(`UPDATE report_exports SET status = 'failed', error = $2, completed_at = $3 WHERE id = $1`, [
            job.id,
            text[job.locale].failed,
            this.now(),
          ])
          .catch(() => undefined);
      } finally {
        this.active.delete(job.uuid);
      }
    }
  }

  private async progress(job: ExportJob, progress: number, status = 'running'): Promise<void> {
    await this.db().query('UPDATE report_exports SET status = $2, progress = $3 WHERE id = $1', [
      job.id,
      status,
      Math.round(progress),
    ]);
  }

  private async run(job: ExportJob): Promise<void> {
    const db = this.db();
    await this.progress(job, 0);
    const rows: Record<string, unknown>[] = [];
    const fetch = fetchers[job.report];
    for (let page = 1; ; page++) {
      const res = await fetch(
        db,
        job.tenant,
        { from: job.from, to: job.to, vehicle_uuid: job.vehicleUuid, page, limit: PAGE_ROWS },
        this.rollupTimeZone,
      );
      rows.push(...(res.data as Record<string, unknown>[]));
      await this.progress(job, (Math.min(page, res.last_page) / Math.max(1, res.last_page)) * 80);
      if (page >= res.last_page || res.data.length === 0) break;
    }
    await this.progress(job, 90);
    const table = tableOf(job.report, rows, job.locale, job.timeZone);
    const createdAt = this.now();
    let content: Buffer;
    if (job.format === 'csv') content = toCsv(table);
    else if (job.format === 'xlsx') content = await toXlsx(table, createdAt);
    else {
      const subtitle = `${text[job.locale].range}: ${String(formatTime(job.from, job.timeZone))} – ${String(
        formatTime(job.to, job.timeZone),
      )} (${job.timeZone})`;
      // pdfkit and its fonts (~12 MB resident) load on the first PDF, not at server start.
      const { toPdf } = await import('./pdf');
      content = await toPdf(table, { subtitle, createdAt });
    }
    const name = `${job.report}-${randomBytes(16).toString('hex')}.${job.format}`;
    await db.query(
      `INSERT INTO files (company_id, kind, name, content_type, size, sha256, content, created_by)
       VALUES ($1, 'exports', $2, $3, $4, $5, $6, $7)`,
      [
        job.tenant.companyId,
        name,
        contentTypes[job.format],
        content.length,
        createHash('sha256').update(content).digest('hex'),
        content,
        job.userId,
      ],
    );
    await db.query(
      `UPDATE report_exports SET status = 'completed', progress = 100, file_name = $2, completed_at = $3 WHERE id = $1`,
      [job.id, name, createdAt],
    );
  }
}

interface JobRow {
  uuid: string;
  report: ReportKind;
  format: ExportFormat;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  file_name: string | null;
  error: string | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  params: { locale?: Locale };
}

export function registerExportRoutes(app: FastifyInstance, opts: { rollupTimeZone: string }): ExportRunner {
  const db = () => app.ctx.storage.db;
  const runner = new ExportRunner(db, opts.rollupTimeZone, () => app.ctx.now());
  // A graceful stop lets running exports finish (they are short: pages of 500 rows, one file).
  app.addHook('onClose', async () => runner.idle());
  const view = (r: JobRow) => {
    const stale =
      (r.status === 'queued' || r.status === 'running') &&
      !runner.isActive(r.uuid) &&
      app.ctx.now().getTime() - new Date(r.created_at).getTime() > STALE_MS;
    return {
      uuid: r.uuid,
      report: r.report,
      format: r.format,
      status: stale ? ('failed' as const) : r.status,
      progress: Number(r.progress),
      file: r.file_name,
      error: stale ? text[r.params.locale ?? 'en'].interrupted : r.error,
      created_at: iso(r.created_at)!,
      completed_at: iso(r.completed_at),
    };
  };
  const columns =
    'uuid, report, format, status, progress, file_name, error, created_at, completed_at, params';

  route(
    app,
    'reports.exportCreate',
    async ({ req, reply, body, tenant, principal }) => {
      const locale: Locale = req.locale === 'ar' ? 'ar' : 'en';
      const [pending] = await db().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM report_exports
         WHERE company_id = $1 AND user_id = $2 AND status IN ('queued', 'running') AND created_at > $3`,
        [tenant.companyId, principal.user.id, new Date(app.ctx.now().getTime() - STALE_MS)],
      );
      if ((pending?.n ?? 0) >= MAX_PENDING_PER_USER) throw fieldError('report', text[locale].busy);
      if (Date.parse(body.to) <= Date.parse(body.from)) throw fieldError('to', 'Please enter a valid To');
      const params = {
        from: body.from,
        to: body.to,
        vehicle_uuid: body.vehicle_uuid ?? null,
        locale,
        timezone: req.timezone,
      };
      const [row] = await db().query<JobRow & { id: number }>(
        `INSERT INTO report_exports (company_id, user_id, report, format, params, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING id, ${columns}`,
        [
          tenant.companyId,
          principal.user.id,
          body.report,
          body.format,
          JSON.stringify(params),
          app.ctx.now(),
        ],
      );
      runner.enqueue({
        id: row!.id,
        uuid: row!.uuid,
        tenant,
        userId: principal.user.id,
        report: body.report,
        format: body.format,
        from: body.from,
        to: body.to,
        vehicleUuid: body.vehicle_uuid,
        locale,
        timeZone: req.timezone,
      });
      reply.code(202);
      return { data: view(row!) };
    },
    { permission: 'reports.view' },
  );

  route(
    app,
    'reports.exportShow',
    async ({ params, tenant, principal }) => {
      const [row] = await db().query<JobRow>(
        `SELECT ${columns} FROM report_exports WHERE uuid = $1 AND company_id = $2 AND user_id = $3`,
        [params.uuid, tenant.companyId, principal.user.id],
      );
      if (!row) throw notFound();
      return { data: view(row) };
    },
    { permission: 'reports.view' },
  );
  return runner;
}
