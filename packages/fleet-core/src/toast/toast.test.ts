import { describe, expect, it } from 'vitest';
import { createToast, toastAppearance, toastKinds, validateToast, type ToastInput } from './toast';

describe('toast model', () => {
  it.each([
    ['success', 'check', 'positive'],
    ['warning', 'warning', 'orange'],
    ['error', 'error', 'negative'],
  ] as const)('%s -> %s icon, %s tone', (kind, icon, tone) => {
    expect(toastAppearance[kind]).toEqual({ icon, tone });
    expect(createToast({ kind, message: 'Saved' })).toEqual({
      kind,
      icon,
      tone,
      message: 'Saved',
      timeout: 5000,
    });
  });

  it.each<[unknown, { ok: true; toast: object } | { ok: false; errors: string[] }]>([
    [
      { kind: 'success', caption: 'Vehicle' },
      { ok: true, toast: { caption: 'Vehicle', timeout: 5000 } },
    ],
    [
      { kind: 'success', message: 'm', caption: 'c', timeout: 0 },
      { ok: true, toast: { message: 'm', caption: 'c', timeout: 0 } },
    ],
    [
      { kind: 'warning', message: 'm', timeout: 1500 },
      { ok: true, toast: { message: 'm', timeout: 1500 } },
    ],
    [
      { kind: 'error', message: 'm', caption: '  ' },
      { ok: true, toast: { message: 'm' } },
    ],
    [{ kind: 'success' }, { ok: false, errors: ['A toast needs a message or a caption'] }],
    [
      { kind: 'success', message: '  ', caption: null },
      { ok: false, errors: ['A toast needs a message or a caption'] },
    ],
    [
      { kind: 'success', message: 'm', timeout: -1 },
      { ok: false, errors: ['Toast timeout must be a non-negative number'] },
    ],
    [
      { kind: 'success', message: 'm', timeout: NaN },
      { ok: false, errors: ['Toast timeout must be a non-negative number'] },
    ],
    [
      { kind: 'success', message: 'm', timeout: Infinity },
      { ok: false, errors: ['Toast timeout must be a non-negative number'] },
    ],
    [
      { kind: 'success', message: 'm', timeout: '100' },
      { ok: false, errors: ['Toast timeout must be a non-negative number'] },
    ],
  ])('%j', (input, expected) => {
    const result = validateToast(input);
    if (expected.ok) {
      expect(result.ok).toBe(true);
      expect(result.ok && result.toast).toMatchObject(expected.toast);
    } else {
      expect(result).toEqual(expected);
    }
  });

  it('rejects an unknown kind and reports in Arabic', () => {
    expect(validateToast({ kind: 'info', message: 'm' }).ok).toBe(false);
    expect(validateToast({ kind: 'error' }, 'ar')).toEqual({
      ok: false,
      errors: ['يحتاج الإشعار إلى رسالة أو عنوان'],
    });
  });

  it('createToast throws a TypeError naming every problem', () => {
    expect(() => createToast({ kind: 'error', timeout: -5 } as ToastInput)).toThrow(
      new TypeError('Toast timeout must be a non-negative number; A toast needs a message or a caption'),
    );
    expect(toastKinds).toEqual(['success', 'warning', 'error']);
  });
});
