import { createContext, useContext, useId, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';
import type { UiMessages } from '../i18n';

export interface FormFieldContextValue {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
  required: boolean;
}

const FormFieldContext = createContext<FormFieldContextValue | null>(null);

/** Ids and state of the enclosing FormField; controls use it to wire id, aria-describedby and aria-invalid. */
export function useFormField(): FormFieldContextValue | null {
  return useContext(FormFieldContext);
}

/** Props a control takes from the surrounding FormField unless given explicitly. */
export function useFieldControlProps(props: {
  id?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: React.AriaAttributes['aria-invalid'];
  required?: boolean;
  invalid?: boolean;
}) {
  const field = useFormField();
  const ariaInvalid = props['aria-invalid'];
  const isInvalid =
    props.invalid ?? (ariaInvalid === true || ariaInvalid === 'true' || field?.invalid || false);
  return {
    id: props.id ?? field?.id,
    'aria-describedby':
      [props['aria-describedby'], field?.describedBy].filter(Boolean).join(' ') || undefined,
    'aria-invalid': isInvalid || undefined,
    'aria-required': props.required || field?.required || undefined,
    invalid: isInvalid,
  };
}

export interface FormFieldProps {
  label: ReactNode;
  /** Shows the kit's '(optional)' marker after the label. */
  optional?: boolean;
  /** Marks the control aria-required (the visual marker is reserved for optional fields, as in the spec). */
  required?: boolean;
  hint?: ReactNode;
  /** Error text; sets aria-invalid on the control and is announced. */
  error?: ReactNode;
  /** Use an explicit id for the control (otherwise generated). */
  id?: string;
  className?: string;
  labels?: Partial<Pick<UiMessages, 'optional'>>;
  children: ReactNode;
}

/**
 * Label, '(optional)' marker, hint and error around one control. The control (Input, Textarea,
 * Select, Combobox, FileUpload ...) picks up id, aria-describedby and aria-invalid from context.
 */
export function FormField({
  label,
  optional,
  required,
  hint,
  error,
  id,
  className,
  labels,
  children,
}: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const text = useLabels(['optional'], labels);
  const value: FormFieldContextValue = {
    id: controlId,
    describedBy: [hintId, errorId].filter(Boolean).join(' ') || undefined,
    invalid: Boolean(error),
    required: Boolean(required),
  };
  return (
    <FormFieldContext.Provider value={value}>
      <div
        data-slot="form-field"
        data-invalid={error ? '' : undefined}
        className={cn('flex flex-col gap-1.5', className)}
      >
        <label
          data-slot="form-field-label"
          htmlFor={controlId}
          className="text-sm font-medium text-foreground"
        >
          {label}
          {optional ? (
            <span data-slot="form-field-optional" className="ms-1 font-normal text-foreground-muted">
              {text.optional}
            </span>
          ) : null}
        </label>
        {children}
        {hint ? (
          <p data-slot="form-field-hint" id={hintId} className="text-xs text-foreground-muted">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p
            data-slot="form-field-error"
            id={errorId}
            role="alert"
            className="text-xs font-medium text-danger"
          >
            {error}
          </p>
        ) : null}
      </div>
    </FormFieldContext.Provider>
  );
}
