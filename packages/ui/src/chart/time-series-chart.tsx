import { intlLocale } from '@fleet/core';
import 'uplot/dist/uPlot.min.css';
import { cva } from 'class-variance-authority';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { format } from '../i18n/locale';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
// The index (not just the contract) so the token stylesheet the canvas reads is always loaded.
import { vars } from '../tokens';
import {
  formatNumber,
  summarizeSeries,
  timeFormatOptions,
  timeGranularity,
  toUplotData,
  validateChartData,
  chartTones,
  type ChartSeries,
  type ChartTone,
} from './chart-logic';
import { chartMessagesAr } from './messages.ar';
import { chartMessagesEn, type ChartMessages } from './messages.en';

export const chartKinds = ['line', 'bar'] as const;
export type ChartKind = (typeof chartKinds)[number];

export const chartVariants = cva(
  'flex flex-col gap-2 rounded-lg border border-border bg-surface p-3 text-foreground',
  {
    variants: { kind: { line: '', bar: '' } satisfies Record<ChartKind, string> },
  },
);

const toneRefs: Record<ChartTone, string> = {
  primary: vars.color.primary,
  live: vars.color.toneLive,
  idle: vars.color.toneIdle,
  offline: vars.color.toneOffline,
  warning: vars.color.warning,
  danger: vars.color.danger,
  success: vars.color.success,
  neutral: vars.color.toneNeutral,
};

const swatchClass: Record<ChartTone, string> = {
  primary: 'bg-primary',
  live: 'bg-tone-live',
  idle: 'bg-tone-idle',
  offline: 'bg-tone-offline',
  warning: 'bg-warning',
  danger: 'bg-danger',
  success: 'bg-success',
  neutral: 'bg-tone-neutral',
};

const cssVar = (ref: string) => ref.replace(/^var\((--[\w-]+)\)$/, '$1');

export interface TimeSeriesChartProps {
  /** Chart title: the figure's accessible name (shown unless `hideTitle`). */
  title: string;
  hideTitle?: boolean;
  /** Epoch milliseconds, ascending. */
  timestamps: readonly number[];
  series: readonly ChartSeries[];
  /** Plot height in pixels (default 240); the width follows the container. */
  height?: number;
  /** IANA zone for time labels (default: the browser's). */
  timeZone?: string;
  /** Fixed value-axis range; otherwise fitted to the data (bars always include 0). */
  yMin?: number;
  yMax?: number;
  labels?: Partial<ChartMessages>;
  className?: string;
  /**
   * The time under the pointer (epoch ms), or null when it leaves the plot: lets a page link the chart
   * to something else, e.g. the route history moves the map's play head to the hovered moment.
   */
  onCursorTime?: (time: number | null) => void;
  /**
   * A moment to mark on the time axis with a vertical line (epoch ms; null or omitted: none), e.g. the
   * route history's play head, which moves with the replay and with the pointer on the map. Drawn over
   * the plot, outside uPlot's own hover cursor, so both can show at once.
   */
  markerTime?: number | null;
}

function useChartMessages(labels?: Partial<ChartMessages>): ChartMessages {
  const { locale } = useUi();
  return useMemo(
    () => ({ ...(locale === 'ar' ? chartMessagesAr : chartMessagesEn), ...labels }),
    [locale, labels],
  );
}

/**
 * Time-series chart on uPlot (canvas). Colours come from the design tokens at runtime; the legend,
 * title and summary follow the page direction. Design decision for Arabic: time still runs left to
 * right (as on the map and in the route scrubber's data), while the value axis moves to the inline
 * start side (the right) and the legend aligns to the start. The canvas is hidden from assistive
 * technology; a visually hidden summary table (min, max, average, latest per series) describes it.
 */
export function TimeSeriesChart({
  kind,
  title,
  hideTitle = false,
  timestamps,
  series,
  height = 240,
  timeZone,
  yMin,
  yMax,
  labels,
  className,
  onCursorTime,
  markerTime,
}: TimeSeriesChartProps & { kind: ChartKind }) {
  const { dir, localeTag, theme } = useUi();
  const messages = useChartMessages(labels);
  const titleId = useId();
  const summaryId = useId();
  const plotRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const [cursorIndex, setCursorIndex] = useState<number | null>(null);
  const markerRef = useRef<HTMLDivElement | null>(null);
  // Bumped when the plot is (re)built or resized, so the marker is placed again.
  const [layout, setLayout] = useState(0);
  const onCursorTimeRef = useRef(onCursorTime);
  useEffect(() => {
    onCursorTimeRef.current = onCursorTime;
  });

  validateChartData(timestamps, series);
  const tones = useMemo(() => series.map((s, i) => s.tone ?? chartTones[i % chartTones.length]!), [series]);
  const summaries = useMemo(() => series.map((s) => summarizeSeries(s.values)), [series]);
  const span = timestamps.length > 1 ? timestamps[timestamps.length - 1]! - timestamps[0]! : 0;
  const timeFmt = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(localeTag), timeFormatOptions(timeGranularity(span), timeZone)),
    [localeTag, span, timeZone],
  );
  const fullFmt = useMemo(
    () =>
      new Intl.DateTimeFormat(intlLocale(localeTag), {
        ...timeFormatOptions('minute', timeZone),
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
    [localeTag, timeZone],
  );
  const fmtValue = (v: number | null | undefined, s: ChartSeries) =>
    typeof v === 'number' && Number.isFinite(v)
      ? `${formatNumber(v, localeTag)}${s.unit ? ` ${s.unit}` : ''}`
      : messages.noValue;

  const empty = timestamps.length === 0;

  // Build (and rebuild on theme, direction or data shape changes) the uPlot instance.
  useEffect(() => {
    const el = plotRef.current;
    if (!el || empty) return;
    const style = getComputedStyle(el);
    const read = (ref: string) => style.getPropertyValue(cssVar(ref)).trim() || style.color;
    const axisColour = read(vars.color.foregroundMuted);
    const gridColour = read(vars.color.border);
    const font = `12px ${style.fontFamily}`;
    const colours = tones.map((t) => read(toneRefs[t]));
    const valueSide = dir === 'rtl' ? 1 : 3;
    const opts: uPlot.Options = {
      width: Math.max(100, el.clientWidth),
      height,
      ms: 1,
      legend: { show: false },
      cursor: { points: { size: 7 }, drag: { x: false, y: false } },
      scales: {
        x: { time: true },
        y: {
          range: (_u, min, max) => {
            const lo = yMin ?? (kind === 'bar' ? Math.min(0, min) : min);
            const hi = yMax ?? (max === lo ? lo + 1 : max);
            const pad = yMax === undefined ? (hi - lo) * 0.05 : 0;
            return [lo, hi + pad];
          },
        },
      },
      axes: [
        {
          stroke: axisColour,
          font,
          grid: { stroke: gridColour, width: 1 },
          ticks: { stroke: gridColour, width: 1 },
          values: (_u, splits) => splits.map((t) => timeFmt.format(t)),
        },
        {
          side: valueSide,
          stroke: axisColour,
          font,
          size: 56,
          grid: { stroke: gridColour, width: 1 },
          ticks: { stroke: gridColour, width: 1 },
          values: (_u, splits) => splits.map((v) => formatNumber(v, localeTag)),
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: colours[i],
          width: kind === 'bar' ? 0 : 2,
          ...(kind === 'bar'
            ? {
                fill: colours[i],
                paths: uPlot.paths.bars!({ size: [0.7 / series.length, 48], align: 0 }),
                points: { show: false },
              }
            : { points: { show: false }, spanGaps: false }),
        })),
      ],
      hooks: {
        // Scales are known once uPlot has committed its first layout (after construction), and change
        // when it resizes: the marker is placed again then.
        ready: [() => setLayout((n) => n + 1)],
        setScale: [() => setLayout((n) => n + 1)],
        setCursor: [
          (u) => {
            const idx = u.cursor.idx ?? null;
            setCursorIndex(idx);
            onCursorTimeRef.current?.(idx === null ? null : (timestamps[idx] ?? null));
          },
        ],
      },
    };
    const chart = new uPlot(opts, toUplotData(timestamps, series) as uPlot.AlignedData, el);
    chart.root.setAttribute('aria-hidden', 'true');
    chartRef.current = chart;
    // The play-head marker lives in uPlot's overlay (the plotting area), placed by the effect below.
    const marker = document.createElement('div');
    marker.setAttribute('data-slot', 'chart-marker');
    marker.style.cssText = `position:absolute;top:0;bottom:0;width:2px;margin-left:-1px;pointer-events:none;display:none;background:${read(vars.color.foreground)}`;
    chart.over.appendChild(marker);
    markerRef.current = marker;
    setLayout((n) => n + 1);
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            const w = el.clientWidth;
            if (w > 0 && w !== chart.width) {
              chart.setSize({ width: w, height });
              setLayout((n) => n + 1);
            }
          });
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      chart.destroy();
      chartRef.current = null;
      markerRef.current = null;
    };
    // theme: colours are re-read from the tokens when the theme switches.
  }, [kind, timestamps, series, tones, height, dir, theme, timeFmt, localeTag, yMin, yMax, empty]);

  // Place the marker: hidden without a time or outside the plotted range.
  useEffect(() => {
    const chart = chartRef.current;
    const marker = markerRef.current;
    if (!chart || !marker) return;
    const first = timestamps[0];
    const last = timestamps[timestamps.length - 1];
    if (
      markerTime == null ||
      first === undefined ||
      last === undefined ||
      markerTime < first ||
      markerTime > last
    ) {
      marker.style.display = 'none';
      marker.removeAttribute('data-time');
      return;
    }
    marker.style.left = `${chart.valToPos(markerTime, 'x')}px`;
    marker.style.display = 'block';
    marker.setAttribute('data-time', String(markerTime));
  }, [markerTime, layout, timestamps]);

  const legendIndex = cursorIndex ?? timestamps.length - 1;
  return (
    <figure
      data-slot="chart"
      data-kind={kind}
      aria-labelledby={titleId}
      aria-describedby={summaryId}
      className={cn(chartVariants({ kind }), className)}
    >
      <figcaption
        id={titleId}
        className={cn(hideTitle ? 'sr-only' : 'text-sm font-semibold text-foreground')}
      >
        {title}
      </figcaption>
      {empty ? (
        <p
          data-slot="chart-empty"
          className="flex items-center justify-center py-10 text-sm text-foreground-muted"
          style={{ minHeight: height }}
        >
          {messages.noData}
        </p>
      ) : (
        <>
          <ul
            data-slot="chart-legend"
            aria-hidden="true"
            className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-foreground-muted"
          >
            {series.map((s, i) => (
              <li key={s.label} className="flex items-center gap-1.5">
                <span className={cn('inline-block size-2.5 rounded-sm', swatchClass[tones[i]!])} />
                <span>{s.label}</span>
                <bdi dir="ltr" className="font-medium text-foreground tabular-nums">
                  {fmtValue(s.values[legendIndex], s)}
                </bdi>
              </li>
            ))}
          </ul>
          <div
            ref={plotRef}
            data-slot="chart-plot"
            dir="ltr"
            className="w-full"
            style={{ minHeight: height }}
          />
        </>
      )}
      <div id={summaryId} className="sr-only" data-slot="chart-summary">
        {empty ? null : (
          <>
            <p>
              {format(messages.readings, {
                count: timestamps.length,
                start: fullFmt.format(timestamps[0]!),
                end: fullFmt.format(timestamps[timestamps.length - 1]!),
              })}
            </p>
            <table>
              <caption>{format(messages.summary, { title })}</caption>
              <thead>
                <tr>
                  <th scope="col">{messages.series}</th>
                  <th scope="col">{messages.minimum}</th>
                  <th scope="col">{messages.maximum}</th>
                  <th scope="col">{messages.average}</th>
                  <th scope="col">{messages.latest}</th>
                </tr>
              </thead>
              <tbody>
                {series.map((s, i) => {
                  const sum = summaries[i];
                  return (
                    <tr key={s.label}>
                      <th scope="row">{s.label}</th>
                      <td>{fmtValue(sum?.min, s)}</td>
                      <td>{fmtValue(sum?.max, s)}</td>
                      <td>{fmtValue(sum?.mean, s)}</td>
                      <td>{fmtValue(sum?.last, s)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </>
        )}
      </div>
    </figure>
  );
}

export type LineChartProps = TimeSeriesChartProps;
export type BarChartProps = TimeSeriesChartProps;

/** Lines over time (fuel level, speed, RPM). */
export function LineChart(props: LineChartProps) {
  return <TimeSeriesChart kind="line" {...props} />;
}

/**
 * Bars over time (distance per day, fuel used per day). Meant for one series; with several, each
 * gets a narrower bar centred on the same time, so they overlap (neither grouped nor stacked).
 */
export function BarChart(props: BarChartProps) {
  return <TimeSeriesChart kind="bar" {...props} />;
}
