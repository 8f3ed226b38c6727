import { en, type MessageKey } from '../i18n/messages.en';
import { translate } from '../i18n/translate';

/** Push texts of spec sections 4 and 8. */
export const PUSH_PERMISSION_DENIED = en['push.permissionDenied'];
export const PUSH_ENABLED = en['push.enabled'];

export function pushRegistrationFailedMessage(error: string, locale: string = 'en-US'): string {
  return translate(locale, 'push.registrationFailed', { error });
}

export interface RegistrationErrorInfo {
  /** The message to show or log. */
  message: string;
  /** Silent errors are only logged, never shown. */
  silent: boolean;
}

/**
 * Maps a device registration error to the spec's message. The codes are Firebase Cloud Messaging's
 * Android error names, matched anywhere in the text and case-insensitively.
 */
export function registrationErrorInfo(error: unknown, locale: string = 'en-US'): RegistrationErrorInfo {
  const text = typeof error === 'string' ? error : error instanceof Error ? error.message : String(error);
  const upper = text.toUpperCase();
  const known: [string, MessageKey, boolean][] = [
    ['SERVICE_NOT_AVAILABLE', 'push.playServicesUnavailable', true],
    ['MISSING_INSTANCEID_SERVICE', 'push.notSupported', true],
    ['INVALID_SENDER', 'push.firebaseConfig', false],
    ['PHONE_REGISTRATION_ERROR', 'push.deviceRegistrationFailed', false],
    ['AUTHENTICATION_FAILED', 'push.firebaseAuth', false],
  ];
  const match = known.find(([code]) => upper.includes(code));
  if (match) return { message: translate(locale, match[1]), silent: match[2] };
  return { message: translate(locale, 'push.registrationFailedOther', { error: text }), silent: false };
}
