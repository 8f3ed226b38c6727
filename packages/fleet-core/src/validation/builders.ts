import { z } from 'zod';
import { IMAGE_MAX_SIZE_MB, PASSWORD_MIN_LENGTH } from '../constants';
import { translate } from '../i18n/translate';
import { parseApiTime } from '../format/parse-time';
import { invalidMessage, requiredMessage } from './messages';

/**
 * Reusable zod 4 builders that produce the spec's exact messages in English or Arabic. `field` is
 * the already-translated field label as the user sees it ('Email', 'البريد الإلكتروني').
 */

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** A required, trimmed string: missing or blank -> '{field} is required'; not a string -> 'Please enter a valid {field}'. */
export function requiredString(field: string, locale = 'en-US', options: { max?: number } = {}) {
  let schema = z
    .string({
      error: (issue) =>
        isBlank(issue.input) ? requiredMessage(field, locale) : invalidMessage(field, locale),
    })
    .trim()
    .min(1, { error: requiredMessage(field, locale) });
  if (options.max !== undefined) schema = schema.max(options.max, { error: invalidMessage(field, locale) });
  return schema;
}

/** An optional trimmed string: undefined, null and '' (after trimming) all become undefined. */
export function optionalString(field: string, locale = 'en-US') {
  return z.preprocess(
    (value) => ((typeof value === 'string' && value.trim() === '') || value === null ? undefined : value),
    z
      .string({ error: invalidMessage(field, locale) })
      .trim()
      .optional(),
  );
}

/** A required string matching `pattern`, else 'Please enter a valid {field}'. */
export function patternString(field: string, pattern: RegExp, locale = 'en-US') {
  return requiredString(field, locale).regex(pattern, { error: invalidMessage(field, locale) });
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A required e-mail address. */
export function emailField(field: string, locale = 'en-US') {
  return patternString(field, EMAIL_PATTERN, locale);
}

/** A required number (numbers and numeric strings from inputs), optionally an integer within bounds. */
export function requiredNumber(
  field: string,
  locale = 'en-US',
  options: { min?: number; max?: number; integer?: boolean } = {},
) {
  const invalid = invalidMessage(field, locale);
  return z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value),
    z
      .number({ error: (issue) => (isBlank(issue.input) ? requiredMessage(field, locale) : invalid) })
      .refine((n) => Number.isFinite(n), { error: invalid })
      .refine((n) => !options.integer || Number.isInteger(n), { error: invalid })
      .refine((n) => options.min === undefined || n >= options.min, { error: invalid })
      .refine((n) => options.max === undefined || n <= options.max, { error: invalid }),
  );
}

/** 'Password must be at least {min} characters'. */
export function passwordMinMessage(locale = 'en-US', min = PASSWORD_MIN_LENGTH): string {
  return translate(locale, 'validation.passwordMin', { min });
}

/** A password of at least `min` characters (default 8); spaces count and are not trimmed. */
export function passwordField(
  locale = 'en-US',
  min = PASSWORD_MIN_LENGTH,
  field = translate(locale, 'field.password'),
) {
  return z
    .string({
      error: (issue) =>
        isBlank(issue.input) ? requiredMessage(field, locale) : invalidMessage(field, locale),
    })
    .min(1, { error: requiredMessage(field, locale) })
    .min(min, { error: passwordMinMessage(locale, min) });
}

/**
 * `{password, password_confirmation}` (the API's field names): both required, the password at least
 * `min` characters, and a mismatch reported on password_confirmation as 'Password and confirm
 * password must be the same'.
 */
export function passwordPair(locale = 'en-US', min = PASSWORD_MIN_LENGTH) {
  return z
    .object({
      password: passwordField(locale, min),
      password_confirmation: z
        .string({ error: requiredMessage(translate(locale, 'field.confirmPassword'), locale) })
        .min(1, { error: requiredMessage(translate(locale, 'field.confirmPassword'), locale) }),
    })
    .refine((value) => value.password === value.password_confirmation, {
      error: translate(locale, 'validation.passwordMismatch'),
      path: ['password_confirmation'],
    });
}

/** National ID: 3, 4, 7 and 1 digits separated by hyphens (e.g. 784-1990-1234567-1). */
export const NATIONAL_ID_PATTERN = /^\d{3}-\d{4}-\d{7}-\d$/;
/** The input hint that shows the pattern. */
export const NATIONAL_ID_HINT = '000-0000-0000000-0';

/** Formats what the user typed as a national ID while typing: digits only, hyphens inserted, 15 digits at most. */
export function formatNationalIdInput(raw: string): string {
  const digits = (typeof raw === 'string' ? raw : '').replace(/\D/g, '').slice(0, 15);
  const groups = [digits.slice(0, 3), digits.slice(3, 7), digits.slice(7, 14), digits.slice(14, 15)];
  return groups.filter((group) => group !== '').join('-');
}

/** A required national ID in the 3-4-7-1 pattern. */
export function nationalId(field = 'national ID', locale = 'en-US') {
  return patternString(field, NATIONAL_ID_PATTERN, locale);
}

/** True for the zero date 0001-01-01 (with or without a time part). */
export function isZeroDate(value: unknown): boolean {
  return typeof value === 'string' && value.trim().startsWith('0001-01-01');
}

/**
 * A required date string ('YYYY-MM-DD', optionally with a time, or ISO): the zero value 0001-01-01
 * and impossible dates are 'Please enter a valid {field}'.
 */
export function nonZeroDate(field: string, locale = 'en-US') {
  return requiredString(field, locale).refine((value) => !isZeroDate(value) && parseApiTime(value) !== null, {
    error: invalidMessage(field, locale),
  });
}

/** Structural File (browser File, or any object with name, size and type). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
}

function isFileLike(value: unknown): value is FileLike {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<FileLike>;
  return (
    typeof file.name === 'string' &&
    typeof file.size === 'number' &&
    Number.isFinite(file.size) &&
    file.size >= 0 &&
    typeof file.type === 'string'
  );
}

/** 'Image size must be less than {max} MB'. */
export function imageTooLargeMessage(locale = 'en-US', maxMb = IMAGE_MAX_SIZE_MB): string {
  return translate(locale, 'validation.imageTooLarge', { max: maxMb });
}

/**
 * An image upload: a file whose type is image/* and whose size is below `maxMb` megabytes
 * (1 MB = 1024 * 1024 bytes; default 5 MB, the limit is configurable).
 */
export function imageFile(locale = 'en-US', options: { maxMb?: number; field?: string } = {}) {
  const maxMb = options.maxMb ?? IMAGE_MAX_SIZE_MB;
  if (!(maxMb > 0) || !Number.isFinite(maxMb))
    throw new RangeError(`maxMb must be a positive number, got ${String(maxMb)}`);
  const field = options.field ?? translate(locale, 'field.image');
  return z
    .custom<FileLike>((value) => isFileLike(value), {
      error: (issue) =>
        isBlank(issue.input) ? requiredMessage(field, locale) : invalidMessage(field, locale),
    })
    .refine((file) => file.type.toLowerCase().startsWith('image/'), {
      error: translate(locale, 'validation.imageType'),
    })
    .refine((file) => file.size < maxMb * 1024 * 1024, { error: imageTooLargeMessage(locale, maxMb) });
}

/** Field errors of a failed parse, keyed by dotted path ('' for the root), first message per issue. */
export function zodFieldErrors(error: z.ZodError): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    (result[key] ??= []).push(issue.message);
  }
  return result;
}
