import { DEVICE_ID_RANDOM_LENGTH } from '../constants';

/** The synchronous subset of the Web Storage API (localStorage, or a Map-backed store in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Local storage keys. The first four are the spec's; the others are the product's own for state the
 * spec says is "saved" without naming a key.
 */
export const storageKeys = {
  fcmToken: 'fcm_token',
  fcmTokenData: 'fcm_token_data',
  deviceId: 'device_id',
  accessToken: 'access_token',
  mediaAppToken: 'media_app_token',
  userUuid: 'user_uuid',
  transportUuid: 'transport_uuid',
  locale: 'locale',
} as const;
export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/**
 * Keys cleared on logout: everything except the device id (it identifies this installation to the
 * push-token registry) and the chosen language (a device preference, spec: "the chosen language is saved").
 */
export const sessionStorageKeys: readonly StorageKey[] = [
  storageKeys.accessToken,
  storageKeys.mediaAppToken,
  storageKeys.userUuid,
  storageKeys.transportUuid,
  storageKeys.fcmToken,
  storageKeys.fcmTokenData,
];

/** An in-memory {@link KeyValueStorage} (tests, server-side rendering, storage-less webviews). */
export class MemoryStorage implements KeyValueStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  get size(): number {
    return this.items.size;
  }
}

const DEVICE_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random number source in [0, 1), like Math.random. */
export type RandomSource = () => number;

/** `length` characters of [a-z0-9] drawn from `random`. */
export function randomSuffix(random: RandomSource, length = DEVICE_ID_RANDOM_LENGTH): string {
  let result = '';
  for (let i = 0; i < length; i += 1) {
    const r = random();
    const index = Math.min(
      DEVICE_ID_ALPHABET.length - 1,
      Math.max(0, Math.floor(r * DEVICE_ID_ALPHABET.length)),
    );
    result += DEVICE_ID_ALPHABET[index];
  }
  return result;
}

/** Device id `{platform}_{timestamp ms}_{9 random chars}` (spec section 3). */
export function generateDeviceId(platform: string, now: Date | number, random: RandomSource): string {
  const timestamp = typeof now === 'number' ? now : now.getTime();
  return `${platform}_${Math.trunc(timestamp)}_${randomSuffix(random)}`;
}

/** The stored device id, generated and stored on first use. */
export function getOrCreateDeviceId(
  storage: KeyValueStorage,
  platform: string,
  now: Date | number,
  random: RandomSource,
): string {
  const existing = storage.getItem(storageKeys.deviceId);
  if (existing) return existing;
  const id = generateDeviceId(platform, now, random);
  storage.setItem(storageKeys.deviceId, id);
  return id;
}
