import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { MemoryMessenger } from '../auth/messenger';
import { InProcessBus } from '../realtime/bus';
import { openStorage, type Storage } from '../storage/storage';
import { parseArgs, UsageError } from './admin-create';

/**
 * `npm run admin:create` (issue 21): the first super admin of a new installation, run as the real
 * command on the database the test pass uses (PostgreSQL with FLEET_TEST_DB=pg, a fresh schema it
 * migrates itself; else an embedded PGlite folder, as `npm start` keeps it). The account then signs
 * in through the API: with the password read from standard input, or after choosing one through the
 * printed one-time link (which works once).
 */
const CLI = fileURLToPath(new URL('./admin-create.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const pgUrl = process.env.FLEET_TEST_DB === 'pg' ? process.env.DATABASE_URL : undefined;
const schema = `t_admincli_${randomBytes(3).toString('hex')}`;
let dataDir: string;
let env: Record<string, string>;

function cli(args: string[], stdin?: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', CLI, ...args], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdin.end(stdin ?? '');
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

async function withServer<T>(fn: (app: Awaited<ReturnType<typeof createServer>>) => Promise<T>): Promise<T> {
  const storage: Storage = await openStorage(
    pgUrl ? { url: pgUrl, schema } : { dataDir: join(dataDir, 'pglite') },
  );
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' });
  const app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    logger: false,
  });
  try {
    await app.ready();
    return await fn(app);
  } finally {
    await app.close();
    await storage.close();
  }
}

describe('admin:create arguments', () => {
  it('refuses what is missing or malformed, naming the argument', () => {
    expect(() => parseArgs([])).toThrow(/--email is required/);
    expect(() => parseArgs(['--email', 'not-an-address'])).toThrow(/--email is not an e-mail address/);
    expect(() => parseArgs(['--email', 'a@b.co', '--locale', 'fr'])).toThrow(/--locale must be en or ar/);
    expect(() => parseArgs(['--email', 'a@b.co', '--password', 'secret'])).toThrow(UsageError);
    expect(() => parseArgs(['--email'])).toThrow(/--email needs a value/);
    expect(parseArgs(['--email=ops@fleet.test', '--locale', 'ar', '--url', 'https://fleet.test/'])).toEqual({
      email: 'ops@fleet.test',
      name: 'ops',
      locale: 'ar',
      url: 'https://fleet.test',
      passwordStdin: false,
    });
  });
});

describe(`admin:create on ${pgUrl ? 'PostgreSQL' : 'embedded PGlite'}`, () => {
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fleet-admin-'));
    env = pgUrl ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema } : { DATABASE_URL: '', DATA_DIR: dataDir };
  });
  afterAll(async () => {
    if (pgUrl) {
      const s = await openStorage({ url: pgUrl });
      await s.db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await s.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('with the password on standard input: the super admin signs in', async () => {
    const r = await cli(
      ['--email', 'Ops@Fleet.test', '--name', 'Operations', '--password-stdin'],
      'correct horse 9\n',
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Created super admin Ops@Fleet.test');
    expect(r.out).not.toContain('correct horse');
    await withServer(async (app) => {
      const bad = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'ops@fleet.test', password: 'correct horse 9\n' },
      });
      expect(bad.statusCode).toBe(422);
      const ok = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'ops@fleet.test', password: 'correct horse 9' },
      });
      expect(ok.statusCode).toBe(200);
      const me = await app.inject({
        method: 'GET',
        url: '/v1/auth',
        headers: { authorization: `Bearer ${(ok.json() as { data: { token: string } }).data.token}` },
      });
      expect(me.statusCode).toBe(200);
      expect(JSON.stringify(me.json())).toContain('super_admin');
    });
  }, 120_000);

  it('an e-mail that has an account is refused and nothing changes', async () => {
    const r = await cli(['--email', 'ops@fleet.test', '--password-stdin'], 'another pass 1');
    expect(r.code).toBe(3);
    expect(r.err).toContain('already has an account');
    await withServer(async (app) => {
      const old = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'ops@fleet.test', password: 'correct horse 9' },
      });
      expect(old.statusCode).toBe(200);
    });
  }, 120_000);

  it('a short password is refused', async () => {
    const r = await cli(['--email', 'short@fleet.test', '--password-stdin'], 'short');
    expect(r.code).toBe(2);
    expect(r.err).toContain('at least 8 characters');
  }, 60_000);

  it('without a password: a one-time set-password link, used once, then the admin signs in', async () => {
    const r = await cli(['--email', 'first@fleet.test', '--url', 'https://fleet.example.com']);
    expect(r.code).toBe(0);
    const link = /https:\/\/fleet\.example\.com\/set-password\/(\S+)/.exec(r.out);
    expect(link).not.toBeNull();
    const token = link![1]!;
    await withServer(async (app) => {
      const before = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'first@fleet.test', password: 'chosen pass 7' },
      });
      expect(before.statusCode).toBe(422);
      const set = await app.inject({
        method: 'POST',
        url: `/v1/set-password/${token}`,
        payload: { password: 'chosen pass 7', password_confirmation: 'chosen pass 7' },
      });
      expect(set.statusCode).toBe(200);
      const again = await app.inject({
        method: 'POST',
        url: `/v1/set-password/${token}`,
        payload: { password: 'taken over 77', password_confirmation: 'taken over 77' },
      });
      expect(again.statusCode).toBe(422);
      const ok = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'first@fleet.test', password: 'chosen pass 7' },
      });
      expect(ok.statusCode).toBe(200);
    });
  }, 120_000);
});
