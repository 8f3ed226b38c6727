import { cva } from 'class-variance-authority';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn';
import { buttonRecipe, type ButtonSize, type ButtonVariant } from './button';

export const iconButtonRecipe = cva('px-0', {
  variants: {
    size: { sm: 'size-8', md: 'size-10', lg: 'size-12' } satisfies Record<ButtonSize, string>,
  },
  defaultVariants: { size: 'md' },
});

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  /** Accessible name (required: the button shows only an icon). Also used as the tooltip. */
  label: string;
  icon: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: React.Ref<HTMLButtonElement>;
}

export function IconButton({
  label,
  icon,
  variant = 'ghost',
  size = 'md',
  className,
  type,
  ...props
}: IconButtonProps) {
  return (
    <button
      type={type ?? 'button'}
      aria-label={label}
      title={label}
      data-slot="icon-button"
      data-variant={variant}
      data-size={size}
      className={cn(buttonRecipe({ variant, size }), iconButtonRecipe({ size }), className)}
      {...props}
    >
      {icon}
    </button>
  );
}
