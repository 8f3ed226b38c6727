import type { ReactNode, SelectHTMLAttributes } from 'react';
import { useFieldControlProps } from '../form-field';
import { ChevronDownIcon } from '../icons';
import { controlRecipe, type ControlSize } from '../input';
import { cn } from '../lib/cn';

export interface NativeSelectOption {
  value: string;
  label: ReactNode;
  disabled?: boolean;
}

export interface NativeSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  size?: ControlSize;
  invalid?: boolean;
  /** The choices; or pass <option> children instead. */
  options?: readonly NativeSelectOption[];
  /** A first, empty choice (value '') with this text, e.g. '—' for 'no filter'. */
  placeholder?: string;
  /** Class of the wrapper (width, margins); the select fills it. */
  className?: string;
  ref?: React.Ref<HTMLSelectElement>;
}

/**
 * The platform's own <select> with the kit's control look (same border, focus ring and sizes as
 * Input) and a chevron at the inline end. Next to the kit's Select (a Radix listbox for rich
 * options), this is the one for plain forms and filters: the phone's native picker, form
 * autofill, and `selectOption` in browser tests. Inside a FormField it takes the field's id,
 * description and error state like the other controls.
 */
export function NativeSelect({
  size = 'md',
  invalid,
  options,
  placeholder,
  className,
  children,
  ...props
}: NativeSelectProps) {
  const field = useFieldControlProps({ ...props, invalid });
  return (
    <div data-slot="native-select" className={cn('relative flex items-center', className)}>
      <select
        data-slot="native-select-control"
        data-size={size}
        {...props}
        id={field.id}
        aria-describedby={field['aria-describedby']}
        aria-invalid={field['aria-invalid']}
        aria-required={field['aria-required']}
        className={cn(controlRecipe({ size }), 'appearance-none pe-9')}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options?.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
      <ChevronDownIcon
        size={16}
        aria-hidden="true"
        className="pointer-events-none absolute end-3 text-foreground-muted"
      />
    </div>
  );
}
