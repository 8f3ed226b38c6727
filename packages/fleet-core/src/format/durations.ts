import { translate } from '../i18n/translate';

function assertDuration(seconds: number, what: string): void {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`${what} must be a non-negative finite number of seconds, got ${String(seconds)}`);
  }
}

/**
 * A duration in the spec's units: under a minute 's' ('45s'), under an hour 'm' ('12m'), from an
 * hour on 'd h m' ('2h 5m', '1d 0h 5m'; days appear once there is at least one). Fractions of a
 * second are dropped. Arabic uses its own unit letters.
 */
export function formatDuration(seconds: number, locale = 'en-US'): string {
  assertDuration(seconds, 'Duration');
  const total = Math.floor(seconds);
  if (total < 60) return translate(locale, 'unit.seconds', { value: total });
  if (total < 3600) return translate(locale, 'unit.minutes', { value: Math.floor(total / 60) });
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const parts = [
    translate(locale, 'unit.hours', { value: hours }),
    translate(locale, 'unit.minutes', { value: minutes }),
  ];
  if (days > 0) parts.unshift(translate(locale, 'unit.days', { value: days }));
  return parts.join(' ');
}

/** Whole minutes of a duration in seconds. */
export function idleMinutes(seconds: number): number {
  assertDuration(seconds, 'Idle time');
  return Math.floor(seconds / 60);
}

/** The idle label: whole minutes ('15 min', Arabic '15 دقيقة'). */
export function formatIdleLabel(seconds: number, locale = 'en-US'): string {
  return translate(locale, 'idle.minutes', { minutes: idleMinutes(seconds) });
}

/** Idle seconds between an idle-since time and now (never negative). */
export function idleSecondsSince(since: Date | number, now: Date | number): number {
  const from = typeof since === 'number' ? since : since.getTime();
  const to = typeof now === 'number' ? now : now.getTime();
  return Math.max(0, (to - from) / 1000);
}

export const byteUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/**
 * A byte size in B, KB, MB, GB, TB or PB (base 1024), with `decimals` decimals (default one) from
 * KB up; bytes are whole ('512 B', '1.5 KB', '1.0 MB'). Sizes beyond PB stay in PB. Throws
 * RangeError for negative, non-finite or non-number input and for a bad decimals count.
 */
export function formatBytes(bytes: number, decimals = 1): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) {
    throw new RangeError(`Byte size must be a non-negative finite number, got ${String(bytes)}`);
  }
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`decimals must be an integer from 0 to 20, got ${String(decimals)}`);
  }
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Rounding can reach 1024.0 of a unit: move up one unit instead (1023.99 KB -> 1.0 MB).
  if (Number(value.toFixed(decimals)) >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(decimals)} ${byteUnits[unit]}`;
}
