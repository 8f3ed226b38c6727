/**
 * Wall-clock helpers for an IANA time zone, built on Intl only (no dependency), with cached formatters.
 * Tariffs, device-days and rollup buckets are all defined in a local zone (Asia/Dubai for Salik).
 */

export interface ZonedParts {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number; // 1-31
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0 = Sunday ... 6 = Saturday */
  readonly weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
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
    } catch {
      throw new RangeError(`Unknown time zone: ${timeZone}`);
    }
    formatters.set(timeZone, f);
  }
  return f;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/**
 * Wall-clock parts of an instant. `formatToParts` costs microseconds per call and the trips,
 * rollups and dirty-day bookkeeping call this for every record, so the zone's UTC offset is cached
 * per 15-minute bucket of UTC time: a bucket whose first and last second have the same offset has
 * no transition inside (offsets only change at transitions, and the zone database puts at most one
 * in 15 minutes), so every instant in it has that offset and its parts are plain UTC arithmetic.
 * A bucket holding a transition is not cached (the slow path answers).
 */
const BUCKET_MS = 15 * 60_000;
const offsetCache = new Map<string, Map<number, number | null>>();

function offsetOf(epochMs: number, timeZone: string): number {
  const p = formatParts(epochMs, timeZone);
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(p.year, p.month - 1, p.day);
  asUtc.setUTCHours(p.hour, p.minute, p.second, 0);
  return asUtc.getTime() - Math.floor(epochMs / 1000) * 1000;
}

export function zonedParts(epochMs: number, timeZone: string): ZonedParts {
  const offset = cachedOffset(epochMs, timeZone);
  if (offset === null) return formatParts(epochMs, timeZone);
  const d = new Date(epochMs + offset);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The local hour (0-23) of an instant: `zonedParts(t, tz).hour` without building the parts (the
 * rollups ask it for every trip and violation of a day at each flush).
 */
export function zonedHour(epochMs: number, timeZone: string): number {
  const offset = cachedOffset(epochMs, timeZone);
  if (offset === null) return formatParts(epochMs, timeZone).hour;
  const ms = (epochMs + offset) % 86_400_000;
  return Math.floor((ms < 0 ? ms + 86_400_000 : ms) / 3_600_000);
}

/** The zone's offset at the instant from the 15-minute cache, or null when a transition is inside. */
function cachedOffset(epochMs: number, timeZone: string): number | null {
  if (!Number.isFinite(epochMs)) throw new RangeError(`Invalid time: ${epochMs}`);
  let zone = offsetCache.get(timeZone);
  if (!zone) {
    formatter(timeZone); // throws on an unknown zone before anything is cached
    zone = new Map();
    offsetCache.set(timeZone, zone);
  }
  const bucket = Math.floor(epochMs / BUCKET_MS);
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const first = offsetOf(bucket * BUCKET_MS, timeZone);
    const last = offsetOf((bucket + 1) * BUCKET_MS - 1000, timeZone);
    offset = first === last ? first : null;
    if (zone.size >= 100_000) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

/** The slow, exact path: Intl's own answer. */
function formatParts(epochMs: number, timeZone: string): ZonedParts {
  const parts = formatter(timeZone).formatToParts(new Date(epochMs));
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let weekday = 0;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        year = Number(p.value);
        break;
      case 'month':
        month = Number(p.value);
        break;
      case 'day':
        day = Number(p.value);
        break;
      case 'hour':
        hour = Number(p.value);
        break;
      case 'minute':
        minute = Number(p.value);
        break;
      case 'second':
        second = Number(p.value);
        break;
      case 'weekday':
        weekday = WEEKDAYS[p.value] ?? 0;
        break;
      default:
        break;
    }
  }
  return { year, month, day, hour, minute, second, weekday };
}

/** Offset of the zone from UTC at the given instant, in milliseconds (Dubai: +4 h). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/** The instant at which the given local wall-clock time occurs (first occurrence in DST folds). */
export function zonedTimeToEpoch(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  const first = guess - zoneOffsetMs(guess, timeZone);
  const second = guess - zoneOffsetMs(first, timeZone);
  return Math.min(first, second);
}

/** Local calendar date 'YYYY-MM-DD' of an instant. */
export function localDate(epochMs: number, timeZone: string): string {
  const p = zonedParts(epochMs, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Start (epoch ms) of the local day containing `epochMs`. */
export function localDayStart(epochMs: number, timeZone: string): number {
  const p = zonedParts(epochMs, timeZone);
  return zonedTimeToEpoch(p.year, p.month, p.day, 0, 0, timeZone);
}

/** Start of the local day given as 'YYYY-MM-DD'. */
export function dayStartOf(date: string, timeZone: string): number {
  const { year, month, day } = parseDate(date);
  return zonedTimeToEpoch(year, month, day, 0, 0, timeZone);
}

/** The calendar date `n` days after `date` (both 'YYYY-MM-DD'). */
export function addDays(date: string, n: number): string {
  const { year, month, day } = parseDate(date);
  const d = new Date(Date.UTC(year, month - 1, day + n));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** 0 = Sunday ... 6 = Saturday for a calendar date. */
export function weekdayOf(date: string): number {
  const { year, month, day } = parseDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

export function parseDate(date: string): { year: number; month: number; day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`Invalid date (expected YYYY-MM-DD): ${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Invalid date (expected YYYY-MM-DD): ${date}`);
  }
  return { year, month, day };
}

/** Parses 'HH:mm' into minutes after midnight (24:00 allowed as 1440). */
export function parseClock(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) throw new RangeError(`Invalid time of day (expected HH:mm): ${hhmm}`);
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) throw new RangeError(`Invalid time of day: ${hhmm}`);
  return h * 60 + min;
}

export function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
