import { addDays, dayStartOf, localDate } from '../pipeline/common/zoned-time';

/**
 * How a report range [from, to) maps onto the rollups.
 *
 * Rollups are bucketed by the company's local day (and hour) in the pipeline's time zone. A request may
 * come from another zone, and its range rarely starts on a rollup day. So a range is split into the
 * rollup days it covers entirely (read from the daily rows: one row per vehicle-day, the fast path) and
 * the partly covered days at its edges (read from the hourly rows whose hour starts inside the range).
 * The result is exact to the hour whatever the request's zone, and a month still reads ~30 daily rows
 * per vehicle plus at most 48 hourly ones.
 */
export interface RollupRange {
  readonly from: number;
  readonly to: number;
  /** First and last rollup day fully inside the range, or null when none is. */
  readonly full: { readonly from: string; readonly to: string } | null;
  /** Rollup days only partly inside the range. */
  readonly edgeDays: string[];
  /** Every rollup day touching the range (for index-friendly bounds). */
  readonly firstDay: string;
  readonly lastDay: string;
}

export function planRange(fromMs: number, toMs: number, rollupTimeZone: string): RollupRange {
  const firstDay = localDate(fromMs, rollupTimeZone);
  const lastDay = localDate(toMs - 1, rollupTimeZone);
  // Only the first and the last day can be partly covered: every day between them lies inside the
  // range. So the plan costs the same for a day and for a year (it used to test every day on the event
  // loop: a range of centuries stalled the server, issue 18).
  const whole = (d: string) =>
    fromMs <= dayStartOf(d, rollupTimeZone) && dayStartOf(addDays(d, 1), rollupTimeZone) <= toMs;
  const firstWhole = whole(firstDay);
  const lastWhole = lastDay === firstDay ? firstWhole : whole(lastDay);
  const edgeDays: string[] = [];
  if (!firstWhole) edgeDays.push(firstDay);
  if (!lastWhole && lastDay !== firstDay) edgeDays.push(lastDay);
  const fullFrom = firstWhole ? firstDay : addDays(firstDay, 1);
  const fullTo = lastWhole ? lastDay : addDays(lastDay, -1);
  return {
    from: fromMs,
    to: toMs,
    full: fullFrom <= fullTo ? { from: fullFrom, to: fullTo } : null,
    edgeDays,
    firstDay,
    lastDay,
  };
}

/**
 * SQL condition selecting the rollup rows of `alias` that make up the range exactly once: daily rows of
 * the fully covered days, hourly rows starting inside the range on the edge days.
 */
export function rangeSql(alias: string, plan: RollupRange, params: unknown[]): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  const parts: string[] = [];
  if (plan.full) {
    parts.push(
      `(${alias}.hour = -1 AND ${alias}.day BETWEEN ${p(plan.full.from)}::date AND ${p(plan.full.to)}::date)`,
    );
  }
  if (plan.edgeDays.length) {
    parts.push(
      `(${alias}.hour >= 0 AND ${alias}.day = ANY(${p(plan.edgeDays)}::date[])
        AND ${alias}.starts_at >= ${p(new Date(plan.from).toISOString())}::timestamptz
        AND ${alias}.starts_at < ${p(new Date(plan.to).toISOString())}::timestamptz)`,
    );
  }
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

/** Hourly rows starting inside the range (for charts), bounded by day for the primary key. */
export function hourlySql(alias: string, plan: RollupRange, params: unknown[]): string {
  const p = (v: unknown) => `$${params.push(v)}`;
  return `(${alias}.hour >= 0 AND ${alias}.day BETWEEN ${p(plan.firstDay)}::date AND ${p(plan.lastDay)}::date
    AND ${alias}.starts_at >= ${p(new Date(plan.from).toISOString())}::timestamptz
    AND ${alias}.starts_at < ${p(new Date(plan.to).toISOString())}::timestamptz)`;
}

/** Whether the request zone's days are the rollup days over the whole range (same midnight every day). */
export function sameDays(fromDay: string, toDay: string, timeZone: string, rollupTimeZone: string): boolean {
  if (timeZone === rollupTimeZone) return true;
  for (let d = fromDay; d <= addDays(toDay, 1); d = addDays(d, 1)) {
    if (dayStartOf(d, timeZone) !== dayStartOf(d, rollupTimeZone)) return false;
  }
  return true;
}
