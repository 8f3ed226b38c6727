/**
 * Document expiry (vehicle registration, insurance and operating licence; driver licence, national ID
 * and residence permit / Iqama): how far away an expiry date is, which reminder threshold that falls in,
 * and the state the portal shows next to the date.
 *
 * Reminders go out 30, 7 and 1 days before the expiry and on the day itself (issue 20). A document is
 * reminded once per threshold: the threshold is part of the reminder's de-duplication key, so the
 * 30-day reminder, the 7-day one and so on are separate notifications, and a restart or another node
 * repeating the daily check sends nothing new. Only the threshold the document is in *now* is sent:
 * a document entered 5 days before its expiry gets the 7-day reminder, not a late 30-day one as well.
 * A document found already expired (entered late, or the service was down on the day) gets one
 * reminder in the 'on the day' threshold, worded as expired.
 *
 * Dates are calendar days ('YYYY-MM-DD') in the company's time zone; the caller passes "today" in the
 * same zone, so there is no clock or zone in here.
 */

/** Days before the expiry date a reminder goes out (0 = on the day), largest first. */
export const expiryReminderDays = [30, 7, 1, 0] as const;

/** What the portal shows beside an expiry date. */
export const expiryStates = ['valid', 'dueSoon', 'dueThisWeek', 'expiresToday', 'expired'] as const;
export type ExpiryState = (typeof expiryStates)[number];

const DAY_MS = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' as a day number (days since 1970-01-01), or null when it is not a real calendar day. */
export function dayNumber(day: string): number | null {
  const m = ISO_DAY.exec(day.slice(0, 10));
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1) return null;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // 2026-02-30 rolls over to March in Date.UTC: not a real day.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return Math.round(ms / DAY_MS);
}

/** Whole days from `today` to `expiresOn` (negative once passed); null when either is not a day. */
export function daysUntilExpiry(expiresOn: string, today: string): number | null {
  const a = dayNumber(expiresOn);
  const b = dayNumber(today);
  if (a === null || b === null) return null;
  // 0001-01-01 is the spec's "no date"; dayNumber already refuses year 0, treat year 1 the same.
  if (expiresOn.startsWith('0001-')) return null;
  return a - b;
}

/**
 * The reminder threshold a document `days` away from its expiry is in, or null when no reminder is due
 * yet. `firstDays` (a notification rule's days_ahead, default 30) replaces the first threshold; the
 * later ones (7, 1, on the day) are kept when they are under it.
 */
export function expiryReminderThreshold(
  days: number,
  firstDays: number = expiryReminderDays[0],
): number | null {
  const thresholds = reminderThresholds(firstDays);
  if (days > thresholds[0]!) return null;
  // Passed (days < 0) counts as 'on the day': one reminder, worded as expired.
  let current = thresholds[0]!;
  for (const t of thresholds) if (days <= t) current = t;
  return current;
}

/** The thresholds for a rule whose first reminder is `firstDays` before the expiry, largest first. */
export function reminderThresholds(firstDays: number): number[] {
  const first = Math.max(0, Math.floor(firstDays));
  return [...new Set([first, ...expiryReminderDays.filter((d) => d < first)])];
}

/** The state of an expiry `days` away: expired, today, within a week, within 30 days, or valid. */
export function expiryState(days: number): ExpiryState {
  if (days < 0) return 'expired';
  if (days === 0) return 'expiresToday';
  if (days <= 7) return 'dueThisWeek';
  if (days <= 30) return 'dueSoon';
  return 'valid';
}
