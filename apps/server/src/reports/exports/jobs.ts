import type { FastifyInstance } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import type { ExportFormat, ReportKind } from '@fleet/api-client';
import { logActivity } from '../../activity/log';
import { route, iso } from '../../http/route';
import { fieldError, notFound } from '../../http/errors';
import type { Locale } from '../../http/i18n';
import type { Database, Queryable } from '../../storage/db';
import {
  AUTH_USER_COLUMNS,
  authUserOf,
  loadTenant,
  type AuthUserRow,
  type Tenant,
} from '../../tenancy/context';
import { effectivePermissions } from '../../tenancy/permissions';
import type { ReportSelection } from '../filters';
import { countExportRows, exportPages, type ExportQuery } from './read';
import { openPdfRender } from './pdf-render';
import { CsvWriter } from './csv';
import { formatTime, tableOf, type Cell } from './table';
import { XlsxWriter, XLSX_CONTENT_TYPE } from './xlsx';

/**
 * Report exports as background jobs, queued in the database.
 *
 * POST /v1/reports/exports stores a `report_exports` row (queued) and answers at once. Every API process
 * runs a runner that claims queued jobs from the table (`FOR UPDATE SKIP LOCKED`, oldest first, so with
 * several API nodes each job is taken by exactly one), woken at once by a POST it accepted itself and
 * every `pollMs` otherwise. The runner reads the report in keyset pages (read.ts: 500 rows at a time,
 * no count, no OFFSET, through the same queries as the report endpoints, under the requester's tenant
 * rebuilt from the database, so a user who lost access meanwhile gets a failed job, not a file),
 * renders CSV, XLSX or PDF (the PDF in a worker thread, pdf-render.ts), stores the file as a `files`
 * row of kind 'exports' owned by the company and the requesting user (its content in `file_parts`),
 * and marks the job completed with the file name. Progress: 0-80 while reading pages (the share of the
 * range read where the report is in time order; a PDF counts its rows first, 0-10), 90 while
 * rendering, 100 when stored. GET /v1/reports/exports/:uuid polls it (only the user who asked sees
 * their job); the file is fetched from /v1/file/exports/{name} with the user's token.
 *
 * A running job beats a heartbeat (every progress step, and every HEARTBEAT_MS while rendering). When
 * the process running it dies, its heartbeat stops; after TAKEOVER_MS another runner (or the same server
 * after a restart) claims it again and starts over. Each claim raises `attempts`, and every write of a
 * run names the attempt it belongs to, so a runner that was only slow, not dead, cannot overwrite the
 * run that took over. After MAX_ATTEMPTS claims the job is failed with the "interrupted" text.
 *
 * Jobs run one at a time per process, every step awaits the database or yields, compression runs in
 * the thread pool and PDF drawing in a worker thread, so the API keeps answering while an export runs
 * (limits.test.ts measures the event loop during the longest accepted export).
 */
/** At most this many unfinished exports per user (a 422 asks to wait). */
export const MAX_PENDING_PER_USER = 3;
/** Unfinished jobs older than this no longer count against MAX_PENDING_PER_USER. */
const PENDING_WINDOW_MS = 60 * 60 * 1000;
/** A running job refreshes its heartbeat at least this often. */
export const HEARTBEAT_MS = 15_000;
/** A running job whose heartbeat is this old is claimed again (its process is taken to be gone). */
export const TAKEOVER_MS = 60_000;
/** Claims of one job before it is failed as interrupted. */
export const MAX_ATTEMPTS = 3;
/** How often a runner looks for jobs queued by other processes or left behind. */
export const EXPORT_POLL_MS = 2_000;

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

const selectionKeys = ['station_uuid', 'branch_uuid', 'school_uuid'] as const;

const contentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv',
  xlsx: XLSX_CONTENT_TYPE,
  pdf: 'application/pdf',
};

export interface ExportJob {
  readonly id: number;
  readonly uuid: string;
  /** The claim this run holds (the row's `attempts` when it was claimed); writes name it. */
  readonly attempt: number;
  readonly tenant: Tenant;
  readonly userId: number;
  readonly report: ReportKind;
  readonly format: ExportFormat;
  readonly from: string;
  readonly to: string;
  readonly vehicleUuid?: string | undefined;
  /** Station, branch or school the report was asked for. */
  readonly selection: ReportSelection;
  readonly locale: Locale;
  readonly timeZone: string;
}

interface ExportParams {
  from: string;
  to: string;
  vehicle_uuid: string | null;
  station_uuid?: string | null;
  branch_uuid?: string | null;
  school_uuid?: string | null;
  locale: Locale;
  timezone: string;
}

/** The run lost its claim (another runner took the job over): stop without writing anything more. */
class ClaimLost extends Error {}

/** The export runner of one process: claims jobs from `report_exports` and runs them one at a time. */
export class ExportRunner {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(
    private readonly db: () => Database,
    private readonly rollupTimeZone: string,
    private readonly now: () => Date = () => new Date(),
    private readonly pollMs = EXPORT_POLL_MS,
  ) {}

  /** Starts looking for work every `pollMs` (jobs of other processes, jobs left behind). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops polling; resolves when the job in progress is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  /** Runs every claimable job now (a POST calls this after storing its job). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves when no job is running and none was claimable at the last look (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    // Let the request that queued the job answer first.
    await new Promise((r) => setImmediate(r));
    for (;;) {
      let job: ExportJob | null;
      try {
        job = await this.claim();
      } catch (err) {
        console.error('[reports] could not claim an export job:', err);
        return;
      }
      if (!job) return;
      try {
        await this.run(job);
      } catch (err) {
        if (err instanceof ClaimLost) continue;
        console.error(`[reports] export ${job.uuid} failed:`, err);
        await this.db()
          .query(
            `UPDATE report_exports SET status = 'failed', error = $3, completed_at = $4
             WHERE id = $1 AND attempts = $2 AND status = 'running'`,
            [job.id, job.attempt, text[job.locale].failed, this.now()],
          )
          .catch(() => undefined);
      }
    }
  }

  /**
   * Fails jobs that were claimed MAX_ATTEMPTS times and went silent again, then claims the oldest queued
   * job, or a running one whose heartbeat stopped. Null when there is nothing to do.
   */
  private async claim(): Promise<ExportJob | null> {
    const db = this.db();
    const now = this.now();
    const silentSince = new Date(now.getTime() - TAKEOVER_MS);
    await db.query(
      `UPDATE report_exports
       SET status = 'failed', completed_at = $1,
           error = CASE WHEN params->>'locale' = 'ar' THEN $4 ELSE $5 END
       WHERE status = 'running' AND heartbeat_at < $2 AND attempts >= $3`,
      [now, silentSince, MAX_ATTEMPTS, text.ar.interrupted, text.en.interrupted],
    );
    const [row] = await db.query<{
      id: number;
      uuid: string;
      attempts: number;
      company_id: number;
      user_id: number | null;
      report: ReportKind;
      format: ExportFormat;
      params: Partial<ExportParams>;
    }>(
      `UPDATE report_exports e
       SET status = 'running', progress = 0, heartbeat_at = $1, attempts = e.attempts + 1
       WHERE e.id = (
         SELECT id FROM report_exports
         WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < $2 AND attempts < $3)
         ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       RETURNING e.id, e.uuid, e.attempts, e.company_id, e.user_id, e.report, e.format, e.params`,
      [now, silentSince, MAX_ATTEMPTS],
    );
    if (!row) return null;
    const locale: Locale = row.params.locale === 'ar' ? 'ar' : 'en';
    const tenant = row.user_id === null ? null : await tenantOf(db, row.user_id, row.company_id);
    if (!tenant) {
      // The requester left the company (or was deleted) since asking: no file for them.
      await db.query(
        `UPDATE report_exports SET status = 'failed', error = $3, completed_at = $4 WHERE id = $1 AND attempts = $2`,
        [row.id, row.attempts, text[locale].failed, now],
      );
      return this.claim();
    }
    return {
      id: Number(row.id),
      uuid: row.uuid,
      attempt: row.attempts,
      tenant,
      userId: Number(row.user_id),
      report: row.report,
      format: row.format,
      from: String(row.params.from),
      to: String(row.params.to),
      vehicleUuid: row.params.vehicle_uuid ?? undefined,
      selection: Object.fromEntries(
        selectionKeys.filter((k) => row.params[k]).map((k) => [k, String(row.params[k])]),
      ),
      locale,
      timeZone: row.params.timezone ?? 'UTC',
    };
  }

  /** Writes progress (and the heartbeat) of the run's own claim; throws ClaimLost if it was taken over. */
  private async progress(job: ExportJob, progress: number): Promise<void> {
    const rows = await this.db().query(
      `UPDATE report_exports SET progress = $3, heartbeat_at = $4
       WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
      [job.id, job.attempt, Math.round(progress), this.now()],
    );
    if (rows.length === 0) throw new ClaimLost();
  }

  private async run(job: ExportJob): Promise<void> {
    const db = this.db();
    const beat = setInterval(() => {
      void db
        .query(`UPDATE report_exports SET heartbeat_at = $3 WHERE id = $1 AND attempts = $2`, [
          job.id,
          job.attempt,
          this.now(),
        ])
        .catch(() => undefined);
    }, HEARTBEAT_MS);
    beat.unref();
    try {
      await this.render(job);
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Reads the report in keyset pages (read.ts: no count, no OFFSET, each row read once) and streams
   * each page into the file's writer: the rows of a page are formatted, encoded (CSV, XLSX) or drawn
   * (PDF, in a worker thread: pdf-render.ts) and dropped, so a 100,000-row export holds only the file
   * being written. The PDF needs the row count before its first page (for the "n / count" footers):
   * the same walk is made once first, counting.
   */
  private async render(job: ExportJob): Promise<void> {
    const db = this.db();
    const createdAt = this.now();
    const head = tableOf(job.report, [], job.locale, job.timeZone);
    const q: ExportQuery = {
      ...job.selection,
      from: job.from,
      to: job.to,
      vehicle_uuid: job.vehicleUuid,
      // Addresses (stops, trip list) in the file's language, from the geocoding cache only.
      lang: job.locale,
    };
    const turn = () => new Promise((r) => setImmediate(r));
    let writer: ExportWriter;
    let base = 0;
    if (job.format === 'csv') writer = new CsvWriter(head.columns);
    else if (job.format === 'xlsx') writer = new XlsxWriter(head, createdAt);
    else {
      const expectedRows = await countExportRows(db, job.tenant, job.report, q, this.rollupTimeZone);
      await this.progress(job, 10);
      base = 10;
      const subtitle = `${text[job.locale].range}: ${String(formatTime(job.from, job.timeZone))} – ${String(
        formatTime(job.to, job.timeZone),
      )} (${job.timeZone})`;
      writer = await openPdfRender(head, { subtitle, createdAt, expectedRows });
    }
    try {
      let pages = 0;
      for await (const p of exportPages(db, job.tenant, job.report, q, this.rollupTimeZone)) {
        pages++;
        // Let timers and sockets run between reading a page and formatting it.
        await turn();
        await writer.addRows(tableOf(job.report, p.rows, job.locale, job.timeZone).rows);
        // Reports not ordered by time have no position to show: progress then creeps towards the end.
        const done = p.done ?? pages / (pages + 2);
        await this.progress(job, base + done * (80 - base));
        // Let timers and sockets run between pages: with PGlite every await above resolves without
        // leaving the event loop, so a long export would otherwise hold it for its whole read.
        await turn();
      }
      // Read to the end (also for a report with no rows, which yields no page).
      await this.progress(job, 80);
      await this.progress(job, 90);
    } catch (err) {
      writer.abort?.();
      throw err;
    }
    const content = await writer.finish();
    const name = `${job.report}-${randomBytes(16).toString('hex')}.${job.format}`;
    const sha256 = createHash('sha256').update(content).digest('hex');
    // The file and the completion in one transaction, and only while the run still holds its claim.
    const stored = await db.transaction(async (tx) => {
      const done = await tx.query(
        `UPDATE report_exports SET status = 'completed', progress = 100, file_name = $3, completed_at = $4
         WHERE id = $1 AND attempts = $2 AND status = 'running' RETURNING id`,
        [job.id, job.attempt, name, createdAt],
      );
      if (done.length === 0) return false;
      await storeFile(tx, {
        companyId: job.tenant.companyId,
        name,
        contentType: contentTypes[job.format],
        content,
        sha256,
        userId: job.userId,
      });
      return true;
    });
    if (!stored) throw new ClaimLost();
  }
}

/** What the export job writes rows into (CsvWriter, XlsxWriter, the PDF worker). */
interface ExportWriter {
  addRows(rows: readonly (readonly Cell[])[]): void | Promise<void>;
  finish(): Buffer | Promise<Buffer>;
  abort?(): void;
}

/** Bytes of an export file per stored part (one INSERT each). */
export const FILE_PIECE_BYTES = 64 * 1024;

/**
 * Stores an export file as a `files` row whose content lives in `file_parts` (migration 0028): one
 * INSERT per FILE_PIECE_BYTES with a turn of the event loop between them. With PGlite every statement
 * runs on the event loop; the whole file in one INSERT held it 20-317 ms, and appending pieces to one
 * bytea rewrote the value so far each time (30-90 ms of CPU per append for a 1 MB PDF). Each piece goes
 * as hex text decoded by the database: PGlite converted a Buffer parameter byte by byte on the event
 * loop; Buffer#toString('hex') is native.
 */
export async function storeFile(
  tx: Queryable,
  f: {
    companyId: number;
    name: string;
    contentType: string;
    content: Buffer;
    sha256: string;
    userId: number;
  },
): Promise<void> {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO files (company_id, kind, name, content_type, size, sha256, content, created_by)
     VALUES ($1, 'exports', $2, $3, $4, $5, ''::bytea, $6) RETURNING id`,
    [f.companyId, f.name, f.contentType, f.content.length, f.sha256, f.userId],
  );
  for (let at = 0, seq = 0; at < f.content.length; at += FILE_PIECE_BYTES, seq++) {
    await new Promise((r) => setImmediate(r));
    await tx.query(`INSERT INTO file_parts (file_id, seq, data) VALUES ($1, $2, decode($3, 'hex'))`, [
      row!.id,
      seq,
      f.content.subarray(at, at + FILE_PIECE_BYTES).toString('hex'),
    ]);
  }
}

/** The requester's tenant as a request would resolve it now; null when they no longer belong. */
export async function tenantOf(db: Queryable, userId: number, companyId: number): Promise<Tenant | null> {
  const [u] = await db.query<AuthUserRow & { company_uuid: string | null }>(
    `SELECT ${AUTH_USER_COLUMNS}, (SELECT uuid FROM transport_companies WHERE id = $2) AS company_uuid
     FROM users u WHERE u.id = $1`,
    [userId, companyId],
  );
  if (!u || u.status !== 'active' || !u.company_uuid) return null;
  return loadTenant(db, authUserOf(u), String(u.company_uuid), effectivePermissions);
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
}

export function registerExportRoutes(
  app: FastifyInstance,
  opts: { rollupTimeZone: string; pollMs?: number },
): ExportRunner {
  const db = () => app.ctx.storage.db;
  const runner = new ExportRunner(db, opts.rollupTimeZone, () => app.ctx.now(), opts.pollMs);
  // Polling starts with the server; a graceful stop lets the running export finish (they are short:
  // pages of 500 rows, one file). One that is cut short anyway is taken over by another runner.
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());
  const view = (r: JobRow) => ({
    uuid: r.uuid,
    report: r.report,
    format: r.format,
    status: r.status,
    progress: Number(r.progress),
    file: r.file_name,
    error: r.error,
    created_at: iso(r.created_at)!,
    completed_at: iso(r.completed_at),
  });
  const columns = 'uuid, report, format, status, progress, file_name, error, created_at, completed_at';

  route(
    app,
    'reports.exportCreate',
    async ({ req, reply, body, tenant, principal }) => {
      const locale: Locale = req.locale === 'ar' ? 'ar' : 'en';
      const [pending] = await db().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM report_exports
         WHERE company_id = $1 AND user_id = $2 AND status IN ('queued', 'running') AND created_at > $3`,
        [tenant.companyId, principal.user.id, new Date(app.ctx.now().getTime() - PENDING_WINDOW_MS)],
      );
      if ((pending?.n ?? 0) >= MAX_PENDING_PER_USER) throw fieldError('report', text[locale].busy);
      if (Date.parse(body.to) <= Date.parse(body.from)) throw fieldError('to', 'Please enter a valid To');
      // The route report is the positions of one vehicle.
      if (body.report === 'route' && !body.vehicle_uuid)
        throw fieldError('vehicle_uuid', 'Vehicle is required');
      const params = {
        from: body.from,
        to: body.to,
        vehicle_uuid: body.vehicle_uuid ?? null,
        station_uuid: body.station_uuid ?? null,
        branch_uuid: body.branch_uuid ?? null,
        school_uuid: body.school_uuid ?? null,
        locale,
        timezone: req.timezone,
      };
      const [row] = await db().query<JobRow>(
        `INSERT INTO report_exports (company_id, user_id, report, format, params, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${columns}`,
        [
          tenant.companyId,
          principal.user.id,
          body.report,
          body.format,
          JSON.stringify(params),
          app.ctx.now(),
        ],
      );
      // The user activity log: who asked for which report, over which range and vehicle, in which format.
      await logActivity(db(), {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'exported',
        entity: 'report',
        entityUuid: row!.uuid,
        after: {
          report: body.report,
          format: body.format,
          from: params.from,
          to: params.to,
          vehicle_uuid: params.vehicle_uuid,
        },
        req,
      });
      runner.wake();
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
