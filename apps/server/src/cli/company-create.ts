import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { companyCreateInputSchema } from '@fleet/api-client';
import { ConfigError } from '../config/config';
import { HttpError } from '../http/errors';
import { loadMessagingConfig, MessagingConfigError } from '../messaging/config';
import { OutboxMessenger } from '../messaging/messenger';
import { createCompany, type CompanyCreate } from '../entities/companies';
import { openCliStorage, UsageError } from './admin-create';

/**
 * `npm run company:create -- --name "Gulf School Buses" --country AE --admin-email owner@example.com
 * [--name-ar "…"] [--admin-name "Mona"] [--locale en|ar] [--feature key=value ...] [--setting key=value ...]
 * [--url https://fleet.example.com]`
 *
 * Onboards a transport company with its first company admin on the database the server uses (the
 * same opening code as admin:create: DATABASE_URL, else the embedded PGlite folder of `npm start`,
 * which must be stopped first), through the same createCompany as the API (entities/companies.ts):
 * one transaction, the same validation (the contract's companyCreateInputSchema) and the same
 * set-password invitation, queued in the message outbox (the server's outbox worker mails it when
 * the server runs) and printed here so the operator can hand it over directly.
 *
 * Feature and setting values: true/false and numbers are read as such, anything else as text.
 *
 * Exit codes: 0 created, 2 bad arguments (or configuration), 3 the company name or admin e-mail is
 * taken, 1 anything else.
 */

const USAGE = `usage: npm run company:create -- --name <name> --country <XX> --admin-email <address> [--name-ar <name>] [--admin-name <name>] [--locale en|ar] [--feature key=value]... [--setting key=value]... [--url <public url>]`;

export interface CompanyCreateOptions {
  input: CompanyCreate;
  url: string | undefined;
}

const scalar = (v: string): boolean | number | string =>
  v === 'true' ? true : v === 'false' ? false : /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;

const FLAGS: Record<string, string> = {
  '--name': 'name',
  '--name-ar': 'name_ar',
  '--country': 'country_code',
  '--admin-email': 'admin.email',
  '--admin-name': 'admin.name',
  '--locale': 'admin.locale',
  '--url': 'url',
};
const ARG_OF: Record<string, string> = Object.fromEntries(Object.entries(FLAGS).map(([k, v]) => [v, k]));

export function parseArgs(argv: readonly string[]): CompanyCreateOptions {
  const out: Record<string, string> = {};
  const features: Record<string, boolean | number | string> = {};
  const settings: Record<string, boolean | number | string> = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^(--[a-z-]+)(?:=(.*))?$/s.exec(argv[i]!);
    if (!m || (!FLAGS[m[1]!] && m[1] !== '--feature' && m[1] !== '--setting'))
      throw new UsageError(`unknown argument ${argv[i]}\n${USAGE}`);
    const v = m[2] ?? argv[++i];
    if (v === undefined) throw new UsageError(`${m[1]} needs a value\n${USAGE}`);
    if (m[1] === '--feature' || m[1] === '--setting') {
      const kv = /^([A-Za-z0-9_.-]+)=(.*)$/s.exec(v);
      if (!kv) throw new UsageError(`${m[1]} must be key=value\n${USAGE}`);
      (m[1] === '--feature' ? features : settings)[kv[1]!] = scalar(kv[2]!);
    } else out[FLAGS[m[1]!]!] = v;
  }
  for (const required of ['name', 'country_code', 'admin.email'])
    if (!out[required]) throw new UsageError(`${ARG_OF[required]} is required\n${USAGE}`);
  const email = out['admin.email']!.trim();
  const r = companyCreateInputSchema.safeParse({
    name: out.name,
    name_ar: out.name_ar,
    country_code: out.country_code,
    settings,
    features,
    admin: { email, name: out['admin.name'] ?? email.split('@')[0], locale: out['admin.locale'] ?? 'en' },
  });
  if (!r.success) {
    throw new UsageError(
      r.error.issues.map((i) => `${ARG_OF[i.path.join('.')] ?? i.path.join('.')}: ${i.message}`).join('\n'),
    );
  }
  let url = out.url;
  if (url !== undefined) {
    if (!/^https?:\/\/\S+$/.test(url)) throw new UsageError('--url: must be an http(s) URL');
    url = url.replace(/\/+$/, '');
  }
  return { input: r.data as CompanyCreate, url };
}

export class TakenError extends Error {}

export interface CompanyCreatedCli {
  companyUuid: string;
  adminUuid: string;
  link: string;
}

export async function runCompanyCreate(
  env: Record<string, string | undefined>,
  opts: CompanyCreateOptions,
): Promise<CompanyCreatedCli> {
  const messaging = loadMessagingConfig(env);
  const { config, storage } = await openCliStorage(env);
  try {
    const messenger = new OutboxMessenger({ db: storage.db, config: messaging });
    const deps = {
      messenger,
      config: { PUBLIC_URL: opts.url ?? config.PUBLIC_URL, HOST: config.HOST, PORT: config.PORT },
      now: () => new Date(),
    };
    const r = await storage.db.transaction((tx) => createCompany(deps, tx, opts.input));
    return { companyUuid: r.company.uuid, adminUuid: r.admin.uuid, link: r.link };
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 422) {
      const fields = Object.entries(err.errors ?? {}).map(
        ([k, v]) => `${ARG_OF[k] ?? k}: ${v.join(', ')}`,
      );
      throw new TakenError(`${fields.join('\n')}\nnothing changed`);
    }
    throw err;
  } finally {
    await storage.close();
  }
}

async function main(): Promise<number> {
  try {
    const opts = parseArgs(process.argv.slice(2));
    const r = await runCompanyCreate(process.env, opts);
    console.log(
      `Created transport company ${opts.input.name} (${r.companyUuid}) with company admin ${opts.input.admin.email} (${r.adminUuid}).`,
    );
    console.log(
      `The invitation e-mail is queued in the message outbox. The admin chooses a password here (valid 7 days, once):\n\n  ${r.link}\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof MessagingConfigError) {
      console.error(err.message);
      return 2;
    }
    if (err instanceof TakenError) {
      console.error(err.message);
      return 3;
    }
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main();
}
