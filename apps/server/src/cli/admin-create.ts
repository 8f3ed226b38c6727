import { resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@fleet/core';
import { ConfigError, loadConfig } from '../config/config';
import { openStorage } from '../storage/storage';
import { hashPassword } from '../auth/crypto';
import { issueToken, SET_PASSWORD_TTL_MS } from '../auth/routes';

/**
 * `npm run admin:create -- --email you@example.com [--name "Your Name"] [--locale en|ar]
 * [--password-stdin] [--url https://fleet.example.com]`
 *
 * Creates the first operator of a new installation: a super admin (every company, company
 * onboarding). Works on the database the server would use: PostgreSQL when DATABASE_URL is set
 * (DATABASE_SCHEMA too; migrations are applied first, under their lock, so it may run before any
 * node started), else the embedded PGlite folder of `npm start` (DATA_DIR, default ./data at the
 * repository root; stop `npm start` first, an embedded database has one process at a time).
 *
 * The password never appears on the command line (shell history, process list): either it is read
 * from standard input (`--password-stdin`, e.g. `printf %s "$PW" | npm run admin:create -- ...`), or
 * the command prints a one-time set-password link (valid 7 days, like an invitation) that the
 * operator opens in the portal. An e-mail that already has an account is refused (exit 3): this
 * command never changes an existing account.
 *
 * Exit codes: 0 created, 2 bad arguments or input, 3 the e-mail is taken, 1 anything else.
 */

const USAGE = `usage: npm run admin:create -- --email <address> [--name <name>] [--locale en|ar] [--password-stdin] [--url <public url>]`;

export interface AdminCreateOptions {
  email: string;
  name: string;
  locale: 'en' | 'ar';
  passwordStdin: boolean;
  url: string | undefined;
}

export class UsageError extends Error {}

const optionsSchema = z.object({
  email: z.email({ error: 'is not an e-mail address' }).max(254),
  name: z.string().trim().min(1).max(120),
  locale: z.enum(['en', 'ar'], { error: 'must be en or ar' }),
  url: z.url({ error: 'must be an http(s) URL' }).optional(),
});

export function parseArgs(argv: readonly string[]): AdminCreateOptions {
  const out: Record<string, string> = {};
  let passwordStdin = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--password-stdin') {
      passwordStdin = true;
      continue;
    }
    const m = /^--(email|name|locale|url)(?:=(.*))?$/.exec(a);
    if (!m) throw new UsageError(`unknown argument ${a}\n${USAGE}`);
    const v = m[2] ?? argv[++i];
    if (v === undefined) throw new UsageError(`--${m[1]} needs a value\n${USAGE}`);
    out[m[1]!] = v;
  }
  if (!out.email) throw new UsageError(`--email is required\n${USAGE}`);
  const r = optionsSchema.safeParse({
    email: out.email.trim(),
    name: out.name ?? out.email.split('@')[0],
    locale: out.locale ?? 'en',
    url: out.url,
  });
  if (!r.success) {
    throw new UsageError(r.error.issues.map((i) => `--${String(i.path[0])} ${i.message}`).join('\n'));
  }
  return { ...r.data, url: r.data.url?.replace(/\/+$/, ''), passwordStdin };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline (echo, a here-string) is not part of the password; other spaces are.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export interface Created {
  uuid: string;
  /** The one-time set-password link (when no password was given). */
  link?: string;
}

/**
 * The database the server would use, for the operator commands (admin:create, company:create):
 * PostgreSQL when DATABASE_URL is set (DATABASE_SCHEMA too; migrations applied under their lock), else
 * the embedded PGlite folder of `npm start` (DATA_DIR, default ./data at the repository root).
 */
export async function openCliStorage(env: Record<string, string | undefined>) {
  const config = loadConfig(env);
  const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
  const dataDir = resolve(env.DATA_DIR ?? join(repoRoot, 'data'));
  const storage = await openStorage({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : join(dataDir, 'pglite'),
    schema: config.DATABASE_SCHEMA,
  });
  return { config, storage };
}

/** Creates the super admin; throws UsageError on bad input, TakenError when the e-mail has an account. */
export class TakenError extends Error {}

export async function createSuperAdmin(
  env: Record<string, string | undefined>,
  opts: AdminCreateOptions,
  password: string | undefined,
): Promise<Created> {
  if (password !== undefined && password.length < PASSWORD_MIN_LENGTH) {
    throw new UsageError(`the password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  const { config, storage } = await openCliStorage(env);
  try {
    return await storage.db.transaction(async (tx) => {
      const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [opts.email]);
      if (taken.length > 0) throw new TakenError(`${opts.email} already has an account; nothing changed`);
      const [user] = await tx.query<{ id: number; uuid: string }>(
        `INSERT INTO users (email, name, password_hash, is_super_admin, locale)
         VALUES ($1, $2, $3, true, $4) RETURNING id, uuid`,
        [opts.email, opts.name, password === undefined ? null : await hashPassword(password), opts.locale],
      );
      if (password !== undefined) return { uuid: user!.uuid };
      const token = await issueToken(
        tx,
        user!.id,
        'set_password',
        new Date(Date.now() + SET_PASSWORD_TTL_MS),
      );
      const base =
        opts.url ?? config.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${config.HOST}:${config.PORT}`;
      return { uuid: user!.uuid, link: `${base}/set-password/${token}` };
    });
  } finally {
    await storage.close();
  }
}

async function main(): Promise<number> {
  let opts: AdminCreateOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
    const password = opts.passwordStdin ? await readStdin() : undefined;
    const created = await createSuperAdmin(process.env, opts, password);
    console.log(`Created super admin ${opts.email} (${created.uuid}).`);
    if (created.link) {
      console.log(`Open this link once to choose the password (valid 7 days):\n\n  ${created.link}\n`);
    } else console.log('Sign in with the password given on standard input.');
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(err.message);
      return 2;
    }
    if (err instanceof TakenError) {
      console.error(err.message);
      return 3;
    }
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 2;
    }
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
