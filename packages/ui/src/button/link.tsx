import { Slot } from '@radix-ui/react-slot';
import { cva } from 'class-variance-authority';
import type { AnchorHTMLAttributes } from 'react';
import { ExternalLinkIcon } from '../icons';
import { cn } from '../lib/cn';
import { focusRing } from './button';

export const linkVariants = ['default', 'muted'] as const;
export type LinkVariant = (typeof linkVariants)[number];

export const linkRecipe = cva(
  ['inline-flex items-center gap-1 rounded-xs underline-offset-4 hover:underline', focusRing],
  {
    variants: {
      variant: {
        default: 'text-primary font-medium',
        muted: 'text-foreground-muted',
      } satisfies Record<LinkVariant, string>,
    },
    defaultVariants: { variant: 'default' },
  },
);

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  variant?: LinkVariant;
  /** Opens in a new tab with rel=noopener and shows the external icon. */
  external?: boolean;
  /** Render the child (e.g. a router <Link>) with the link styles. */
  asChild?: boolean;
  ref?: React.Ref<HTMLAnchorElement>;
}

export function Link({ variant = 'default', external, asChild, className, children, ...props }: LinkProps) {
  const classes = cn(linkRecipe({ variant }), className);
  if (asChild) {
    return (
      <Slot data-slot="link" data-variant={variant} className={classes} {...props}>
        {children}
      </Slot>
    );
  }
  return (
    <a
      data-slot="link"
      data-variant={variant}
      className={classes}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      {...props}
    >
      {children}
      {external ? <ExternalLinkIcon size={14} /> : null}
    </a>
  );
}
