/**
 * DKIM: a mail sent through the product's SMTP transport with DKIM settings carries a signature that a
 * receiving server's check accepts (mailauth's verifier, as mail servers run it, with the selector's TXT
 * record answered by the test instead of DNS), and that the same check refuses once a signed header or
 * the body is changed in transit. Settings that cannot sign stop the start with a reason.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { describeMailRoute, loadMessagingConfig, MessagingConfigError } from './config';
import { SmtpMailTransport } from './transports';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const TXT = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

const received: string[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  closeTimeout: 200,
  onData(stream, _session, cb) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'));
      cb();
    });
  },
});
let url = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The selector's TXT record, as DNS would answer it for fleet.example. */
const resolver = async (name: string, type: string): Promise<string[][]> => {
  if (type === 'TXT' && name === 'mail2026._domainkey.fleet.example') return [[TXT]];
  throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
};

async function verify(raw: string) {
  const r = await dkimVerify(Buffer.from(raw), { resolver: resolver as never });
  return r.results.map((x) => ({ domain: x.signingDomain, result: x.status.result }));
}

describe('DKIM signing of outgoing mail', () => {
  it('signs with the configured domain and selector; a receiver verifies it, and refuses a changed copy', async () => {
    const config = loadMessagingConfig({
      SMTP_URL: url,
      MAIL_FROM: 'Fleet <no-reply@fleet.example>',
      DKIM_DOMAIN: 'fleet.example',
      DKIM_SELECTOR: 'mail2026',
      // One-line form, as an .env file or a container setting holds it.
      DKIM_PRIVATE_KEY: PEM.replace(/\n/g, '\\n'),
    });
    expect(config.dkim).toMatchObject({ domainName: 'fleet.example', keySelector: 'mail2026' });
    expect(describeMailRoute(config)).toContain('DKIM mail2026._domainkey.fleet.example');
    expect(describeMailRoute(config)).not.toContain('PRIVATE');

    const transport = new SmtpMailTransport(config.SMTP_URL!, config.MAIL_FROM, 5000, config.dkim);
    try {
      const result = await transport.send({
        messageId: '<dkim-1@fleet.example>',
        to: 'manager@example.com',
        subject: 'دعوة — Invitation',
        text: 'Set your password: https://fleet.example/set-password?token=abc',
        html: '<p dir="rtl">تعيين كلمة المرور</p>',
        attachments: [],
      });
      expect(result.kind).toBe('sent');
    } finally {
      transport.close();
    }
    const raw = received.at(-1)!;
    expect(raw).toMatch(/^DKIM-Signature: .*d=fleet\.example/m);
    expect(await verify(raw)).toEqual([{ domain: 'fleet.example', result: 'pass' }]);

    // Changed in transit: the subject (a signed header) or the body no longer matches the signature.
    const otherSubject = raw.replace(/^Subject: .*$/m, 'Subject: Urgent: pay now');
    expect((await verify(otherSubject))[0]!.result).not.toBe('pass');
    const otherBody = raw.replace('token=abc', 'token=evil');
    expect(otherBody).not.toBe(raw);
    expect((await verify(otherBody))[0]!.result).not.toBe('pass');
  });

  it('without DKIM settings the mail goes unsigned', async () => {
    const config = loadMessagingConfig({ SMTP_URL: url });
    expect(config.dkim).toBeNull();
    const transport = new SmtpMailTransport(config.SMTP_URL!, config.MAIL_FROM, 5000, config.dkim);
    try {
      expect(
        (
          await transport.send({
            messageId: '<dkim-2@fleet.example>',
            to: 'manager@example.com',
            subject: 'Plain',
            text: 'x',
            html: null,
            attachments: [],
          })
        ).kind,
      ).toBe('sent');
    } finally {
      transport.close();
    }
    expect(received.at(-1)!).not.toMatch(/^DKIM-Signature:/m);
  });

  it('reads the key from a file; incomplete or broken settings stop the start with the reason, never the key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dkim-'));
    const file = join(dir, 'dkim.pem');
    writeFileSync(file, PEM);
    const fromFile = loadMessagingConfig({
      SMTP_URL: url,
      DKIM_DOMAIN: 'fleet.example',
      DKIM_SELECTOR: 'mail2026',
      DKIM_PRIVATE_KEY_FILE: file,
    });
    expect(fromFile.dkim?.privateKey).toBe(PEM);

    const cases: [Record<string, string>, RegExp][] = [
      [{ DKIM_DOMAIN: 'fleet.example' }, /needs DKIM_DOMAIN, DKIM_SELECTOR and one of/],
      [{ DKIM_DOMAIN: 'fleet.example', DKIM_SELECTOR: 'mail2026' }, /needs/],
      [
        {
          DKIM_DOMAIN: 'fleet.example',
          DKIM_SELECTOR: 'mail2026',
          DKIM_PRIVATE_KEY: PEM,
          DKIM_PRIVATE_KEY_FILE: file,
        },
        /one of/,
      ],
      [
        { DKIM_DOMAIN: 'fleet.example', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: 'not a key' },
        /not an RSA or Ed25519 PEM key/,
      ],
      [
        {
          DKIM_DOMAIN: 'fleet.example',
          DKIM_SELECTOR: 'mail2026',
          DKIM_PRIVATE_KEY_FILE: join(dir, 'missing.pem'),
        },
        /cannot be read \(ENOENT\)/,
      ],
      [
        { DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY: PEM },
        /DKIM_DOMAIN: must be a domain/,
      ],
    ];
    for (const [env, reason] of cases) {
      let error: unknown = null;
      try {
        loadMessagingConfig({ SMTP_URL: url, ...env });
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(Object.keys(env))).toBeInstanceOf(MessagingConfigError);
      expect((error as Error).message).toMatch(reason);
      expect((error as Error).message).not.toContain('BEGIN');
    }
  });
});
