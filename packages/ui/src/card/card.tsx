import { cva } from 'class-variance-authority';
import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn';

export const cardPaddings = ['none', 'sm', 'md'] as const;
export type CardPadding = (typeof cardPaddings)[number];

export const cardRecipe = cva('rounded-lg border border-border bg-surface text-foreground shadow-sm', {
  variants: {
    padding: {
      none: '',
      sm: 'p-3',
      md: 'p-4 md:p-6',
    } satisfies Record<CardPadding, string>,
  },
  defaultVariants: { padding: 'md' },
});

export interface CardProps extends HTMLAttributes<HTMLElement> {
  padding?: CardPadding;
  children?: ReactNode;
}

/**
 * A bordered surface that groups one piece of a page (a sign-in form, a settings block, a filter
 * panel). A plain container: headings and landmarks inside it are the caller's.
 */
export function Card({ padding = 'md', className, children, ...props }: CardProps) {
  return (
    <section
      data-slot="card"
      data-size={padding}
      className={cn(cardRecipe({ padding }), className)}
      {...props}
    >
      {children}
    </section>
  );
}

export interface CardHeaderProps {
  title: ReactNode;
  /** Heading level of the title (default 2). */
  level?: 1 | 2 | 3;
  description?: ReactNode;
  /** Content at the inline end of the title row (a link, a small button). */
  actions?: ReactNode;
  className?: string;
}

/** The card's title row: a heading, an optional description and actions at the inline end. */
export function CardHeader({ title, level = 2, description, actions, className }: CardHeaderProps) {
  const Heading = `h${level}` as const;
  return (
    <div
      data-slot="card-header"
      className={cn('mb-4 flex flex-wrap items-start justify-between gap-2', className)}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <Heading className={cn('font-semibold text-foreground', level === 1 ? 'text-xl' : 'text-lg')}>
          {title}
        </Heading>
        {description ? <p className="text-sm text-foreground-muted">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
