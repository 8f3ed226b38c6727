import { MemoryStorage, type KeyValueStorage } from '@fleet/core';

/** localStorage when the browser allows it (private modes may throw), else an in-memory store. */
export function browserStorage(): KeyValueStorage {
  try {
    const probe = '__fleet_probe__';
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return new MemoryStorage();
  }
}
