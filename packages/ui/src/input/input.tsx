import { cva } from 'class-variance-authority';
import { useState, type InputHTMLAttributes } from 'react';
import { focusRing } from '../button';
import { useFieldControlProps } from '../form-field';
import { EyeIcon, EyeOffIcon } from '../icons';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export const inputKinds = ['text', 'password', 'number', 'phone', 'date', 'time', 'email', 'search'] as const;
export type InputKind = (typeof inputKinds)[number];
export const controlSizes = ['sm', 'md', 'lg'] as const;
export type ControlSize = (typeof controlSizes)[number];

/** Shared look of text-like controls (Input, Textarea, Select trigger, Combobox trigger). */
export const controlRecipe = cva(
  [
    'w-full rounded-md border border-border-strong bg-surface text-foreground placeholder:text-foreground-muted',
    'disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-danger',
    focusRing,
    'focus-visible:outline-offset-0',
  ],
  {
    variants: {
      size: {
        sm: 'h-8 px-2.5 text-sm',
        md: 'h-10 px-3 text-sm',
        lg: 'h-12 px-4 text-base',
      } satisfies Record<ControlSize, string>,
    },
    defaultVariants: { size: 'md' },
  },
);

/** Kinds whose values are Latin digits or codes: kept LTR even in Arabic (phone, numbers, dates, times). */
const ltrKinds: ReadonlySet<InputKind> = new Set(['number', 'phone', 'date', 'time', 'email']);

const htmlType: Record<InputKind, string> = {
  text: 'text',
  password: 'password',
  number: 'number',
  phone: 'tel',
  date: 'date',
  time: 'time',
  email: 'email',
  search: 'search',
};

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'type'> {
  /** text, password (with show/hide toggle), number, phone (tel, LTR), date, time, email, search. */
  kind?: InputKind;
  size?: ControlSize;
  invalid?: boolean;
  labels?: Partial<Pick<UiMessages, 'showPassword' | 'hidePassword'>>;
  ref?: React.Ref<HTMLInputElement>;
}

export function Input({ kind = 'text', size = 'md', invalid, className, labels, ...props }: InputProps) {
  const field = useFieldControlProps({ ...props, invalid });
  const [revealed, setRevealed] = useState(false);
  const text = useLabels(['showPassword', 'hidePassword'], labels);
  const ltr = ltrKinds.has(kind);
  const input = (
    <input
      data-slot="input"
      data-size={size}
      data-variant={kind}
      type={kind === 'password' && revealed ? 'text' : htmlType[kind]}
      dir={ltr ? 'ltr' : undefined}
      inputMode={kind === 'phone' ? 'tel' : kind === 'number' ? 'decimal' : undefined}
      autoComplete={kind === 'phone' ? 'tel' : undefined}
      {...props}
      id={field.id}
      aria-describedby={field['aria-describedby']}
      aria-invalid={field['aria-invalid']}
      aria-required={field['aria-required']}
      className={cn(
        controlRecipe({ size }),
        // An LTR value in an RTL page still lines up with the other fields' start edge.
        ltr && 'rtl:text-end',
        kind === 'password' && 'pe-10',
        kind !== 'password' && className,
      )}
    />
  );
  if (kind !== 'password') return input;
  return (
    <div data-slot="password-input" className={cn('relative', className)}>
      {input}
      <button
        type="button"
        data-slot="password-toggle"
        aria-pressed={revealed}
        aria-label={revealed ? text.hidePassword : text.showPassword}
        title={revealed ? text.hidePassword : text.showPassword}
        disabled={props.disabled}
        onClick={() => setRevealed((r) => !r)}
        className={cn(
          'absolute inset-y-0 end-0 flex w-10 items-center justify-center rounded-e-md text-foreground-muted hover:text-foreground',
          focusRing,
        )}
      >
        {revealed ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
