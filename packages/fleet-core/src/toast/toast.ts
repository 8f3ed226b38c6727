import { z } from 'zod';
import { TOAST_DEFAULT_TIMEOUT_MS } from '../constants';
import { translate } from '../i18n/translate';

/** Toast kinds with their icon and tone (spec section 9). */
export const toastKinds = ['success', 'warning', 'error'] as const;
export type ToastKind = (typeof toastKinds)[number];
export const toastIcons = ['check', 'warning', 'error'] as const;
export type ToastIcon = (typeof toastIcons)[number];
export const toastTones = ['positive', 'orange', 'negative'] as const;
export type ToastTone = (typeof toastTones)[number];

export const toastAppearance: Record<ToastKind, { icon: ToastIcon; tone: ToastTone }> = {
  success: { icon: 'check', tone: 'positive' },
  warning: { icon: 'warning', tone: 'orange' },
  error: { icon: 'error', tone: 'negative' },
};

export interface ToastInput {
  kind: ToastKind;
  message?: string | null;
  caption?: string | null;
  /** Milliseconds; 0 keeps the toast until dismissed. Default 5000. */
  timeout?: number;
}

export interface Toast {
  kind: ToastKind;
  icon: ToastIcon;
  tone: ToastTone;
  message?: string;
  caption?: string;
  timeout: number;
}

function text(value: string | null | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The zod schema of a toast input, with messages in `locale`. */
export function toastInputSchema(locale = 'en-US') {
  return z
    .object({
      kind: z.enum(toastKinds),
      message: z.string().nullish(),
      caption: z.string().nullish(),
      timeout: z
        .number({ error: translate(locale, 'toast.timeoutInvalid') })
        .refine((n) => Number.isFinite(n) && n >= 0, { error: translate(locale, 'toast.timeoutInvalid') })
        .optional(),
    })
    .refine((value) => text(value.message) !== undefined || text(value.caption) !== undefined, {
      error: translate(locale, 'toast.contentRequired'),
      path: ['message'],
    });
}

export type ToastResult = { ok: true; toast: Toast } | { ok: false; errors: string[] };

/** Validates a toast input: message or caption required, timeout a non-negative number. */
export function validateToast(input: unknown, locale = 'en-US'): ToastResult {
  const parsed = toastInputSchema(locale).safeParse(input);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map((issue) => issue.message) };
  const { kind, message, caption, timeout } = parsed.data;
  const toast: Toast = { kind, ...toastAppearance[kind], timeout: timeout ?? TOAST_DEFAULT_TIMEOUT_MS };
  const m = text(message);
  const c = text(caption);
  if (m !== undefined) toast.message = m;
  if (c !== undefined) toast.caption = c;
  return { ok: true, toast };
}

/** Builds a toast or throws a TypeError listing what is wrong. */
export function createToast(input: ToastInput, locale = 'en-US'): Toast {
  const result = validateToast(input, locale);
  if (!result.ok) throw new TypeError(result.errors.join('; '));
  return result.toast;
}
