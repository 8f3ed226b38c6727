import { intlLocale } from '@fleet/core';
import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { format } from '../i18n';
import { MinusIcon, TrendDownIcon, TrendUpIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';
import { ar } from './messages.ar';
import { en } from './messages.en';
import { deltaFromPercent, statDelta, type DeltaTone, type StatDelta } from './stat-delta';

export const statCardSizes = ['sm', 'md'] as const;
export type StatCardSize = (typeof statCardSizes)[number];

export const statCardRecipe = cva('flex flex-col rounded-lg border border-border bg-surface', {
  variants: {
    size: { sm: 'gap-1 p-3', md: 'gap-2 p-4' } satisfies Record<StatCardSize, string>,
  },
  defaultVariants: { size: 'md' },
});

export const statDeltaRecipe = cva(
  'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
  {
    variants: {
      tone: {
        positive: 'bg-success-soft text-success',
        negative: 'bg-danger-soft text-danger',
        neutral: 'bg-surface-sunken text-foreground-muted',
      } satisfies Record<DeltaTone, string>,
    },
  },
);

export type StatCardLabels = Partial<Record<keyof typeof en | 'trendUp' | 'trendDown' | 'loading', string>>;

export interface StatCardProps {
  label: ReactNode;
  /** A number is formatted for the locale; a string or node is shown as given. */
  value: number | string | ReactNode;
  /** Unit after the value (km, L, h, %). */
  unit?: ReactNode;
  /** Previous period's value: the delta is computed from it (needs a numeric `value`). */
  previousValue?: number;
  /** Or the change in percent, given directly (wins over previousValue). */
  deltaPercent?: number;
  /** Which direction is good news (tone of the delta). Default 'up'. */
  goodDirection?: 'up' | 'down';
  /** Overrides the 'vs previous period' caption. */
  deltaCaption?: ReactNode;
  icon?: ReactNode;
  loading?: boolean;
  size?: StatCardSize;
  /** Intl options for a numeric value (default: up to 1 fraction digit). */
  numberFormat?: Intl.NumberFormatOptions;
  labels?: StatCardLabels;
  className?: string;
}

function resolveDelta(
  value: unknown,
  previousValue?: number,
  deltaPercent?: number,
  good?: 'up' | 'down',
): StatDelta | null {
  if (deltaPercent !== undefined) return deltaFromPercent(deltaPercent, good);
  if (previousValue !== undefined && typeof value === 'number') return statDelta(value, previousValue, good);
  return null;
}

/**
 * A KPI tile: label, value with unit, and the change against the previous period with an up/down
 * arrow (the kit's directional trend icons, mirrored in Arabic) in a good/bad tone. While loading it
 * keeps its size with skeleton bars and sets aria-busy.
 */
export function StatCard({
  label,
  value,
  unit,
  previousValue,
  deltaPercent,
  goodDirection = 'up',
  deltaCaption,
  icon,
  loading = false,
  size = 'md',
  numberFormat,
  labels,
  className,
}: StatCardProps) {
  const { locale, localeTag } = useUi();
  const kit = useLabels(['trendUp', 'trendDown', 'loading'], labels);
  const own = { ...(locale === 'ar' ? ar : en), ...labels };
  const numbers = new Intl.NumberFormat(intlLocale(localeTag), { maximumFractionDigits: 1, ...numberFormat });
  const percents = new Intl.NumberFormat(intlLocale(localeTag), {
    maximumFractionDigits: 1,
    signDisplay: 'never',
  });
  const delta = loading ? null : resolveDelta(value, previousValue, deltaPercent, goodDirection);
  const shown = typeof value === 'number' ? numbers.format(value) : value;
  const deltaText =
    delta?.percent === null || delta === null ? null : `${percents.format(Math.abs(delta.percent))}%`;

  return (
    <div
      data-slot="stat-card"
      data-size={size}
      data-tone={delta?.tone}
      aria-busy={loading || undefined}
      className={cn(statCardRecipe({ size }), className)}
    >
      <div className="flex items-center justify-between gap-2">
        <p data-slot="stat-card-label" className="text-sm text-foreground-muted">
          {label}
        </p>
        {icon ? (
          <span aria-hidden="true" className="text-foreground-muted">
            {icon}
          </span>
        ) : null}
      </div>
      {loading ? (
        <div data-slot="stat-card-skeleton" className="flex flex-col gap-2">
          <span className="sr-only">{kit.loading}</span>
          <span
            aria-hidden="true"
            className="h-7 w-24 animate-pulse rounded bg-surface-sunken motion-reduce:animate-none"
          />
          <span
            aria-hidden="true"
            className="h-4 w-32 animate-pulse rounded bg-surface-sunken motion-reduce:animate-none"
          />
        </div>
      ) : (
        <>
          <p data-slot="stat-card-value" className="flex items-baseline gap-1 text-foreground">
            <span className={cn('font-semibold tabular-nums', size === 'sm' ? 'text-xl' : 'text-2xl')}>
              <bdi>{shown}</bdi>
            </span>
            {unit ? <span className="text-sm text-foreground-muted">{unit}</span> : null}
          </p>
          {delta ? (
            <p className="flex flex-wrap items-center gap-2 text-xs text-foreground-muted">
              <span
                data-slot="stat-card-delta"
                data-tone={delta.tone}
                data-variant={delta.direction}
                className={statDeltaRecipe({ tone: delta.tone })}
              >
                {delta.direction === 'up' ? (
                  <TrendUpIcon size={14} />
                ) : delta.direction === 'down' ? (
                  <TrendDownIcon size={14} />
                ) : (
                  <MinusIcon size={14} />
                )}
                {delta.direction === 'flat' ? (
                  own.noChange
                ) : deltaText === null ? (
                  <span className="sr-only">
                    {delta.direction === 'up'
                      ? format(kit.trendUp, { value: '' }).trim()
                      : format(kit.trendDown, { value: '' }).trim()}
                  </span>
                ) : (
                  <>
                    <span aria-hidden="true">
                      <bdi>{deltaText}</bdi>
                    </span>
                    <span className="sr-only">
                      {format(delta.direction === 'up' ? kit.trendUp : kit.trendDown, { value: deltaText })}
                    </span>
                  </>
                )}
              </span>
              <span>{deltaCaption ?? own.comparedToPrevious}</span>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
