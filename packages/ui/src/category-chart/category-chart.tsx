import { intlLocale } from '@fleet/core';
import { cva } from 'class-variance-authority';
import { useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useUi } from '../provider';

export const categoryChartTones = [
  'primary',
  'live',
  'idle',
  'offline',
  'warning',
  'danger',
  'success',
] as const;
export type CategoryChartTone = (typeof categoryChartTones)[number];

const barRecipe = cva('w-full max-w-12 rounded-t-sm', {
  variants: {
    tone: {
      primary: 'bg-primary',
      live: 'bg-tone-live',
      idle: 'bg-tone-idle',
      offline: 'bg-tone-offline',
      warning: 'bg-warning',
      danger: 'bg-danger',
      success: 'bg-success',
    } satisfies Record<CategoryChartTone, string>,
  },
  defaultVariants: { tone: 'primary' },
});

export interface CategoryDatum {
  /** Category name under the bar (a tyre position, a branch, a driver). */
  label: ReactNode;
  /** null when the category has no reading (drawn as an empty slot with the no-value text). */
  value: number | null;
}

export interface CategoryBarChartProps {
  /** The figure's caption and accessible name. */
  title: ReactNode;
  data: readonly CategoryDatum[];
  /** Unit after each value (kPa, °C, km). */
  unit?: string;
  tone?: CategoryChartTone;
  /** Bar area height in pixels (default 160). */
  height?: number;
  /** Formats a value; default: the locale's number with up to 1 fraction digit. */
  formatValue?: (value: number) => string;
  /** Shown for a missing value (default '—'). */
  noValue?: string;
  className?: string;
}

/** Share of the tallest bar, 0..1 (bars start at zero; negative values count as zero). */
export function barShare(value: number | null, max: number): number {
  if (value === null || !Number.isFinite(value) || value <= 0 || max <= 0) return 0;
  return Math.min(1, value / max);
}

/**
 * Bars for categories (not time): one per item, in reading order, so in Arabic the first category
 * sits on the right like the text. Built from HTML rather than a canvas: each value is visible text
 * above its bar and the list reads naturally with a screen reader; the bars themselves are hidden
 * from assistive technology. Colours are the kit's tone tokens.
 */
export function CategoryBarChart({
  title,
  data,
  unit,
  tone = 'primary',
  height = 160,
  formatValue,
  noValue = '—',
  className,
}: CategoryBarChartProps) {
  const { localeTag } = useUi();
  const captionId = useId();
  const numbers = new Intl.NumberFormat(intlLocale(localeTag), { maximumFractionDigits: 1 });
  const format = formatValue ?? ((v: number) => numbers.format(v));
  const max = Math.max(0, ...data.map((d) => (d.value !== null && Number.isFinite(d.value) ? d.value : 0)));
  return (
    <figure
      data-slot="category-chart"
      data-tone={tone}
      aria-labelledby={captionId}
      // Many categories on a narrow screen (a bar per vehicle of a 50-vehicle fleet on a phone: the
      // gaps alone are wider than the screen): the chart scrolls inside its frame, never the page.
      className={cn('overflow-x-auto rounded-lg border border-border bg-surface p-3', className)}
    >
      <figcaption id={captionId} className="mb-2 text-sm font-medium text-foreground">
        {title}
      </figcaption>
      <ul className="flex items-end gap-2 border-b border-border">
        {data.map((datum, index) => {
          const share = barShare(datum.value, max);
          const text = datum.value === null ? noValue : `${format(datum.value)}${unit ? ` ${unit}` : ''}`;
          return (
            <li
              key={index}
              data-slot="category-chart-item"
              className="relative flex min-w-0 flex-1 flex-col items-center gap-1"
            >
              {/* Many bars on a phone: the value is cut with an ellipsis inside its bar's width (the
                  whole text stays in the DOM for screen readers) instead of widening the page. */}
              <span className="max-w-full truncate text-xs text-foreground tabular-nums">
                <bdi>{text}</bdi>
              </span>
              <span aria-hidden="true" className="flex w-full items-end justify-center" style={{ height }}>
                <span
                  data-slot="category-chart-bar"
                  className={barRecipe({ tone })}
                  style={{ height: `${share * 100}%` }}
                />
              </span>
              <span className="sr-only">{datum.label}</span>
            </li>
          );
        })}
      </ul>
      <div aria-hidden="true" className="flex gap-2 pt-1">
        {data.map((datum, index) => (
          <span key={index} className="min-w-0 flex-1 truncate text-center text-xs text-foreground-muted">
            {datum.label}
          </span>
        ))}
      </div>
    </figure>
  );
}
