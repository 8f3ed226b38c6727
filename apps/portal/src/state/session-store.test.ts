import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage, storageKeys } from '@fleet/core';
import type { AuthSession, LoginResult, TransportCompany, User } from '@fleet/api-client';
import { SessionStore, afterSignInPath, type SessionApi } from './session-store';

const user = {
  uuid: '11111111-1111-4111-8111-111111111111',
  name: 'Demo',
  permissions: [],
} as unknown as User;
const company = (uuid: string, name: string) =>
  ({ uuid, name, country_code: 'AE', settings: {}, configurations: {}, features: {} }) as TransportCompany;
const A = company('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'A');
const B = company('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'B');

function fakeApi(companies: TransportCompany[]): SessionApi & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    login: async () => {
      calls.push('login');
      return { token: 'tok', media_app_token: 'media', user } as LoginResult;
    },
    me: async () => {
      calls.push('me');
      return { user, transport_companies: companies } as AuthSession;
    },
    logout: async () => {
      calls.push('logout');
      return {};
    },
    switchCompany: async (uuid) => {
      calls.push(`switch:${uuid}`);
      return {};
    },
  };
}

describe('SessionStore', () => {
  it('one company: signed in and selected, home next', async () => {
    const storage = new MemoryStorage();
    const store = new SessionStore(storage, fakeApi([A]));
    const state = await store.signIn({ email: 'demo@fleet.test', password: 'x' });
    expect(state.status).toBe('signed-in');
    expect(state.company?.uuid).toBe(A.uuid);
    expect(afterSignInPath(state)).toBe('/dashboard');
    expect(storage.getItem(storageKeys.accessToken)).toBe('tok');
    expect(storage.getItem(storageKeys.transportUuid)).toBe(A.uuid);
  });

  it('several companies without a saved choice: the picker', async () => {
    const store = new SessionStore(new MemoryStorage(), fakeApi([A, B]));
    const state = await store.signIn({ email: 'demo@fleet.test', password: 'x' });
    expect(state.company).toBeNull();
    expect(afterSignInPath(state)).toBe('/select-transport');
  });

  it('several companies with a valid saved choice: that one; a stale one: the picker', async () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.transportUuid, B.uuid);
    const state = await new SessionStore(storage, fakeApi([A, B])).signIn({ email: 'x@y.z', password: 'x' });
    expect(state.company?.uuid).toBe(B.uuid);

    const stale = new MemoryStorage();
    stale.setItem(storageKeys.transportUuid, 'cccccccc-cccc-4ccc-8ccc-cccccccccccc');
    const other = await new SessionStore(stale, fakeApi([A, B])).signIn({ email: 'x@y.z', password: 'x' });
    expect(other.company).toBeNull();
  });

  it('restores a stored session once, switches company through the API, refuses unknown ones', async () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.accessToken, 'tok');
    storage.setItem(storageKeys.transportUuid, A.uuid);
    const api = fakeApi([A, B]);
    const store = new SessionStore(storage, api);
    expect(store.getSnapshot().status).toBe('loading');
    await Promise.all([store.load(), store.load()]);
    expect(api.calls.filter((c) => c === 'me')).toHaveLength(1);
    await store.selectCompany(B.uuid);
    expect(api.calls).toContain(`switch:${B.uuid}`);
    expect(storage.getItem(storageKeys.transportUuid)).toBe(B.uuid);
    await expect(store.selectCompany('nope')).rejects.toThrow();
  });

  it('logout clears the session keys but keeps the language and device id; remote=false skips the server', async () => {
    const storage = new MemoryStorage();
    storage.setItem(storageKeys.locale, 'ar');
    storage.setItem(storageKeys.deviceId, 'web_1_abcdefghi');
    const api = fakeApi([A]);
    const store = new SessionStore(storage, api);
    await store.signIn({ email: 'x@y.z', password: 'x' });
    const listener = vi.fn();
    store.subscribe(listener);
    await store.logout({ remote: false });
    expect(api.calls).not.toContain('logout');
    expect(store.getSnapshot().status).toBe('anonymous');
    expect(listener).toHaveBeenCalled();
    expect(storage.getItem(storageKeys.accessToken)).toBeNull();
    expect(storage.getItem(storageKeys.transportUuid)).toBeNull();
    expect(storage.getItem(storageKeys.locale)).toBe('ar');
    expect(storage.getItem(storageKeys.deviceId)).toBe('web_1_abcdefghi');
  });

  it('a failing server logout still logs out locally', async () => {
    const api = fakeApi([A]);
    api.logout = async () => {
      throw new Error('down');
    };
    const store = new SessionStore(new MemoryStorage(), api);
    await store.signIn({ email: 'x@y.z', password: 'x' });
    await store.logout();
    expect(store.getSnapshot().status).toBe('anonymous');
  });
});
