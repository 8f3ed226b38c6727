import { describe, expect, it } from 'vitest';
import { MemoryStorage, storageKeys } from '@fleet/core';
import { ApiError } from '@fleet/api-client';
import { createI18n } from '../i18n/i18n';
import { createServices, isUnreachable } from './services';

function apiError(status: number | null) {
  return new ApiError({
    endpoint: 'x',
    failure:
      status === null ? { kind: 'no-response' } : { kind: 'response', status, statusText: '', body: {} },
    message: 'm',
    status,
  });
}

describe('isUnreachable', () => {
  it.each([
    [null, true],
    [502, true],
    [503, true],
    [504, true],
    [500, false],
    [401, false],
    [422, false],
  ])('status %s -> %s', (status, expected) => {
    expect(isUnreachable(apiError(status))).toBe(expected);
  });

  it('plain errors are not "unreachable"', () => {
    expect(isUnreachable(new Error('x'))).toBe(false);
  });
});

describe('createServices', () => {
  it('sends the spec headers and logs out to /login on a 401', async () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.accessToken, 'tok');
    storage.setItem(storageKeys.transportUuid, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    storage.setItem(storageKeys.userUuid, '11111111-1111-4111-8111-111111111111');
    const seen: Headers[] = [];
    const navigations: string[] = [];
    const i18n = await createI18n('ar');
    const services = createServices({
      storage,
      i18n,
      navigate: (to) => navigations.push(to),
      currentPath: () => '/dashboard',
      fetch: (async (_url: string, init: RequestInit) => {
        seen.push(new Headers(init.headers));
        return new Response(JSON.stringify({ message: 'Unauthenticated' }), { status: 401 });
      }) as unknown as typeof fetch,
    });
    await expect(services.api.request('vehicles.list', { query: {} })).rejects.toThrow('Unauthenticated');
    const headers = seen[0]!;
    expect(headers.get('Authorization')).toBe('Bearer tok');
    expect(headers.get('X-Locale')).toBe('ar');
    expect(headers.get('X-Transport-Uuid')).toBe('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
    expect(headers.get('X-User-Uuid')).toBe('11111111-1111-4111-8111-111111111111');
    expect(headers.get('Timezone')).toBeTruthy();
    await expect.poll(() => navigations).toEqual(['/login']);
    expect(storage.getItem(storageKeys.accessToken)).toBeNull();
  });
});
