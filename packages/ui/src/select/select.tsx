import * as RadixSelect from '@radix-ui/react-select';
import { CheckIcon, ChevronDownIcon } from '../icons';
import { useFieldControlProps } from '../form-field';
import { controlRecipe, type ControlSize } from '../input';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps {
  options: readonly SelectOption[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  placeholder?: string;
  size?: ControlSize;
  disabled?: boolean;
  invalid?: boolean;
  required?: boolean;
  name?: string;
  id?: string;
  'aria-label'?: string;
  className?: string;
  labels?: Partial<Pick<UiMessages, 'selectPlaceholder'>>;
}

/** A single-choice list on Radix Select (keyboard, typeahead, RTL from the provider). */
export function Select({
  options,
  placeholder,
  size = 'md',
  invalid,
  className,
  labels,
  id,
  required,
  'aria-label': ariaLabel,
  ...rootProps
}: SelectProps) {
  const field = useFieldControlProps({ id, invalid, required });
  const text = useLabels(['selectPlaceholder'], labels);
  const { dir } = useUi();
  return (
    <RadixSelect.Root dir={dir} required={required} {...rootProps}>
      <RadixSelect.Trigger
        id={field.id}
        aria-label={ariaLabel}
        aria-describedby={field['aria-describedby']}
        aria-invalid={field['aria-invalid']}
        data-slot="select-trigger"
        data-size={size}
        className={cn(
          controlRecipe({ size }),
          'flex items-center justify-between gap-2 text-start data-placeholder:text-foreground-muted',
          className,
        )}
      >
        <RadixSelect.Value placeholder={placeholder ?? text.selectPlaceholder} />
        <RadixSelect.Icon>
          <ChevronDownIcon className="text-foreground-muted" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          data-slot="select-content"
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-(--radix-select-trigger-width) overflow-hidden rounded-md border border-border bg-surface-raised text-foreground shadow-lg"
        >
          <RadixSelect.Viewport className="p-1">
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={option.value}
                disabled={option.disabled}
                data-slot="select-item"
                className="relative flex cursor-default items-center rounded-sm py-2 ps-8 pe-3 text-sm outline-none select-none data-disabled:opacity-50 data-highlighted:bg-primary-soft data-highlighted:text-foreground"
              >
                <RadixSelect.ItemIndicator className="absolute start-2 inline-flex">
                  <CheckIcon />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
