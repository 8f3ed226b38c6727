import type { TextareaHTMLAttributes } from 'react';
import { useFieldControlProps } from '../form-field';
import { controlRecipe } from '../input';
import { cn } from '../lib/cn';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  invalid?: boolean;
  ref?: React.Ref<HTMLTextAreaElement>;
}

export function Textarea({ invalid, className, rows = 4, ...props }: TextareaProps) {
  const field = useFieldControlProps({ ...props, invalid });
  return (
    <textarea
      data-slot="textarea"
      rows={rows}
      {...props}
      id={field.id}
      aria-describedby={field['aria-describedby']}
      aria-invalid={field['aria-invalid']}
      aria-required={field['aria-required']}
      className={cn(controlRecipe({ size: 'md' }), 'h-auto min-h-20 py-2 leading-relaxed', className)}
    />
  );
}
