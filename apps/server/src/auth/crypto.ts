import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords: scrypt (memory-hard, node:crypto), 16-byte salt, 64-byte key, stored as
 * `scrypt$N$r$p$salt$hash` (base64url) so the cost can be raised later per hash.
 */
const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 64;

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time check; a malformed or missing hash is simply "no match". */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![n, r, p].every((x) => Number.isInteger(x) && x > 0) || n > 1 << 20) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEYLEN) return false;
  const key = await scryptAsync(password, Buffer.from(parts[4]!, 'base64url'), n, r, p);
  return timingSafeEqual(key, expected);
}

/** A hash to verify against when the user does not exist, so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));
}

/** Random opaque token (32 bytes, base64url): sessions, reset links, verification tokens. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database stores for a token: its SHA-256 (hex). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Six-digit one-time code. */
export function newOtpCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function hashOtp(userId: number, purpose: string, code: string): string {
  return createHash('sha256').update(`${userId}:${purpose}:${code}`).digest('hex');
}
