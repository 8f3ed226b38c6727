import { describe, expect, it } from 'vitest';
import { mapMessagesAr } from './messages.ar';
import { mapMessagesEn } from './messages.en';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('map messages', () => {
  it('has the same keys and placeholders in English and Arabic', () => {
    expect(Object.keys(mapMessagesAr).sort()).toEqual(Object.keys(mapMessagesEn).sort());
    for (const key of Object.keys(mapMessagesEn) as (keyof typeof mapMessagesEn)[]) {
      expect(placeholders(mapMessagesAr[key]), key).toEqual(placeholders(mapMessagesEn[key]));
    }
  });
  it('keeps the spec text for a vehicle without locations', () => {
    expect(mapMessagesEn.noRoute).toBe('No location data available for this vehicle');
  });
});
