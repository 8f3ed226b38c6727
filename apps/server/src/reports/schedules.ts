import type { FastifyInstance } from 'fastify';
import type { ExportFormat, ReportKind } from '@fleet/api-client';
import { route, iso } from '../http/route';
import { fieldError, notFound } from '../http/errors';
import type { Locale } from '../http/i18n';
import type { Database, Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import { addDays, dayStartOf, localDate, parseDate, pad, weekdayOf } from '../pipeline/common/zoned-time';
import { tenantOf } from './exports/jobs';
import { exportPages } from './exports/read';
import { openPdfRender } from './exports/pdf-render';
import { toCsv } from './exports/csv';
import { formatTime, tableOf } from './exports/table';
import { toXlsx, XLSX_CONTENT_TYPE } from './exports/xlsx';
import type { ReportSelection } from './filters';

/**
 * Scheduled reports: a user asks for any report daily, weekly or monthly. The schedule keeps the
 * language (X-Locale) and zone (Timezone header) of the request that created it; at the chosen local
 * hour the runner renders the report for the period just ended, in that language and zone, through the
 * same report queries and export writers as a download (under the user's tenant as it is now: a user
 * who lost access gets nothing), and hands the file to the mail outbox.
 *
 * Periods, in the user's zone: daily = yesterday, weekly = the 7 days before the run day, monthly = the
 * previous calendar month (sent on `day_of_month`, 1-28 so every month has it).
 *
 * The outbox is an interface (`ReportOutbox`): the messaging module's outbox implements it; until it is
 * wired in, a schedule's delivery goes to whatever outbox the composition root passes (the tests use
 * the in-memory one). Each claim moves `next_run_at` forward in the same statement (FOR UPDATE SKIP
 * LOCKED), so with several API nodes every run is sent once; a run that fails records `last_error`
 * and the schedule goes on.
 */
export interface ReportMail {
  readonly companyId: number;
  readonly userId: number;
  readonly to: string;
  readonly locale: Locale;
  readonly subject: string;
  readonly text: string;
  readonly attachment: { readonly name: string; readonly contentType: string; readonly content: Buffer };
}

/** Where a scheduled report is handed for delivery (the product's message outbox). */
export interface ReportOutbox {
  enqueue(mail: ReportMail): Promise<void>;
}

/**
 * An outbox that keeps the last `keep` mails in memory (tests, and a server run before the messaging
 * outbox is wired in, where each hand-over is also logged so it is not silent).
 */
export class MemoryReportOutbox implements ReportOutbox {
  readonly mails: ReportMail[] = [];
  constructor(
    private readonly keep = 100,
    private readonly log: (line: string) => void = () => undefined,
  ) {}
  async enqueue(mail: ReportMail): Promise<void> {
    this.mails.push(mail);
    if (this.mails.length > this.keep) this.mails.splice(0, this.mails.length - this.keep);
    this.log(
      `[reports] scheduled report for user ${mail.userId}: ${mail.subject} (no mail outbox configured)`,
    );
  }
}

export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface ScheduleTiming {
  readonly frequency: Frequency;
  readonly hour: number;
  readonly weekday: number | null;
  readonly dayOfMonth: number | null;
  readonly timeZone: string;
}

const at = (date: string, hour: number, tz: string) => dayStartOf(date, tz) + hour * 3_600_000;

/** The first sending time strictly after `nowMs` (local `hour` on the schedule's day, in its zone). */
export function nextRun(s: ScheduleTiming, nowMs: number): number {
  let d = localDate(nowMs, s.timeZone);
  for (let i = 0; i < 400; i++, d = addDays(d, 1)) {
    const ok =
      s.frequency === 'daily' ||
      (s.frequency === 'weekly' && weekdayOf(d) === (s.weekday ?? 0)) ||
      (s.frequency === 'monthly' && parseDate(d).day === (s.dayOfMonth ?? 1));
    if (ok && at(d, s.hour, s.timeZone) > nowMs) return at(d, s.hour, s.timeZone);
  }
  throw new Error('no next run');
}

/** The period a run sent at `runMs` covers: [from, to) in the schedule's zone. */
export function periodOf(s: ScheduleTiming, runMs: number): { from: number; to: number } {
  const day = localDate(runMs, s.timeZone);
  const to = dayStartOf(day, s.timeZone);
  if (s.frequency === 'daily') return { from: dayStartOf(addDays(day, -1), s.timeZone), to };
  if (s.frequency === 'weekly') return { from: dayStartOf(addDays(day, -7), s.timeZone), to };
  const { year, month } = parseDate(day);
  const first = `${year}-${pad(month)}-01`;
  const prev = month === 1 ? `${year - 1}-12-01` : `${year}-${pad(month - 1)}-01`;
  return { from: dayStartOf(prev, s.timeZone), to: dayStartOf(first, s.timeZone) };
}

const words = {
  en: {
    daily: 'Daily',
    weekly: 'Weekly',
    monthly: 'Monthly',
    body: (title: string, from: string, to: string, tz: string, rows: number) =>
      `${title}\nPeriod: ${from} – ${to} (${tz})\nRows: ${rows}\n\nThe report is attached.`,
  },
  ar: {
    daily: 'يومي',
    weekly: 'أسبوعي',
    monthly: 'شهري',
    body: (title: string, from: string, to: string, tz: string, rows: number) =>
      `${title}\nالفترة: ${from} – ${to} (${tz})\nعدد الصفوف: ${rows}\n\nالتقرير مرفق.`,
  },
} as const;

const contentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv',
  xlsx: XLSX_CONTENT_TYPE,
  pdf: 'application/pdf',
};

/** Renders one report over [from, to) as a file, in `locale` and `timeZone` (the export writers). */
export async function renderReport(
  db: Queryable,
  tenant: Tenant,
  o: {
    viewerId: number;
    report: ReportKind;
    format: ExportFormat;
    selection: ReportSelection;
    from: string;
    to: string;
    locale: Locale;
    timeZone: string;
    rollupTimeZone: string;
    now: Date;
  },
): Promise<{ content: Buffer; rows: number; title: string }> {
  const rows: Record<string, unknown>[] = [];
  // Keyset pages, as exports read (exports/read.ts).
  for await (const p of exportPages(
    db,
    tenant,
    o.report,
    { ...o.selection, from: o.from, to: o.to, viewer_id: o.viewerId },
    o.rollupTimeZone,
  ))
    rows.push(...p.rows);
  const table = tableOf(o.report, rows, o.locale, o.timeZone);
  let content: Buffer;
  if (o.format === 'csv') content = toCsv(table);
  else if (o.format === 'xlsx') content = await toXlsx(table, o.now);
  else {
    const subtitle = `${String(formatTime(o.from, o.timeZone))} – ${String(formatTime(o.to, o.timeZone))} (${o.timeZone})`;
    // Drawn in a worker thread, like an export's PDF (exports/pdf-render.ts).
    const pdf = await openPdfRender(table, { subtitle, createdAt: o.now, expectedRows: table.rows.length });
    try {
      for (let i = 0; i < table.rows.length; i += 500) await pdf.addRows(table.rows.slice(i, i + 500));
    } catch (err) {
      pdf.abort();
      throw err;
    }
    content = await pdf.finish();
  }
  return { content, rows: rows.length, title: table.title };
}

interface ScheduleRow {
  id: number;
  uuid: string;
  company_id: number;
  user_id: number;
  report: ReportKind;
  format: ExportFormat;
  frequency: Frequency;
  hour: number;
  weekday: number | null;
  day_of_month: number | null;
  selection: ReportSelection;
  locale: string;
  time_zone: string;
  next_run_at: Date | string;
  last_run_at: Date | string | null;
  last_error: string | null;
}

const timingOf = (r: ScheduleRow): ScheduleTiming => ({
  frequency: r.frequency,
  hour: Number(r.hour),
  weekday: r.weekday === null ? null : Number(r.weekday),
  dayOfMonth: r.day_of_month === null ? null : Number(r.day_of_month),
  timeZone: r.time_zone,
});

/** Sends every schedule that is due. One claim per schedule and run; returns the number handled. */
export async function runDueSchedules(
  db: Database,
  outbox: ReportOutbox,
  rollupTimeZone: string,
  now: Date,
): Promise<number> {
  let handled = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx.query<ScheduleRow>(
        `SELECT * FROM report_schedules WHERE next_run_at <= $1 ORDER BY next_run_at, id LIMIT 1
         FOR UPDATE SKIP LOCKED`,
        [now],
      );
      if (!row) return null;
      const due = new Date(row.next_run_at).getTime();
      await tx.query(`UPDATE report_schedules SET next_run_at = $2, last_run_at = $3 WHERE id = $1`, [
        row.id,
        new Date(nextRun(timingOf(row), now.getTime())),
        now,
      ]);
      return { row, due };
    });
    if (!claimed) return handled;
    handled++;
    const { row, due } = claimed;
    const locale: Locale = row.locale === 'ar' ? 'ar' : 'en';
    try {
      const tenant = await tenantOf(db, Number(row.user_id), Number(row.company_id));
      const [user] = await db.query<{ email: string | null }>('SELECT email FROM users WHERE id = $1', [
        row.user_id,
      ]);
      if (!tenant || !user?.email) throw new Error('The user can no longer receive this report.');
      const period = periodOf(timingOf(row), due);
      const from = new Date(period.from).toISOString();
      const to = new Date(period.to).toISOString();
      const file = await renderReport(db, tenant, {
        viewerId: Number(row.user_id),
        report: row.report,
        format: row.format,
        selection: row.selection ?? {},
        from,
        to,
        locale,
        timeZone: row.time_zone,
        rollupTimeZone,
        now,
      });
      const w = words[locale];
      const fromText = localDate(period.from, row.time_zone);
      const toText = localDate(period.to - 1, row.time_zone);
      await outbox.enqueue({
        companyId: Number(row.company_id),
        userId: Number(row.user_id),
        to: user.email,
        locale,
        subject: `${w[row.frequency]}: ${file.title} (${fromText === toText ? fromText : `${fromText} – ${toText}`})`,
        text: w.body(file.title, fromText, toText, row.time_zone, file.rows),
        attachment: {
          name: `${row.report}-${fromText}.${row.format}`,
          contentType: contentTypes[row.format],
          content: file.content,
        },
      });
      await db.query('UPDATE report_schedules SET last_error = NULL WHERE id = $1', [row.id]);
    } catch (err) {
      await db.query('UPDATE report_schedules SET last_error = $2 WHERE id = $1', [
        row.id,
        err instanceof Error ? err.message : String(err),
      ]);
    }
  }
}

/** At most this many schedules per user. */
export const MAX_SCHEDULES_PER_USER = 20;

const view = (r: ScheduleRow) => ({
  uuid: r.uuid,
  report: r.report,
  format: r.format,
  frequency: r.frequency,
  hour: Number(r.hour),
  weekday: r.weekday === null ? null : Number(r.weekday),
  day_of_month: r.day_of_month === null ? null : Number(r.day_of_month),
  locale: r.locale,
  time_zone: r.time_zone,
  next_run_at: iso(r.next_run_at)!,
  last_run_at: iso(r.last_run_at),
  last_error: r.last_error,
});

/**
 * Schedule endpoints (permission 'reports.view'; a user sees and stops only their own schedules) and
 * the runner, which looks for due schedules every `pollMs` while the server runs.
 */
export function registerScheduleRoutes(
  app: FastifyInstance,
  opts: { rollupTimeZone: string; outbox: ReportOutbox; pollMs?: number },
): { runDue: (now?: Date) => Promise<number> } {
  const db = () => app.ctx.storage.db;
  const perm = { permission: 'reports.view' };
  const runDue = (now = app.ctx.now()) => runDueSchedules(db(), opts.outbox, opts.rollupTimeZone, now);
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= runDue()
        .catch((err) => console.error('[reports] scheduled reports failed:', err))
        .finally(() => (running = null));
    }, opts.pollMs ?? 60_000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });

  route(
    app,
    'reports.scheduleList',
    async ({ tenant, principal }) => {
      const rows = await db().query<ScheduleRow>(
        `SELECT * FROM report_schedules WHERE company_id = $1 AND user_id = $2 ORDER BY created_at, id`,
        [tenant.companyId, principal.user.id],
      );
      return { data: rows.map(view) };
    },
    perm,
  );
  route(
    app,
    'reports.scheduleCreate',
    async ({ req, reply, body, tenant, principal }) => {
      if (body.report === 'route' && !body.vehicle_uuid)
        throw fieldError('vehicle_uuid', 'Vehicle is required');
      if (body.frequency === 'weekly' && body.weekday === undefined)
        throw fieldError('weekday', 'Weekday is required');
      if (body.frequency === 'monthly' && body.day_of_month === undefined) {
        throw fieldError('day_of_month', 'Day of month is required');
      }
      const [count] = await db().query<{ n: number }>(
        'SELECT count(*)::int AS n FROM report_schedules WHERE company_id = $1 AND user_id = $2',
        [tenant.companyId, principal.user.id],
      );
      if ((count?.n ?? 0) >= MAX_SCHEDULES_PER_USER)
        throw fieldError('report', 'Please enter a valid Report');
      const selection = Object.fromEntries(
        (['vehicle_uuid', 'station_uuid', 'branch_uuid', 'school_uuid'] as const)
          .filter((k) => body[k])
          .map((k) => [k, body[k]]),
      );
      const timing: ScheduleTiming = {
        frequency: body.frequency,
        hour: body.hour,
        weekday: body.frequency === 'weekly' ? (body.weekday ?? 0) : null,
        dayOfMonth: body.frequency === 'monthly' ? (body.day_of_month ?? 1) : null,
        timeZone: req.timezone,
      };
      const [row] = await db().query<ScheduleRow>(
        `INSERT INTO report_schedules (company_id, user_id, report, format, frequency, hour, weekday, day_of_month,
           selection, locale, time_zone, next_run_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12) RETURNING *`,
        [
          tenant.companyId,
          principal.user.id,
          body.report,
          body.format,
          body.frequency,
          timing.hour,
          timing.weekday,
          timing.dayOfMonth,
          JSON.stringify(selection),
          req.locale === 'ar' ? 'ar' : 'en',
          timing.timeZone,
          new Date(nextRun(timing, app.ctx.now().getTime())),
        ],
      );
      reply.code(201);
      return { data: view(row!) };
    },
    perm,
  );
  route(
    app,
    'reports.scheduleDelete',
    async ({ params, tenant, principal }) => {
      const rows = await db().query(
        `DELETE FROM report_schedules WHERE uuid = $1 AND company_id = $2 AND user_id = $3 RETURNING id`,
        [params.uuid, tenant.companyId, principal.user.id],
      );
      if (rows.length === 0) throw notFound();
      return { message: 'Deleted.' };
    },
    perm,
  );
  return { runDue };
}
