import { describe, expect, it } from 'vitest';
import { generateDeviceId, getOrCreateDeviceId, MemoryStorage, randomSuffix, storageKeys } from './storage';

const seq = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('device id', () => {
  it.each<[string, number | Date, number[], string]>([
    ['android', 1_700_000_000_000, [0], 'android_1700000000000_aaaaaaaaa'],
    ['ios', new Date(1_700_000_000_123), [0.999999], 'ios_1700000000123_999999999'],
    ['web', 5.9, [0, 0.5, 0.72], 'web_5_aszaszasz'],
    ['android', 1, [1.5, -1], 'android_1_9a9a9a9a9'],
  ])('%s %j %j', (platform, now, random, expected) => {
    const id = generateDeviceId(platform, now, seq(...random));
    expect(id).toBe(expected);
    expect(id).toMatch(/^[a-z]+_\d+_[a-z0-9]{9}$/);
  });

  it('randomSuffix honours the length', () => {
    expect(randomSuffix(() => 0.1, 3)).toBe('ddd');
  });

  it('is generated once and then read from storage', () => {
    const storage = new MemoryStorage();
    const first = getOrCreateDeviceId(storage, 'android', 10, () => 0);
    expect(storage.getItem(storageKeys.deviceId)).toBe(first);
    expect(getOrCreateDeviceId(storage, 'ios', 20, () => 0.5)).toBe(first);
  });
});

describe('MemoryStorage', () => {
  it('stores strings', () => {
    const storage = new MemoryStorage();
    expect(storage.getItem('a')).toBeNull();
    storage.setItem('a', 'x');
    expect(storage.getItem('a')).toBe('x');
    expect(storage.size).toBe(1);
    storage.removeItem('a');
    expect(storage.size).toBe(0);
  });

  it('keeps the spec key names', () => {
    expect(storageKeys).toMatchObject({
      fcmToken: 'fcm_token',
      fcmTokenData: 'fcm_token_data',
      deviceId: 'device_id',
      accessToken: 'access_token',
    });
  });
});
