import { cva } from 'class-variance-authority';
import type { HTMLAttributes } from 'react';
import { Spinner } from '../button';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export const loadingStateSizes = ['inline', 'block', 'page'] as const;
export type LoadingStateSize = (typeof loadingStateSizes)[number];

export const loadingStateRecipe = cva('flex items-center gap-2 text-sm text-foreground-muted', {
  variants: {
    size: {
      inline: '',
      block: 'justify-center p-8',
      page: 'min-h-[50vh] justify-center p-8',
    } satisfies Record<LoadingStateSize, string>,
  },
  defaultVariants: { size: 'block' },
});

export interface LoadingStateProps extends HTMLAttributes<HTMLDivElement> {
  /** The text shown and announced; defaults to the kit's 'Loading…'. */
  label?: string;
  size?: LoadingStateSize;
  labels?: { loading?: string };
}

/**
 * 'Loading…' with a spinner while a page or a section waits for data: a polite status, so screen
 * readers hear it once. `inline` sits in a line of text, `block` fills a section, `page` a page.
 */
export function LoadingState({ label, size = 'block', labels, className, ...props }: LoadingStateProps) {
  const l = useLabels(['loading'], labels);
  return (
    <div
      role="status"
      data-slot="loading-state"
      data-size={size}
      className={cn(loadingStateRecipe({ size }), className)}
      {...props}
    >
      <Spinner />
      <span>{label ?? l.loading}</span>
    </div>
  );
}
