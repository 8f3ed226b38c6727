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
import { UsageError } from './admin-create';
import { parseArgs } from './company-create';

/**
 * `npm run company:create` (issue 18 finding 10), run as the real command on the database the test
 * pass uses (PostgreSQL with FLEET_TEST_DB=pg, a fresh schema it migrates itself; else an embedded
 * PGlite folder). The new company admin follows the printed link, signs in and sees only the new
 * company; the invitation e-mail waits in the message outbox for the server's worker.
 */
const CLI = fileURLToPath(new URL('./company-create.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const pgUrl = process.env.FLEET_TEST_DB === 'pg' ? process.env.DATABASE_URL : undefined;
const schema = `t_companycli_${randomBytes(3).toString('hex')}`;
let dataDir: string;
let env: Record<string, string>;

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', CLI, ...args], {
      cwd: SERVER_DIR,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

async function withServer<T>(fn: (app: Awaited<ReturnType<typeof createServer>>, s: Storage) => Promise<T>) {
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
    return await fn(app, storage);
  } finally {
    await app.close();
    await storage.close();
  }
}

describe('company:create arguments', () => {
  it('refuses what is missing or malformed, naming the argument', () => {
    expect(() => parseArgs([])).toThrow(/--name is required/);
    expect(() => parseArgs(['--name', 'X', '--admin-email', 'a@b.co'])).toThrow(/--country is required/);
    expect(() => parseArgs(['--name', 'X', '--country', 'AE'])).toThrow(/--admin-email is required/);
    expect(() => parseArgs(['--name', 'X', '--country', 'ARE', '--admin-email', 'a@b.co'])).toThrow(
      /--country: Please enter a valid Country/,
    );
    expect(() => parseArgs(['--name', 'X', '--country', 'AE', '--admin-email', 'nope'])).toThrow(
      /--admin-email: Please enter a valid Email/,
    );
    expect(() => parseArgs(['--name', 'X', '--country', 'AE', '--admin-email', 'a@b.co', '--locale', 'fr'])).toThrow(
      /--locale/,
    );
    expect(() => parseArgs(['--password', 'x'])).toThrow(UsageError);
    expect(() => parseArgs(['--name'])).toThrow(/--name needs a value/);
    expect(() => parseArgs(['--name', 'X', '--country', 'AE', '--admin-email', 'a@b.co', '--feature', 'x'])).toThrow(
      /key=value/,
    );
    expect(
      parseArgs([
        '--name=Gulf Buses',
        '--country',
        'ae',
        '--admin-email',
        'Owner@Gulf.test',
        '--locale',
        'ar',
        '--feature',
        'emergency_driver_alert_enabled=true',
        '--setting',
        'timezone=Asia/Dubai',
        '--setting',
        'max_speed=120',
        '--url',
        'https://fleet.test/',
      ]),
    ).toEqual({
      input: {
        name: 'Gulf Buses',
        name_ar: null,
        country_code: 'AE',
        settings: { timezone: 'Asia/Dubai', max_speed: 120 },
        features: { emergency_driver_alert_enabled: true },
        admin: { email: 'Owner@Gulf.test', name: 'Owner', locale: 'ar' },
      },
      url: 'https://fleet.test',
    });
  });
});

describe(`company:create on ${pgUrl ? 'PostgreSQL' : 'embedded PGlite'}`, () => {
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fleet-company-'));
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

  it('creates the company and its admin, who follows the printed link and sees only that company', async () => {
    const r = await cli([
      '--name',
      'Gulf School Buses',
      '--country',
      'AE',
      '--admin-email',
      'owner@gulf.test',
      '--admin-name',
      'Mona',
      '--locale',
      'ar',
      '--feature',
      'emergency_driver_alert_enabled=true',
      '--url',
      'https://fleet.example.com',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Created transport company Gulf School Buses');
    const link = /https:\/\/fleet\.example\.com\/set-password\/(\S+)/.exec(r.out);
    expect(link).not.toBeNull();
    await withServer(async (app, storage) => {
      const [mail] = await storage.db.query<{ recipient: string; kind: string; locale: string; status: string }>(
        `SELECT recipient, kind, locale, status FROM message_outbox`,
      );
      expect(mail).toEqual({ recipient: 'owner@gulf.test', kind: 'set_password', locale: 'ar', status: 'queued' });
      const set = await app.inject({
        method: 'POST',
        url: `/v1/set-password/${link![1]}`,
        payload: { password: 'chosen pass 7', password_confirmation: 'chosen pass 7' },
      });
      expect(set.statusCode).toBe(200);
      const ok = await app.inject({
        method: 'POST',
        url: '/v1/login',
        payload: { email: 'owner@gulf.test', password: 'chosen pass 7' },
      });
      expect(ok.statusCode).toBe(200);
      const me = await app.inject({
        method: 'GET',
        url: '/v1/auth',
        headers: { authorization: `Bearer ${(ok.json() as { data: { token: string } }).data.token}` },
      });
      const companies = (me.json() as { data: { transport_companies: { name: string; features: object }[] } }).data
        .transport_companies;
      expect(companies).toHaveLength(1);
      expect(companies[0]).toMatchObject({
        name: 'Gulf School Buses',
        features: { emergency_driver_alert_enabled: true },
      });
    });
  }, 120_000);

  it('a taken e-mail or company name is refused (exit 3) and nothing changes', async () => {
    const r = await cli(['--name', 'gulf school buses', '--country', 'AE', '--admin-email', 'OWNER@gulf.test']);
    expect(r.code).toBe(3);
    expect(r.err).toContain('--name: This Name is already taken');
    expect(r.err).toContain('--admin-email: This Email is already taken');
    await withServer(async (_app, storage) => {
      const [n] = await storage.db.query<{ c: number; u: number; m: number }>(
        `SELECT (SELECT count(*)::int FROM transport_companies) AS c, (SELECT count(*)::int FROM users) AS u,
                (SELECT count(*)::int FROM message_outbox) AS m`,
      );
      expect(n).toEqual({ c: 1, u: 1, m: 1 });
    });
  }, 120_000);
});
