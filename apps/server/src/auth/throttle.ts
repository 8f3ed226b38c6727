import type { Queryable } from '../storage/db';
import { HttpError } from '../http/errors';

/**
 * Sign-in abuse (issue 18). Sign-in failures are counted per (account, address) and per address, never
 * per account alone: a stranger who knows a manager's e-mail can slow down only their own address, not
 * lock the manager out everywhere. Past a free allowance each further failure doubles the wait
 * (BACKOFF_BASE_MS, 2x, ... up to BACKOFF_MAX_MS) counted from the latest failure, over the last
 * BACKOFF_WINDOW_MS. A success from that address clears its (account, address) count.
 */
export const PAIR_FREE = 5;
export const ADDRESS_FREE = 30;
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 15 * 60_000;
export const BACKOFF_WINDOW_MS = 60 * 60_000;
export const pairKey = (identity: string, ip: string) => `acct:${identity.toLowerCase()}|ip:${ip}`;

/** 429 with Retry-After while any key is inside its growing delay. */
export async function assertBackoff(db: Queryable, now: Date, keys: [string, number][]): Promise<void> {
  const since = new Date(now.getTime() - BACKOFF_WINDOW_MS).toISOString();
  for (const [key, free] of keys) {
    const [r] = await db.query<{ n: number; last: Date | null }>(
      `SELECT count(*)::int AS n, max(at) AS last FROM login_attempts WHERE key = $1 AND NOT success AND at > $2`,
      [key, since],
    );
    if (!r || r.n < free || !r.last) continue;
    const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (r.n - free));
    const until = new Date(r.last).getTime() + wait;
    if (now.getTime() < until) {
      const seconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
      throw new HttpError(429, 'auth.throttled', { seconds }, undefined, { 'Retry-After': String(seconds) });
    }
  }
}

/**
 * Reset links and OTP codes sent to one recipient (user) per hour: past the cap nothing more is sent,
 * and the caller answers as if it had been (no oracle, no mail bombing).
 */
export const MESSAGES_PER_RECIPIENT_HOUR = 5;
export const recipientKey = (userId: number) => `send:user:${userId}`;

/** Record one message to the recipient if under the hourly cap; false when the cap is reached. */
export async function takeMessageAllowance(db: Queryable, now: Date, userId: number): Promise<boolean> {
  const since = new Date(now.getTime() - 60 * 60_000).toISOString();
  const [r] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM login_attempts WHERE key = $1 AND at > $2',
    [recipientKey(userId), since],
  );
  if ((r?.n ?? 0) >= MESSAGES_PER_RECIPIENT_HOUR) return false;
  await recordFailure(db, now, [recipientKey(userId)]);
  return true;
}

/**
 * Sign-in throttling on failures in a sliding window, per account and per client address.
 * Limits: 5 failures per account, 30 per address, within 15 minutes. The lock lifts as the oldest
 * failure leaves the window (Retry-After says when).
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_LIMIT = 5;
export const ADDRESS_LIMIT = 30;

export const accountKey = (identity: string) => `acct:${identity.toLowerCase()}`;
export const addressKey = (ip: string) => `ip:${ip}`;

export async function assertNotThrottled(db: Queryable, now: Date, keys: [string, number][]): Promise<void> {
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString();
  for (const [key, limit] of keys) {
    const rows = await db.query<{ n: number; oldest: Date | null }>(
      `SELECT count(*)::int AS n, min(at) AS oldest FROM
         (SELECT at FROM login_attempts WHERE key = $1 AND NOT success AND at > $2 ORDER BY at DESC LIMIT $3) x`,
      [key, since, limit],
    );
    const r = rows[0];
    if (r && r.n >= limit && r.oldest) {
      const seconds = Math.max(
        1,
        Math.ceil((new Date(r.oldest).getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000),
      );
      throw new HttpError(429, 'auth.throttled', { seconds }, undefined, { 'Retry-After': String(seconds) });
    }
  }
}

export async function recordFailure(db: Queryable, now: Date, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db.query('INSERT INTO login_attempts (key, success, at) VALUES ($1, false, $2)', [
      key,
      now.toISOString(),
    ]);
  }
}

export async function clearFailures(db: Queryable, key: string): Promise<void> {
  await db.query('DELETE FROM login_attempts WHERE key = $1', [key]);
}
