import { describe, expect, it } from 'vitest';
import { formatTime, formatTimeIntl } from './table';

/** formatTime (cached quarter-hour offsets) against Intl itself, across DST changes and odd offsets. */
describe('export times', () => {
  it('formats every minute like Intl in zones with DST, half- and quarter-hour offsets', () => {
    const zones = [
      'Asia/Dubai',
      'UTC',
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
      'America/St_Johns',
    ];
    // Around 2026's DST changes (March, April, October, November) and a plain stretch.
    const starts = [
      '2026-03-07T00:00:00Z',
      '2026-03-27T00:00:00Z',
      '2026-04-03T12:00:00Z',
      '2026-09-26T00:00:00Z',
      '2026-10-03T12:00:00Z',
      '2026-10-24T00:00:00Z',
      '2026-10-31T00:00:00Z',
      '2026-11-01T00:00:00Z',
    ];
    for (const zone of zones) {
      for (const start of starts) {
        const t0 = Date.parse(start);
        for (let ms = t0; ms < t0 + 3 * 86_400_000; ms += 7 * 60_000 + 13_000)
          expect(formatTime(new Date(ms).toISOString(), zone), `${zone} ${new Date(ms).toISOString()}`).toBe(
            formatTimeIntl(ms, zone),
          );
      }
    }
    expect(formatTime('1850-01-01T00:00:00Z', 'Asia/Dubai')).toBe(
      formatTimeIntl(Date.parse('1850-01-01T00:00:00Z'), 'Asia/Dubai'),
    );
    expect(formatTime(null, 'UTC')).toBeNull();
    expect(formatTime('not a time', 'UTC')).toBeNull();
  });
});
