import { describe, expect, it } from 'vitest';
import { localDate, zonedHour, zonedParts, zonedTimeToEpoch } from './zoned-time';

/** Intl's answer, field by field: what zonedParts must equal whatever it caches. */
const referenceFormats = new Map<string, Intl.DateTimeFormat>();
function reference(epochMs: number, timeZone: string) {
  const f =
    referenceFormats.get(timeZone) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
  referenceFormats.set(timeZone, f);
  const parts = f.formatToParts(new Date(epochMs));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: weekdays.indexOf(get('weekday')),
  };
}

describe('zonedParts (offset cached per 15 minutes)', () => {
  const zones = [
    'Asia/Dubai',
    'UTC',
    'Europe/London',
    'America/New_York',
    'America/Sao_Paulo',
    'Asia/Kathmandu', // +05:45
    'Australia/Lord_Howe', // 30-minute DST
    'Pacific/Chatham', // +12:45 / +13:45
    'Europe/Amsterdam', // 1937: +00:19:32 LMT-style offset with seconds
  ];

  it('equals Intl for instants around every transition and at random', () => {
    let seed = 42;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const instants: number[] = [];
    for (let i = 0; i < 400; i++) instants.push(Math.floor(Date.UTC(1930, 0, 1) + rnd() * 3.2e12));
    // Each side of DST transitions (second by second around them) in 2026.
    for (const t of [
      Date.UTC(2026, 2, 29, 1, 0), // Europe, spring
      Date.UTC(2026, 9, 25, 1, 0), // Europe, autumn
      Date.UTC(2026, 2, 8, 7, 0), // New York, spring
      Date.UTC(2026, 10, 1, 6, 0), // New York, autumn
      Date.UTC(2026, 3, 4, 15, 0), // Lord Howe, autumn (02:00 local, +11 -> +10:30)
      Date.UTC(2026, 3, 4, 14, 45), // Chatham, autumn
    ]) {
      for (let d = -3_600_000; d <= 3_600_000; d += 59_000) instants.push(t + d);
      for (let d = -3000; d <= 3000; d += 1000) instants.push(t + d);
    }
    for (const tz of zones) {
      for (const t of instants) {
        const want = reference(t, tz);
        expect(zonedParts(t, tz), `${tz} ${new Date(t).toISOString()}`).toEqual(want);
        expect(zonedHour(t, tz), `hour ${tz} ${new Date(t).toISOString()}`).toBe(want.hour);
      }
    }
  });

  it('keeps the helpers built on it: local dates and local wall-clock times', () => {
    expect(localDate(Date.UTC(2026, 0, 4, 20, 0), 'Asia/Dubai')).toBe('2026-01-05');
    expect(zonedTimeToEpoch(2026, 3, 29, 2, 30, 'Europe/London')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(() => zonedParts(0, 'Mars/Olympus')).toThrow(RangeError);
  });
});
