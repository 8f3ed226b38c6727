import * as RadixRadio from '@radix-ui/react-radio-group';
import { useId, type ReactNode } from 'react';
import { focusRing } from '../button';
import { cn } from '../lib/cn';
import { useUi } from '../provider';

export interface RadioOption {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

export const radioOrientations = ['vertical', 'horizontal'] as const;
export type RadioOrientation = (typeof radioOrientations)[number];

export interface RadioGroupProps extends Omit<
  React.ComponentProps<typeof RadixRadio.Root>,
  'children' | 'asChild' | 'orientation' | 'dir'
> {
  options: readonly RadioOption[];
  /** Group label (rendered as the group's accessible name). */
  label: ReactNode;
  orientation?: RadioOrientation;
}

/** Radio buttons on Radix RadioGroup; arrow keys follow the reading direction. */
export function RadioGroup({
  options,
  label,
  orientation = 'vertical',
  className,
  ...props
}: RadioGroupProps) {
  const id = useId();
  const { dir } = useUi();
  return (
    <div data-slot="radio-group-field" className={cn('flex flex-col gap-2', className)}>
      <span id={`${id}-label`} className="text-sm font-medium text-foreground">
        {label}
      </span>
      <RadixRadio.Root
        data-slot="radio-group"
        data-variant={orientation}
        aria-labelledby={`${id}-label`}
        orientation={orientation}
        dir={dir}
        className={cn('flex gap-3', orientation === 'vertical' ? 'flex-col' : 'flex-row flex-wrap')}
        {...props}
      >
        {options.map((option) => {
          const optionId = `${id}-${option.value}`;
          return (
            <div key={option.value} className="flex items-start gap-2">
              <RadixRadio.Item
                id={optionId}
                value={option.value}
                disabled={option.disabled}
                data-slot="radio"
                className={cn(
                  'mt-0.5 flex size-4.5 shrink-0 items-center justify-center rounded-full border border-border-strong bg-surface',
                  'data-[state=checked]:border-primary disabled:cursor-not-allowed disabled:opacity-50',
                  focusRing,
                )}
              >
                <RadixRadio.Indicator className="block size-2.5 rounded-full bg-primary" />
              </RadixRadio.Item>
              <div className="flex flex-col">
                <label htmlFor={optionId} className="text-sm text-foreground">
                  {option.label}
                </label>
                {option.description ? (
                  <span className="text-xs text-foreground-muted">{option.description}</span>
                ) : null}
              </div>
            </div>
          );
        })}
      </RadixRadio.Root>
    </div>
  );
}
