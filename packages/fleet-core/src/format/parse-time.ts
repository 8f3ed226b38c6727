/**
 * Parsing of API timestamps. The spec does not show the zone of `created_at`; the product treats a
 * timestamp without an offset ('YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DDTHH:mm:ss' or 'YYYY-MM-DD') as UTC,
 * and one with 'Z' or '+hh:mm' as written. Anything else is not a time and yields null.
 */

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const ZONED_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Milliseconds since the epoch of an API time (string, Date or epoch ms), or null when unusable. */
export function parseApiTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const local = LOCAL_PATTERN.exec(text);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = local;
    const month = Number(mo);
    const day = Number(d);
    const ms = Date.UTC(
      Number(y),
      month - 1,
      day,
      Number(h),
      Number(mi),
      Number(s),
      Number(frac.padEnd(3, '0').slice(0, 3)),
    );
    const check = new Date(ms);
    // Reject overflowing calendar values such as 2024-02-31 or 25:00.
    if (
      check.getUTCMonth() !== month - 1 ||
      check.getUTCDate() !== day ||
      Number(h) > 23 ||
      Number(mi) > 59 ||
      Number(s) > 59
    ) {
      return null;
    }
    return ms;
  }
  if (ZONED_PATTERN.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** Epoch milliseconds of a `Date | number` "now". */
export function toEpochMs(now: Date | number): number {
  return typeof now === 'number' ? now : now.getTime();
}
