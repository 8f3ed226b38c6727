import { cva } from 'class-variance-authority';
import type { HTMLAttributes, ReactNode } from 'react';
import { CheckCircleIcon, ErrorIcon, InfoIcon, WarningIcon } from '../icons';
import { cn } from '../lib/cn';

export const inlineAlertTones = ['danger', 'warning', 'info', 'success'] as const;
export type InlineAlertTone = (typeof inlineAlertTones)[number];

export const inlineAlertRecipe = cva('flex items-start gap-2 rounded-md border p-3 text-sm text-foreground', {
  variants: {
    tone: {
      danger: 'border-danger bg-danger-soft',
      warning: 'border-warning bg-warning-soft',
      info: 'border-primary bg-primary-soft',
      success: 'border-success bg-success-soft',
    } satisfies Record<InlineAlertTone, string>,
  },
  defaultVariants: { tone: 'danger' },
});

const iconTone: Record<InlineAlertTone, string> = {
  danger: 'text-danger',
  warning: 'text-warning',
  info: 'text-primary',
  success: 'text-success',
};

const icons: Record<InlineAlertTone, ReactNode> = {
  danger: <ErrorIcon size={18} />,
  warning: <WarningIcon size={18} />,
  info: <InfoIcon size={18} />,
  success: <CheckCircleIcon size={18} />,
};

export interface InlineAlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  tone?: InlineAlertTone;
  /** Bold first line; the children are the message. */
  title?: ReactNode;
  /** Replaces the tone's icon; null for none. */
  icon?: ReactNode;
  children?: ReactNode;
}

/**
 * A message in the flow of a page or form (a failed sign-in, a rejected save, a note). Danger and
 * warning are announced at once (role alert), info and success politely (role status). The text
 * stays in the foreground colour for contrast; the tone shows in the border, tint and icon.
 */
export function InlineAlert({
  tone = 'danger',
  title,
  icon,
  className,
  children,
  ...props
}: InlineAlertProps) {
  const urgent = tone === 'danger' || tone === 'warning';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      data-slot="inline-alert"
      data-tone={tone}
      className={cn(inlineAlertRecipe({ tone }), className)}
      {...props}
    >
      {icon === null ? null : (
        <span
          aria-hidden="true"
          data-slot="inline-alert-icon"
          className={cn('mt-px flex shrink-0', iconTone[tone])}
        >
          {icon ?? icons[tone]}
        </span>
      )}
      <div className="flex min-w-0 flex-col gap-0.5">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div data-slot="inline-alert-message">{children}</div> : null}
      </div>
    </div>
  );
}
