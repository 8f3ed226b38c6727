import * as RadixCheckbox from '@radix-ui/react-checkbox';
import { useId, type ReactNode } from 'react';
import { focusRing } from '../button';
import { CheckIcon, MinusIcon } from '../icons';
import { cn } from '../lib/cn';

export interface CheckboxProps extends Omit<
  React.ComponentProps<typeof RadixCheckbox.Root>,
  'children' | 'asChild'
> {
  /** Visible label; without it pass aria-label. */
  label?: ReactNode;
  description?: ReactNode;
}

export function Checkbox({ label, description, id, className, ...props }: CheckboxProps) {
  const generated = useId();
  const controlId = id ?? `checkbox-${generated}`;
  const descriptionId = description ? `${controlId}-description` : undefined;
  return (
    <div data-slot="checkbox-field" className={cn('flex items-start gap-2', className)}>
      <RadixCheckbox.Root
        id={controlId}
        data-slot="checkbox"
        aria-describedby={descriptionId}
        className={cn(
          'mt-0.5 flex size-4.5 shrink-0 items-center justify-center rounded-xs border border-border-strong bg-surface text-primary-foreground',
          'data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=indeterminate]:border-primary data-[state=indeterminate]:bg-primary',
          'disabled:cursor-not-allowed disabled:opacity-50',
          focusRing,
        )}
        {...props}
      >
        <RadixCheckbox.Indicator className="group flex items-center justify-center">
          {props.checked === 'indeterminate' ? <MinusIcon size={14} /> : <CheckIcon size={14} />}
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      {label || description ? (
        <div className="flex flex-col">
          {label ? (
            <label htmlFor={controlId} className="text-sm text-foreground">
              {label}
            </label>
          ) : null}
          {description ? (
            <span id={descriptionId} className="text-xs text-foreground-muted">
              {description}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
