/**
 * Form and layout pieces of the pages. Field, TextInput and TextArea are the kit's FormField, Input
 * and Textarea; SelectInput stays a native <select> styled like the kit's controls (the kit's Select
 * is a Radix listbox; the native one keeps forms simple and testable). PageHeader is the kit's. Card,
 * Loading and ErrorBox stay here: the kit has no card, no inline loading line and no inline alert
 * (its StatePanel/ErrorState are full-page states).
 */
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import {
  FormField,
  Input,
  PageHeader as KitPageHeader,
  Textarea,
  type InputKind,
  type PageHeaderProps,
} from '@fleet/ui';
import { cn } from './kit';

export const inputClass =
  'h-10 w-full rounded-md border border-border-strong bg-surface px-3 text-sm text-foreground ' +
  'placeholder:text-foreground-muted outline-none focus-visible:outline-2 focus-visible:outline-focus-ring ' +
  'aria-[invalid=true]:border-danger disabled:opacity-60';

export interface FieldProps {
  id: string;
  label: ReactNode;
  /** Shows the kit's '(optional)' marker after the label. */
  optional?: boolean;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
  className?: string;
}

/** The kit's FormField (label, '(optional)', hint, error wired to the control) with a fixed id. */
export function Field({ id, label, optional, hint, error, children, className }: FieldProps) {
  return (
    <FormField
      id={id}
      label={label}
      optional={optional ?? false}
      hint={hint}
      error={error}
      {...(className ? { className } : {})}
    >
      {children}
    </FormField>
  );
}

const kitKinds: Record<string, InputKind> = {
  text: 'text',
  password: 'password',
  email: 'email',
  tel: 'phone',
  date: 'date',
  time: 'time',
  search: 'search',
};

/**
 * The kit's Input for the kinds it has; date-time and colour pickers (which it has not) are native
 * inputs with the same look. Numbers are typed as text on purpose so a non-number reaches the
 * contract and gets its 'Please enter a valid {field}' text.
 */
export function TextInput({
  className,
  type = 'text',
  size: _size,
  ...props
}: InputHTMLAttributes<HTMLInputElement>) {
  const kind = kitKinds[type];
  if (kind) return <Input kind={kind} {...(className ? { className } : {})} {...props} />;
  return <input type={type} className={cn(inputClass, className)} {...props} />;
}

export function TextArea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <Textarea {...(className ? { className } : {})} {...props} />;
}

export function SelectInput({ className, children, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select className={cn(inputClass, className)} {...props}>
      {children}
    </select>
  );
}

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <section
      data-slot="card"
      className={cn('rounded-lg border border-border bg-surface p-4 shadow-sm md:p-6', className)}
    >
      {children}
    </section>
  );
}

/** The kit's PageHeader with the space the pages expect below it. */
export function PageHeader({ className, ...props }: PageHeaderProps) {
  return <KitPageHeader className={cn('mb-4', className)} {...props} />;
}

export function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center p-8 text-sm text-foreground-muted">
      {label}
    </div>
  );
}

export function ErrorBox({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger">
      {message}
    </div>
  );
}
