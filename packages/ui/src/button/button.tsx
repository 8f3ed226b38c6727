import { Slot } from '@radix-ui/react-slot';
import { cva } from 'class-variance-authority';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useUi } from '../provider';

export const buttonVariants = ['primary', 'secondary', 'outline', 'ghost', 'danger'] as const;
export type ButtonVariant = (typeof buttonVariants)[number];
export const buttonSizes = ['sm', 'md', 'lg'] as const;
export type ButtonSize = (typeof buttonSizes)[number];

export const focusRing =
  'outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus-ring';

export const buttonRecipe = cva(
  [
    'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium select-none',
    'transition-colors disabled:pointer-events-none disabled:opacity-50 aria-busy:cursor-progress',
    focusRing,
  ],
  {
    variants: {
      variant: {
        primary: 'bg-primary text-primary-foreground hover:bg-primary/90',
        secondary: 'bg-primary-soft text-primary hover:bg-primary-soft/80',
        outline: 'border border-border-strong bg-surface text-foreground hover:bg-surface-sunken',
        ghost: 'bg-transparent text-foreground hover:bg-surface-sunken',
        danger: 'bg-danger text-danger-foreground hover:bg-danger/90',
      } satisfies Record<ButtonVariant, string>,
      size: {
        sm: 'h-8 px-3 text-sm',
        md: 'h-10 px-4 text-sm',
        lg: 'h-12 px-6 text-base',
      } satisfies Record<ButtonSize, string>,
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, sets aria-busy and blocks clicks; the label stays for screen readers. */
  loading?: boolean;
  /** Render the child element (e.g. a router link) with the button styles. */
  asChild?: boolean;
  /** Icon before the label (at the inline start). */
  startIcon?: ReactNode;
  /** Icon after the label (at the inline end). */
  endIcon?: ReactNode;
  ref?: React.Ref<HTMLButtonElement>;
}

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      data-slot="spinner"
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={cn('size-4 animate-spin motion-reduce:animate-none', className)}
    >
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
      <path
        d="M21 12a9 9 0 0 0-9-9"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  asChild = false,
  startIcon,
  endIcon,
  className,
  children,
  disabled,
  type,
  ...props
}: ButtonProps) {
  const { messages } = useUi();
  const classes = cn(buttonRecipe({ variant, size }), className);
  if (asChild) {
    return (
      <Slot data-slot="button" data-variant={variant} data-size={size} className={classes} {...props}>
        {children}
      </Slot>
    );
  }
  return (
    <button
      type={type ?? 'button'}
      data-slot="button"
      data-variant={variant}
      data-size={size}
      aria-busy={loading || undefined}
      disabled={disabled || loading}
      className={classes}
      {...props}
    >
      {loading ? <Spinner /> : startIcon}
      {children}
      {loading ? <span className="sr-only">{messages.loading}</span> : null}
      {endIcon}
    </button>
  );
}
