import { describe, expect, it } from 'vitest';
import {
  chooseTransportCompany,
  clearSession,
  isSignedIn,
  resolveTransportCompany,
  routeAfterSignIn,
  selectTransportCompany,
  storeSignIn,
} from './session';
import { MemoryStorage, storageKeys } from './storage';

const A = { uuid: 'a', name: 'Alpha' };
const B = { uuid: 'b', name: 'Beta' };

describe('chooseTransportCompany', () => {
  it.each<[string, (typeof A)[] | null | undefined, string | null, string]>([
    ['one company is selected automatically', [A], null, 'selected:a:only-company'],
    ['even against a stale saved id', [A], 'zzz', 'selected:a:only-company'],
    ['a valid saved id is used', [A, B], 'b', 'selected:b:saved-choice'],
    ['a stale saved id opens the picker', [A, B], 'zzz', 'picker:a,b'],
    ['no saved id opens the picker', [A, B], null, 'picker:a,b'],
    ['empty saved id opens the picker', [A, B], '', 'picker:a,b'],
    ['no companies', [], 'a', 'none'],
    ['null list', null, null, 'none'],
    ['undefined list', undefined, null, 'none'],
    ['entries without uuid are ignored', [{ uuid: '', name: 'x' }, A], null, 'selected:a:only-company'],
  ])('%s', (_name, companies, saved, expected) => {
    const selection = chooseTransportCompany(companies, saved);
    const text =
      selection.kind === 'selected'
        ? `selected:${selection.company.uuid}:${selection.reason}`
        : selection.kind === 'picker'
          ? `picker:${selection.companies.map((c) => c.uuid).join(',')}`
          : 'none';
    expect(text).toBe(expected);
    expect(routeAfterSignIn(selection)).toBe(selection.kind === 'selected' ? 'home' : 'select-transport');
  });
});

describe('session storage flow', () => {
  it('sign-in, resolve, switch, logout', () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.deviceId, 'android_1_abcdefghi');
    storage.setItem(storageKeys.locale, 'ar');
    expect(isSignedIn(storage)).toBe(false);
    storeSignIn(storage, { token: 'tok', media_app_token: 'media', user_uuid: 'u1' });
    expect(isSignedIn(storage)).toBe(true);
    expect(storage.getItem(storageKeys.mediaAppToken)).toBe('media');
    expect(storage.getItem(storageKeys.userUuid)).toBe('u1');

    expect(resolveTransportCompany(storage, [A, B])).toEqual({ kind: 'picker', companies: [A, B] });
    expect(selectTransportCompany(storage, [A, B], 'b')).toBe(B);
    expect(resolveTransportCompany(storage, [A, B])).toEqual({
      kind: 'selected',
      company: B,
      reason: 'saved-choice',
    });
    expect(selectTransportCompany(storage, [A, B], 'a')).toBe(A);
    expect(storage.getItem(storageKeys.transportUuid)).toBe('a');
    expect(() => selectTransportCompany(storage, [A, B], 'c')).toThrow(RangeError);

    // The saved company disappeared: the stale id is dropped and the picker opens.
    expect(resolveTransportCompany(storage, [B, { uuid: 'c' }]).kind).toBe('picker');
    expect(storage.getItem(storageKeys.transportUuid)).toBeNull();

    storage.setItem(storageKeys.fcmToken, 'fcm');
    storage.setItem(storageKeys.fcmTokenData, '{}');
    clearSession(storage);
    for (const key of [
      'access_token',
      'media_app_token',
      'user_uuid',
      'transport_uuid',
      'fcm_token',
      'fcm_token_data',
    ]) {
      expect(storage.getItem(key), key).toBeNull();
    }
    expect(storage.getItem(storageKeys.deviceId)).toBe('android_1_abcdefghi');
    expect(storage.getItem(storageKeys.locale)).toBe('ar');
  });

  it('a sign-in without optional fields clears stale ones', () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.mediaAppToken, 'old');
    storage.setItem(storageKeys.userUuid, 'old');
    storeSignIn(storage, { token: 't', media_app_token: null });
    expect(storage.getItem(storageKeys.mediaAppToken)).toBeNull();
    expect(storage.getItem(storageKeys.userUuid)).toBeNull();
  });

  it.each([{ token: '' }, { token: 5 }, null])('rejects a sign-in without a token: %j', (result) => {
    expect(() => storeSignIn(new MemoryStorage(), result as never)).toThrow(
      new TypeError('Sign-in answer has no token'),
    );
  });
});
