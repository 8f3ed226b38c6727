import { describe, expect, it } from 'vitest';
import { loginInputSchema, setPasswordInputSchema } from '@fleet/api-client';
import { translate } from '@fleet/core';
import { issuesToErrors, localizeMessage, serverFieldErrors } from './validation';

describe('localizeMessage', () => {
  it.each([
    ['License plate number is required', 'en-US', 'x', 'License plate number is required'],
    [
      'License plate number is required',
      'ar',
      'رقم اللوحة',
      translate('ar', 'validation.required', { field: 'رقم اللوحة' }),
    ],
    [
      'Please enter a valid Email',
      'ar',
      'البريد',
      translate('ar', 'validation.invalid', { field: 'البريد' }),
    ],
    [
      'Password and confirm password must be the same',
      'ar',
      undefined,
      translate('ar', 'validation.passwordMismatch'),
    ],
    [
      'Password must be at least 8 characters',
      'ar',
      undefined,
      translate('ar', 'validation.passwordMin', { min: 8 }),
    ],
    [
      'This driver is already assigned',
      'ar',
      undefined,
      translate('ar', 'validation.alreadyAssigned', { entity: 'driver' }),
    ],
    ['Something the server said', 'ar', undefined, 'Something the server said'],
  ])('%s in %s', (message, locale, label, expected) => {
    expect(localizeMessage(message, locale, label)).toBe(expected);
  });

  it('Arabic texts differ from the English ones', () => {
    expect(localizeMessage('Name is required', 'ar', 'الاسم')).not.toBe('Name is required');
  });
});

describe('issuesToErrors', () => {
  it('keeps the spec texts of the shared contract in English', () => {
    const parsed = loginInputSchema.safeParse({ email: 'nope', password: '' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const errors = issuesToErrors(parsed.error.issues, 'en-US');
    expect(errors.email).toBe('Please enter a valid Email');
    expect(errors.password).toBe('Password is required');
  });

  it('reports the password mismatch on the confirmation', () => {
    const parsed = setPasswordInputSchema.safeParse({ password: 'abcdefgh1', password_confirmation: 'x' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(issuesToErrors(parsed.error.issues, 'en-US').password_confirmation).toBe(
      'Password and confirm password must be the same',
    );
  });

  it('maps server field errors, first message wins, nested paths to their field', () => {
    expect(
      serverFieldErrors(
        { 'geometry.points': ['Please enter a valid Points'], name: ['Name is required', 'x'] },
        'en-US',
      ),
    ).toEqual({ geometry: 'Please enter a valid Points', name: 'Name is required' });
  });
});
