import type { z } from 'zod';
import { t, translateFieldMessage, type Locale, type MessageKey } from './i18n';

/** An error with an HTTP status and a translatable message; the error handler renders it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly errors?: Record<string, string[]>,
    readonly headers: Record<string, string> = {},
  ) {
    super(key);
    this.name = 'HttpError';
  }

  render(locale: Locale): { message: string; errors?: Record<string, string[]> } {
    const message = t(locale, this.key, this.params);
    if (!this.errors) return { message };
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(this.errors))
      errors[k] = v.map((m) => translateFieldMessage(locale, m));
    return { message, errors };
  }
}

export const unauthenticated = () => new HttpError(401, 'auth.unauthenticated');
export const forbidden = () => new HttpError(403, 'forbidden');
export const notFound = (entity?: string) =>
  entity ? new HttpError(404, 'entity.not_found', { entity }) : new HttpError(404, 'not_found');

/** 422 for one field. */
export function fieldError(field: string, message: string, key: MessageKey = 'validation.general') {
  return new HttpError(422, key, {}, { [field]: [message] });
}

function humanLabel(field: string): string {
  const s = field.replace(/_uuid$/, '').replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** zod issues -> 422 `{message, errors: {field: [messages]}}`. */
export function validationError(error: z.ZodError): HttpError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_';
    let message = issue.message;
    // zod's own defaults (schemas without a field-specific error) get the spec's wording.
    if (/^Invalid input|^Invalid option|^Too (big|small)|^Unrecognized key|^Invalid/.test(message)) {
      const label = humanLabel(String(issue.path[issue.path.length - 1] ?? 'value'));
      message =
        issue.code === 'invalid_type' && /received undefined/.test(message)
          ? `${label} is required`
          : `Please enter a valid ${label}`;
    }
    (errors[field] ??= []).push(message);
  }
  return new HttpError(422, 'validation.general', {}, errors);
}

/** Parse with a zod schema or throw the 422. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error);
  return r.data;
}
