import type { Queryable } from '../storage/db';
import { HttpError } from '../http/errors';

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
