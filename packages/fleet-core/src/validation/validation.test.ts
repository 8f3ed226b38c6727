import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  emailField,
  formatNationalIdInput,
  imageFile,
  imageTooLargeMessage,
  isZeroDate,
  NATIONAL_ID_HINT,
  nationalId,
  nonZeroDate,
  optionalString,
  passwordField,
  passwordPair,
  patternString,
  requiredNumber,
  requiredString,
  zodFieldErrors,
} from './builders';
import {
  alreadyAssignedMessage,
  fieldLabel,
  formErrorMessages,
  invalidMessage,
  optionalLabel,
  requiredMessage,
} from './messages';

/** The first message of a failed parse, or 'ok' with the output. */
function check(schema: z.ZodType, value: unknown): string | { ok: unknown } {
  const result = schema.safeParse(value);
  return result.success ? { ok: result.data } : result.error.issues[0]!.message;
}

describe('messages', () => {
  it.each<[string, string, string, string]>([
    ['en-US', 'Email', 'Email is required', 'Please enter a valid Email'],
    ['ar', 'البريد الإلكتروني', 'البريد الإلكتروني مطلوب', 'يرجى إدخال البريد الإلكتروني صالح'],
  ])('%s', (locale, field, required, invalid) => {
    expect(requiredMessage(field, locale)).toBe(required);
    expect(invalidMessage(field, locale)).toBe(invalid);
  });

  it('general texts in both languages', () => {
    expect(formErrorMessages()).toEqual({
      checkEntries:
        'Please check your entries and try again. Ensure all required fields are filled out correctly.',
      completeRequired: 'Please complete all required fields and verify your input.',
    });
    expect(formErrorMessages('ar').completeRequired).toBe(
      'يرجى إكمال جميع الحقول المطلوبة والتحقق من إدخالاتك.',
    );
    expect(optionalLabel()).toBe('(optional)');
    expect(optionalLabel('ar')).toBe('(اختياري)');
    expect(fieldLabel('Notes', { optional: true })).toBe('Notes (optional)');
    expect(fieldLabel('ملاحظات', { optional: true, locale: 'ar' })).toBe('ملاحظات (اختياري)');
    expect(fieldLabel('Notes')).toBe('Notes');
    expect(alreadyAssignedMessage('vehicle')).toBe('This vehicle is already assigned');
    expect(alreadyAssignedMessage('مركبة', 'ar')).toBe('هذا مركبة معيّن بالفعل');
  });
});

describe('requiredString', () => {
  const schema = requiredString('Name');
  it.each<[unknown, unknown]>([
    ['  Ali ', { ok: 'Ali' }],
    ['', 'Name is required'],
    ['   ', 'Name is required'],
    [undefined, 'Name is required'],
    [null, 'Name is required'],
    [42, 'Please enter a valid Name'],
  ])('%j', (value, expected) => {
    expect(check(schema, value)).toEqual(expected);
  });

  it('max length and Arabic', () => {
    expect(check(requiredString('Code', 'en-US', { max: 3 }), 'ABCD')).toBe('Please enter a valid Code');
    expect(check(requiredString('الاسم', 'ar'), '')).toBe('الاسم مطلوب');
  });
});

describe('optionalString', () => {
  it.each<[unknown, unknown]>([
    [undefined, { ok: undefined }],
    [null, { ok: undefined }],
    ['  ', { ok: undefined }],
    [' x ', { ok: 'x' }],
    [5, 'Please enter a valid Notes'],
  ])('%j', (value, expected) => {
    expect(check(optionalString('Notes'), value)).toEqual(expected);
  });
});

describe('patterns', () => {
  it.each<[unknown, unknown]>([
    ['a@b.co', { ok: 'a@b.co' }],
    [' a@b.co ', { ok: 'a@b.co' }],
    ['a@b', 'Please enter a valid Email'],
    ['a b@c.d', 'Please enter a valid Email'],
    ['', 'Email is required'],
  ])('email %j', (value, expected) => {
    expect(check(emailField('Email'), value)).toEqual(expected);
  });

  it('patternString', () => {
    expect(check(patternString('Code', /^[A-Z]{3}$/), 'abc')).toBe('Please enter a valid Code');
  });
});

describe('requiredNumber', () => {
  const schema = requiredNumber('Seats', 'en-US', { min: 1, max: 80, integer: true });
  it.each<[unknown, unknown]>([
    [40, { ok: 40 }],
    ['12', { ok: 12 }],
    ['', 'Seats is required'],
    [undefined, 'Seats is required'],
    [null, 'Seats is required'],
    ['abc', 'Please enter a valid Seats'],
    [Infinity, 'Please enter a valid Seats'],
    [1.5, 'Please enter a valid Seats'],
    [0, 'Please enter a valid Seats'],
    [81, 'Please enter a valid Seats'],
  ])('%j', (value, expected) => {
    expect(check(schema, value)).toEqual(expected);
  });

  it('without bounds', () => {
    expect(check(requiredNumber('Fuel'), -2.5)).toEqual({ ok: -2.5 });
  });
});

describe('passwords', () => {
  it.each<[unknown, unknown]>([
    ['12345678', { ok: '12345678' }],
    ['1234567', 'Password must be at least 8 characters'],
    ['', 'Password is required'],
    [undefined, 'Password is required'],
    [12345678, 'Please enter a valid Password'],
  ])('passwordField %j', (value, expected) => {
    expect(check(passwordField(), value)).toEqual(expected);
  });

  it('Arabic and a custom minimum', () => {
    expect(check(passwordField('ar'), '123')).toBe('يجب أن تتكون كلمة المرور من 8 أحرف على الأقل');
    expect(check(passwordField('en-US', 12), '12345678901')).toBe('Password must be at least 12 characters');
  });

  it.each<[unknown, string | null, string[]]>([
    [{ password: 'secret123', password_confirmation: 'secret123' }, null, []],
    [
      { password: 'secret123', password_confirmation: 'secret124' },
      'Password and confirm password must be the same',
      ['password_confirmation'],
    ],
    [
      { password: 'secret123', password_confirmation: '' },
      'Confirm password is required',
      ['password_confirmation'],
    ],
    [
      { password: 'short', password_confirmation: 'short' },
      'Password must be at least 8 characters',
      ['password'],
    ],
    [{}, 'Password is required', ['password']],
  ])('passwordPair %j', (value, message, path) => {
    const result = passwordPair().safeParse(value);
    if (message === null) {
      expect(result.success).toBe(true);
    } else {
      expect(result.success).toBe(false);
      expect(result.error!.issues[0]!.message).toBe(message);
      expect(result.error!.issues[0]!.path).toEqual(path);
    }
  });

  it('mismatch in Arabic', () => {
    const result = passwordPair('ar').safeParse({ password: 'secret123', password_confirmation: 'x' });
    expect(result.error!.issues[0]!.message).toBe('يجب أن تتطابق كلمة المرور وتأكيد كلمة المرور');
  });
});

describe('national ID', () => {
  it.each<[unknown, unknown]>([
    ['784-1990-1234567-1', { ok: '784-1990-1234567-1' }],
    ['784199012345671', 'Please enter a valid national ID'],
    ['784-1990-123456-1', 'Please enter a valid national ID'],
    ['784-1990-1234567-12', 'Please enter a valid national ID'],
    ['78a-1990-1234567-1', 'Please enter a valid national ID'],
    ['', 'national ID is required'],
  ])('%j', (value, expected) => {
    expect(check(nationalId(), value)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['', ''],
    ['78', '78'],
    ['7841', '784-1'],
    ['7841990', '784-1990'],
    ['78419901', '784-1990-1'],
    ['784199012345671', '784-1990-1234567-1'],
    ['784-1990-1234567-19999', '784-1990-1234567-1'],
    ['a7b8c4', '784'],
  ])('formatNationalIdInput(%j)', (raw, expected) => {
    expect(formatNationalIdInput(raw)).toBe(expected);
    if (expected.length === NATIONAL_ID_HINT.length) expect(expected).toMatch(/^\d{3}-\d{4}-\d{7}-\d$/);
  });

  it('formatNationalIdInput tolerates a non-string', () => {
    expect(formatNationalIdInput(undefined as unknown as string)).toBe('');
  });
});

describe('dates', () => {
  it.each<[unknown, unknown]>([
    ['2025-06-15', { ok: '2025-06-15' }],
    ['2025-06-15 10:00:00', { ok: '2025-06-15 10:00:00' }],
    ['2025-06-15T10:00:00Z', { ok: '2025-06-15T10:00:00Z' }],
    ['0001-01-01', 'Please enter a valid Expiry date'],
    ['0001-01-01 00:00:00', 'Please enter a valid Expiry date'],
    ['0001-01-01T00:00:00Z', 'Please enter a valid Expiry date'],
    ['2025-02-30', 'Please enter a valid Expiry date'],
    ['soon', 'Please enter a valid Expiry date'],
    ['', 'Expiry date is required'],
  ])('nonZeroDate %j', (value, expected) => {
    expect(check(nonZeroDate('Expiry date'), value)).toEqual(expected);
  });

  it.each<[unknown, boolean]>([
    ['0001-01-01', true],
    [' 0001-01-01T00:00:00Z', true],
    ['0001-01-02', false],
    [null, false],
  ])('isZeroDate(%j) = %s', (value, expected) => {
    expect(isZeroDate(value)).toBe(expected);
  });
});

describe('imageFile', () => {
  const MB = 1024 * 1024;
  const file = (size: number, type = 'image/png') => ({ name: 'a.png', size, type });
  it.each<[unknown, number | undefined, unknown]>([
    [file(0), undefined, { ok: file(0) }],
    [file(5 * MB - 1), undefined, { ok: file(5 * MB - 1) }],
    [file(5 * MB), undefined, 'Image size must be less than 5 MB'],
    [file(2 * MB), 1, 'Image size must be less than 1 MB'],
    [file(2 * MB), 10, { ok: file(2 * MB) }],
    [file(100, 'application/pdf'), undefined, 'Please select an image file'],
    [file(100, 'IMAGE/JPEG'), undefined, { ok: file(100, 'IMAGE/JPEG') }],
    [undefined, undefined, 'image is required'],
    [null, undefined, 'image is required'],
    [{ name: 'x', size: -1, type: 'image/png' }, undefined, 'Please enter a valid image'],
    [{ name: 'x', size: NaN, type: 'image/png' }, undefined, 'Please enter a valid image'],
    ['a.png', undefined, 'Please enter a valid image'],
  ])('%j (max %j MB)', (value, maxMb, expected) => {
    expect(check(imageFile('en-US', maxMb === undefined ? {} : { maxMb }), value)).toEqual(expected);
  });

  it('Arabic, a custom field label and a bad limit', () => {
    expect(check(imageFile('ar'), file(6 * MB))).toBe('يجب أن يكون حجم الصورة أقل من 5 ميغابايت');
    expect(check(imageFile('en-US', { field: 'Profile picture' }), undefined)).toBe(
      'Profile picture is required',
    );
    expect(imageTooLargeMessage()).toBe('Image size must be less than 5 MB');
    expect(() => imageFile('en-US', { maxMb: 0 })).toThrow(RangeError);
    expect(() => imageFile('en-US', { maxMb: Infinity })).toThrow(RangeError);
  });
});

describe('zodFieldErrors', () => {
  it('groups messages by path', () => {
    const result = passwordPair().safeParse({ password: 'short', password_confirmation: 'other' });
    expect(zodFieldErrors(result.error!)).toEqual({
      password: ['Password must be at least 8 characters'],
      password_confirmation: ['Password and confirm password must be the same'],
    });
    const root = requiredString('Name').safeParse('');
    expect(zodFieldErrors(root.error!)).toEqual({ '': ['Name is required'] });
  });
});
