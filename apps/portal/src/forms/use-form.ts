import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@fleet/api-client';
import type { z } from 'zod';
import { issuesToErrors, serverFieldErrors, type FieldErrors } from './validation';

/**
 * Minimal form state over a zod schema of the shared contract: values, per-field errors (localised),
 * a form-level error and submission. Server 422 field errors land on their fields.
 */
export function useSchemaForm<S extends z.ZodType, V extends Record<string, unknown>>(
  schema: S,
  initial: V,
  labelOf: (field: string) => string | undefined = () => undefined,
) {
  const { i18n } = useTranslation();
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const set = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    setErrors((prev) => {
      if (!prev[name as string]) return prev;
      const next = { ...prev };
      delete next[name as string];
      return next;
    });
  }, []);

  const submit = useCallback(
    async (transform: (values: V) => unknown, action: (parsed: z.output<S>) => Promise<void>) => {
      setFormError(null);
      const parsed = schema.safeParse(transform(values));
      if (!parsed.success) {
        setErrors(issuesToErrors(parsed.error.issues, i18n.language, labelOf));
        return false;
      }
      setErrors({});
      setSubmitting(true);
      try {
        await action(parsed.data);
        return true;
      } catch (error) {
        if (isApiError(error) && Object.keys(error.fieldErrors).length > 0) {
          setErrors(serverFieldErrors(error.fieldErrors, i18n.language, labelOf));
        }
        setFormError(error instanceof Error ? error.message : String(error));
        return false;
      } finally {
        setSubmitting(false);
      }
    },
    [schema, values, i18n.language, labelOf],
  );

  return { values, set, setValues, errors, setErrors, formError, setFormError, submitting, submit };
}
