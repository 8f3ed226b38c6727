import type { StatusTone } from '@fleet/core';
import { statusTones } from '@fleet/core';
import { cva } from 'class-variance-authority';
import { useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import { ar } from './messages.ar';
import { en } from './messages.en';

export type DetailLayoutLabels = Partial<Record<keyof typeof en, string>>;

/** Status tones a badge can take: the semantic tones of @fleet/core. */
export const detailStatusTones = statusTones;

export const detailStatusBadgeRecipe = cva(
  'inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
  {
    variants: {
      tone: {
        live: 'bg-tone-live-soft text-tone-live',
        idle: 'bg-tone-idle-soft text-tone-idle',
        offline: 'bg-tone-offline-soft text-tone-offline',
        inactive: 'bg-tone-inactive-soft text-tone-inactive',
        noData: 'bg-tone-no-data-soft text-tone-no-data',
        neutral: 'bg-tone-neutral-soft text-tone-neutral',
      } satisfies Record<StatusTone, string>,
    },
    defaultVariants: { tone: 'neutral' },
  },
);

export interface DetailStatusBadgeProps {
  tone?: StatusTone;
  children: ReactNode;
  className?: string;
}

/** A soft pill with a dot in a status tone (e.g. Active -> live, Expired -> offline). */
export function DetailStatusBadge({ tone = 'neutral', children, className }: DetailStatusBadgeProps) {
  return (
    <span
      data-slot="status-badge"
      data-tone={tone}
      className={cn(detailStatusBadgeRecipe({ tone }), className)}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {children}
    </span>
  );
}

export interface DetailLayoutProps {
  title: ReactNode;
  /** A line under the title (e.g. the vehicle type, or an id). */
  subtitle?: ReactNode;
  /** Status shown next to the title. */
  status?: { label: ReactNode; tone: StatusTone };
  /** Header actions (edit, delete, update status ...), at the inline end. */
  actions?: ReactNode;
  /** Something above the title, typically Breadcrumbs. */
  breadcrumbs?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/** A detail page: header (title, status, actions) and a column of DetailSections. */
export function DetailLayout({
  title,
  subtitle,
  status,
  actions,
  breadcrumbs,
  children,
  className,
}: DetailLayoutProps) {
  return (
    <article data-slot="detail-layout" className={cn('flex flex-col gap-6', className)}>
      <header data-slot="detail-header" className="flex flex-col gap-3">
        {breadcrumbs}
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-semibold text-foreground">{title}</h1>
              {status ? <DetailStatusBadge tone={status.tone}>{status.label}</DetailStatusBadge> : null}
            </div>
            {subtitle ? <p className="text-sm text-foreground-muted">{subtitle}</p> : null}
          </div>
          {actions ? (
            <div data-slot="detail-actions" className="flex flex-wrap items-center gap-2">
              {actions}
            </div>
          ) : null}
        </div>
      </header>
      {children}
    </article>
  );
}

export interface DetailSectionProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/** A titled card; the heading names the region for assistive technology. */
export function DetailSection({ title, description, actions, children, className }: DetailSectionProps) {
  const id = useId();
  return (
    <section
      data-slot="detail-section"
      aria-labelledby={id}
      className={cn('rounded-lg border border-border bg-surface p-4 sm:p-6', className)}
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={id} className="text-base font-semibold text-foreground">
            {title}
          </h2>
          {description ? <p className="text-sm text-foreground-muted">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

export interface DescriptionItem {
  /** Stable key (defaults to the index). */
  id?: string;
  label: ReactNode;
  /** null, undefined and '' show the empty placeholder. */
  value?: ReactNode;
  /**
   * Left-to-right data (plate numbers, IMEIs, phones, dates, coordinates): isolated in a
   * `<bdi dir="ltr">` so it keeps its order inside Arabic text.
   */
  ltr?: boolean;
}

export const descriptionListColumns = [1, 2, 3] as const;
export type DescriptionListColumns = (typeof descriptionListColumns)[number];

export const descriptionListRecipe = cva('grid gap-x-6 gap-y-4', {
  variants: {
    columns: {
      1: 'grid-cols-1',
      2: 'grid-cols-1 sm:grid-cols-2',
      3: 'grid-cols-1 sm:grid-cols-2 lg:grid-cols-3',
    } satisfies Record<DescriptionListColumns, string>,
  },
  defaultVariants: { columns: 2 },
});

export interface DescriptionListProps {
  items: readonly DescriptionItem[];
  columns?: DescriptionListColumns;
  /** What an empty value shows (default an em dash, with 'Not provided' for screen readers). */
  placeholder?: ReactNode;
  labels?: DetailLayoutLabels;
  className?: string;
}

/** True for values that render the placeholder. */
export function isEmptyValue(value: ReactNode): boolean {
  return (
    value === null ||
    value === undefined ||
    value === false ||
    (typeof value === 'string' && value.trim() === '')
  );
}

/** Label/value pairs as a real <dl>, each pair in a <div> (valid HTML, keeps pairs together in the grid). */
export function DescriptionList({
  items,
  columns = 2,
  placeholder,
  labels,
  className,
}: DescriptionListProps) {
  const { locale } = useUi();
  const text = { ...(locale === 'ar' ? ar : en), ...labels };
  return (
    <dl
      data-slot="description-list"
      data-size={columns}
      className={cn(descriptionListRecipe({ columns }), className)}
    >
      {items.map((item, index) => {
        const empty = isEmptyValue(item.value);
        return (
          <div
            key={item.id ?? index}
            data-slot="description-item"
            data-empty={empty || undefined}
            className="min-w-0"
          >
            <dt className="text-sm text-foreground-muted">{item.label}</dt>
            <dd className="mt-0.5 text-sm font-medium break-words text-foreground">
              {empty ? (
                (placeholder ?? (
                  <>
                    <span aria-hidden="true" className="text-foreground-muted">
                      —
                    </span>
                    <span className="sr-only">{text.notProvided}</span>
                  </>
                ))
              ) : item.ltr ? (
                <bdi dir="ltr">{item.value}</bdi>
              ) : (
                item.value
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
