/**
 * Pure helpers of the time-series charts: input validation, the uPlot data layout, per-series
 * statistics for the accessible summary, and time-axis label granularity.
 */

/** Colours a series can take, each a design token (`--fl-color-<tone>`). */
export const chartTones = ['primary', 'live', 'idle', 'offline', 'warning', 'danger', 'success', 'neutral'] as const;
export type ChartTone = (typeof chartTones)[number];

export interface ChartSeries {
  label: string;
  /** One value per timestamp; null (or a non-finite number) is a gap. */
  values: readonly (number | null)[];
  /** Unit appended to values (km/h, L, %, rpm). */
  unit?: string;
  tone?: ChartTone;
}

export interface SeriesSummary {
  count: number;
  min: number;
  max: number;
  mean: number;
  last: number;
  /** Timestamp index of the last value. */
  lastIndex: number;
}

/** Throws a descriptive error when the chart input cannot be drawn. */
export function validateChartData(timestamps: readonly number[], series: readonly ChartSeries[]): void {
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i]!;
    if (!Number.isFinite(t)) throw new Error(`Chart timestamp ${i} is not a finite number`);
    if (i > 0 && t < timestamps[i - 1]!) throw new Error(`Chart timestamps must be ascending (index ${i})`);
  }
  for (const s of series) {
    if (s.values.length !== timestamps.length)
      throw new Error(
        `Chart series "${s.label}" has ${s.values.length} values for ${timestamps.length} timestamps`,
      );
  }
}

/** uPlot's column layout: x (ms) then one array per series, gaps as null. */
export function toUplotData(timestamps: readonly number[], series: readonly ChartSeries[]): (number | null)[][] {
  return [
    Array.from(timestamps),
    ...series.map((s) => s.values.map((v) => (typeof v === 'number' && Number.isFinite(v) ? v : null))),
  ];
}

/** Statistics over the finite values of a series; null when it has none. */
export function summarizeSeries(values: readonly (number | null)[]): SeriesSummary | null {
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let last = Number.NaN;
  let lastIndex = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    count++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
    last = v;
    lastIndex = i;
  }
  if (count === 0) return null;
  return { count, min, max, mean: sum / count, last, lastIndex };
}

export type TimeGranularity = 'second' | 'minute' | 'day' | 'month';

/** Label granularity for a time axis spanning `spanMs`. */
export function timeGranularity(spanMs: number): TimeGranularity {
  const hour = 3_600_000;
  if (spanMs <= 10 * 60_000) return 'second';
  if (spanMs <= 3 * 24 * hour) return 'minute';
  if (spanMs <= 120 * 24 * hour) return 'day';
  return 'month';
}

/** Intl options for a granularity (digits always Latin so times read the same in both languages). */
export function timeFormatOptions(granularity: TimeGranularity, timeZone?: string): Intl.DateTimeFormatOptions {
  const base: Intl.DateTimeFormatOptions = { numberingSystem: 'latn', ...(timeZone ? { timeZone } : {}) };
  switch (granularity) {
    case 'second':
      return { ...base, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
    case 'minute':
      return { ...base, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    case 'day':
      return { ...base, day: 'numeric', month: 'short' };
    case 'month':
      return { ...base, month: 'short', year: 'numeric' };
  }
}

/** Rounds for display: integers stay, others get up to `digits` decimals. */
export function formatNumber(value: number, locale: string, digits = 1): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits, numberingSystem: 'latn' }).format(value);
}
