/**
 * API failure -> user-facing message mapping (spec section 8).
 *
 * The fetch client describes every failure with an {@link ApiFailure}; the UI turns it into a toast
 * text with {@link apiFailureMessage} and logs the user out when {@link isUnauthorized} holds.
 */

export type ApiFailure =
  | { kind: 'response'; status: number; statusText: string; body: unknown }
  | { kind: 'no-response' }
  | { kind: 'error'; error: unknown };

import { en } from '../i18n/messages.en';
import { translate } from '../i18n/translate';

export const NO_RESPONSE_MESSAGE = en['error.noResponse'];
export const GENERIC_ERROR_MESSAGE = en['error.generic'];
export const NETWORK_ERROR_MESSAGE = en['error.network'];
export const UNKNOWN_ERROR_MESSAGE = en['error.unknown'];

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The `message` field of an object, when it is a non-empty string. */
export function messageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return nonEmptyString((value as { message?: unknown }).message);
}

/**
 * The server's `message` field, else 'Error {status}: {statusText}'; without a response
 * 'No response received from server'; otherwise the error's own message, else 'An error occurred'.
 */
export function apiFailureMessage(failure: ApiFailure, locale: string = 'en-US'): string {
  switch (failure.kind) {
    case 'response':
      return (
        messageOf(failure.body) ??
        translate(locale, 'error.status', { status: failure.status, statusText: failure.statusText })
      );
    case 'no-response':
      return translate(locale, 'error.noResponse');
    case 'error':
      return messageOf(failure.error) ?? nonEmptyString(failure.error) ?? translate(locale, 'error.generic');
  }
}

/** A 401 answer forces logout. */
export function isUnauthorized(failure: ApiFailure): boolean {
  return failure.kind === 'response' && failure.status === 401;
}

/** Field errors of an error envelope `{message, errors?: {field: [messages]}}`, empty when absent. */
export function fieldErrors(body: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (typeof body !== 'object' || body === null) return result;
  const errors = (body as { errors?: unknown }).errors;
  if (typeof errors !== 'object' || errors === null) return result;
  for (const [field, messages] of Object.entries(errors)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter(
      (m): m is string => typeof m === 'string',
    );
    if (list.length > 0) result[field] = list;
  }
  return result;
}

/**
 * True for the TypeError that `fetch` rejects with when the request never got an answer
 * (Chromium 'Failed to fetch', Firefox 'NetworkError when attempting to fetch resource.',
 * Safari 'Load failed', Node 'fetch failed').
 */
export function isNetworkError(error: unknown): boolean {
  return (
    error instanceof TypeError && /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message)
  );
}

/**
 * Text of an error shown as a toast (spec section 8): a network failure gets the CORS hint, an Error
 * its message, a string itself, anything else (or an empty text) 'An unknown error occurred'.
 * Server texts pass through unchanged; the core's own texts follow `locale` (default en-US).
 */
export function toastErrorMessage(error: unknown, locale: string = 'en-US'): string {
  if (isNetworkError(error)) return translate(locale, 'error.network');
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  return nonEmptyString(text) ?? translate(locale, 'error.unknown');
}

/** The HTTP status carried by an error (`error.status`), if any. */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}
