import { translate } from '@fleet/core';
import { PASSWORD_MISMATCH_MESSAGE } from '@fleet/api-client';
import type { z } from 'zod';

export type FieldErrors = Record<string, string>;

/**
 * Localises one validation message of the shared contract. The contract (zod schemas of
 * @fleet/api-client, also used by the server) writes the spec's English texts; in English they are
 * shown as they are, in Arabic the same rule is re-stated with core's Arabic text and the field's
 * translated label.
 */
export function localizeMessage(message: string, locale: string, label?: string): string {
  if (!locale.toLowerCase().startsWith('ar')) return message;
  const required = /^(.+) is required$/.exec(message);
  if (required) return translate(locale, 'validation.required', { field: label ?? required[1] ?? '' });
  const invalid = /^Please enter a valid (.+)$/.exec(message);
  if (invalid) return translate(locale, 'validation.invalid', { field: label ?? invalid[1] ?? '' });
  if (message === PASSWORD_MISMATCH_MESSAGE) return translate(locale, 'validation.passwordMismatch');
  const min = /must be at least (\d+) characters/.exec(message);
  if (min) return translate(locale, 'validation.passwordMin', { min: Number(min[1]) });
  const assigned = /^This (.+) is already assigned$/.exec(message);
  if (assigned) return translate(locale, 'validation.alreadyAssigned', { entity: assigned[1] ?? '' });
  return message;
}

/** First message per top-level field of a failed parse (nested paths report on their first segment). */
export function issuesToErrors(
  issues: readonly z.core.$ZodIssue[],
  locale: string,
  labelOf: (field: string) => string | undefined = () => undefined,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '_form');
    if (errors[field]) continue;
    errors[field] = localizeMessage(issue.message, locale, labelOf(field));
  }
  return errors;
}

/** Server 422 field errors ({field: [messages]}) to one message per field. */
export function serverFieldErrors(
  errors: Record<string, string[]>,
  locale: string,
  labelOf: (field: string) => string | undefined = () => undefined,
): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = path.split('.')[0] ?? path;
    const first = messages[0];
    if (first && !out[field]) out[field] = localizeMessage(first, locale, labelOf(field));
  }
  return out;
}
