export { FormField, useFormField, useFieldControlProps } from './form-field';
export type { FormFieldProps, FormFieldContextValue } from './form-field';
