import * as RadixSwitch from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';
import { focusRing } from '../button';
import { cn } from '../lib/cn';

export interface SwitchProps extends Omit<
  React.ComponentProps<typeof RadixSwitch.Root>,
  'children' | 'asChild'
> {
  label?: ReactNode;
  description?: ReactNode;
}

/** On/off toggle; the thumb slides toward the inline end (mirrors in RTL). */
export function Switch({ label, description, id, className, ...props }: SwitchProps) {
  const generated = useId();
  const controlId = id ?? `switch-${generated}`;
  const descriptionId = description ? `${controlId}-description` : undefined;
  return (
    <div data-slot="switch-field" className={cn('flex items-start gap-3', className)}>
      <RadixSwitch.Root
        id={controlId}
        data-slot="switch"
        aria-describedby={descriptionId}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent bg-border-strong transition-colors',
          'data-[state=checked]:bg-primary disabled:cursor-not-allowed disabled:opacity-50',
          focusRing,
        )}
        {...props}
      >
        <RadixSwitch.Thumb
          data-slot="switch-thumb"
          className="block size-5 rounded-full bg-surface shadow transition-transform data-[state=checked]:translate-x-5 rtl:data-[state=checked]:-translate-x-5"
        />
      </RadixSwitch.Root>
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
