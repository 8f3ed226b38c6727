import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { ErrorIcon, InboxIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export const stateSizes = ['sm', 'md', 'lg'] as const;
export type StateSize = (typeof stateSizes)[number];
export const stateTones = ['neutral', 'danger'] as const;
export type StateTone = (typeof stateTones)[number];

export const statePanelRecipe = cva('flex flex-col items-center text-center', {
  variants: {
    size: {
      sm: 'gap-2 px-4 py-6',
      md: 'gap-3 px-6 py-10',
      lg: 'gap-4 px-6 py-16',
    } satisfies Record<StateSize, string>,
  },
  defaultVariants: { size: 'md' },
});

export const stateIconRecipe = cva('flex items-center justify-center rounded-full', {
  variants: {
    tone: {
      neutral: 'bg-surface-sunken text-foreground-muted',
      danger: 'bg-danger-soft text-danger',
    } satisfies Record<StateTone, string>,
    size: { sm: 'size-10', md: 'size-12', lg: 'size-16' } satisfies Record<StateSize, string>,
  },
  defaultVariants: { tone: 'neutral', size: 'md' },
});

export interface StatePanelProps {
  /** Replaces the default icon; pass null for none. */
  icon?: ReactNode;
  title?: ReactNode;
  description?: ReactNode;
  /** A button or link (e.g. 'Change date range', 'Retry'). */
  action?: ReactNode;
  size?: StateSize;
  className?: string;
  /** Extra content under the description (e.g. a countdown). */
  children?: ReactNode;
}

function StatePanel({
  slot,
  tone,
  role,
  icon,
  title,
  description,
  action,
  size = 'md',
  className,
  children,
}: StatePanelProps & { slot: string; tone: StateTone; role?: 'status' | 'alert' }) {
  const iconPx = size === 'lg' ? 32 : size === 'sm' ? 20 : 24;
  return (
    <div
      data-slot={slot}
      data-size={size}
      data-tone={tone}
      role={role}
      className={cn(statePanelRecipe({ size }), className)}
    >
      {icon === null ? null : (
        <span data-slot="state-icon" aria-hidden="true" className={stateIconRecipe({ tone, size })}>
          {icon ?? (tone === 'danger' ? <ErrorIcon size={iconPx} /> : <InboxIcon size={iconPx} />)}
        </span>
      )}
      {title ? (
        <p data-slot="state-title" className="text-base font-semibold text-foreground">
          {title}
        </p>
      ) : null}
      {description ? (
        <p data-slot="state-description" className="max-w-md text-sm text-foreground-muted">
          {description}
        </p>
      ) : null}
      {children}
      {action ? (
        <div data-slot="state-action" className="mt-1 flex flex-wrap justify-center gap-2">
          {action}
        </div>
      ) : null}
    </div>
  );
}

export type EmptyStateProps = StatePanelProps & {
  labels?: { emptyTitle?: string; emptyMessage?: string };
};

/**
 * Nothing to show (an empty list, a report with no data). Defaults to the spec's
 * 'No data found, please try selecting different date and time' with no title; pass title and
 * description for other wording. Announced politely (role="status") when it appears.
 */
export function EmptyState({ title, description, labels, ...props }: EmptyStateProps) {
  const l = useLabels(['emptyMessage'], labels);
  return (
    <StatePanel
      slot="empty-state"
      tone="neutral"
      role="status"
      title={title}
      description={description === undefined ? l.emptyMessage : description}
      {...props}
    />
  );
}

export type ErrorStateProps = StatePanelProps & {
  labels?: { errorTitle?: string; errorMessage?: string };
};

/** A failed load: the caller passes the API error message as `description`; announced as an alert. */
export function ErrorState({ title, description, labels, ...props }: ErrorStateProps) {
  const l = useLabels(['errorTitle', 'errorMessage'], labels);
  return (
    <StatePanel
      slot="error-state"
      tone="danger"
      role="alert"
      title={title === undefined ? l.errorTitle : title}
      description={description === undefined ? l.errorMessage : description}
      {...props}
    />
  );
}
