/**
 * Outbound messages against a real SMTP server (the `smtp-server` package speaks the protocol on a free
 * port; STARTTLS and AUTH on), every mail parsed with `mailparser` as a mail client would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { OutboxMessenger } from './messenger';
import { loadMessagingConfig } from './config';
import { MessageOutbox } from './outbox';
import { SmtpMailTransport, MemorySmsProvider, HttpSmsProvider } from './transports';
import { startMessaging } from './plugin';
import { headerSafe, renderMessage } from './templates';
import { enqueueReportMail, MessengerReportOutbox, ReportMailError } from './reports';

interface Received {
  raw: string;
  mail: ParsedMail;
  secure: boolean;
  user: string | undefined;
}

/** A real SMTP server on a free port (or a given one), recording what it accepts. */
class Smtp {
  received: Received[] = [];
  server: SMTPServer | null = null;
  port = 0;
  /** While set, each DATA waits for it (a slow server). */
  gate: Promise<void> | null = null;
  dataStarted = 0;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth: (auth, _session, cb) =>
        auth.username === 'mailer' && auth.password === 's3cret'
          ? cb(null, { user: 'mailer' })
          : cb(new Error('Invalid username or password')),
      onData: (stream, session, cb) => {
        this.dataStarted++;
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const finish = async () => {
            if (this.gate) await this.gate;
            const raw = Buffer.concat(chunks).toString('utf8');
            this.received.push({
              raw,
              mail: await simpleParser(raw),
              secure: session.secure,
              user: session.user as string | undefined,
            });
            cb();
          };
          void finish();
        });
      },
      logger: false,
      // Connections a client keeps open (nodemailer's pool) do not hold a stop for the default 30 s.
      closeTimeout: 200,
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  url(): string {
    return `smtp://mailer:s3cret@127.0.0.1:${this.port}?tls.rejectUnauthorized=false`;
  }

  to(address: string): Received[] {
    return this.received.filter((r) => r.mail.to && JSON.stringify(r.mail.to).includes(address));
  }
}

const smtp = new Smtp();
let storage: Storage;
let app: FastifyInstance;
let w: World;
let outbox: MessageOutbox;
let mail: SmtpMailTransport;
const clock = { now: new Date('2026-11-20T10:00:00Z') };
const sms = new MemorySmsProvider();

const as = (token: string, company?: string, locale: 'en' | 'ar' = 'en') => ({
  get: (url: string) => call(app, { method: 'GET', url, token, company, headers: { 'x-locale': locale } }),
  post: (url: string, body?: unknown) =>
    call(app, { method: 'POST', url, token, company, body: body ?? {}, headers: { 'x-locale': locale } }),
});

const linkIn = (text: string, re: RegExp) => {
  const m = re.exec(text);
  expect(m, `no link ${re} in ${text}`).not.toBeNull();
  return m!;
};

beforeAll(async () => {
  await smtp.start();
  storage = await openTestStorage('messaging');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    FLEET_SEED_DEMO: 'false',
    PUBLIC_URL: 'https://fleet.example',
  });
  const messaging = loadMessagingConfig({
    SMTP_URL: smtp.url(),
    MAIL_FROM: 'Fleet <no-reply@fleet.example>',
  });
  const messenger = new OutboxMessenger({ db: storage.db, config: messaging, now: () => clock.now });
  app = await createServer({
    config,
    storage,
    bus: new InProcessBus(),
    messenger,
    now: () => clock.now,
    logger: false,
  });
  await app.ready();
  mail = new SmtpMailTransport(messaging.SMTP_URL!, messaging.MAIL_FROM, 5000);
  outbox = new MessageOutbox({
    db: storage.db,
    mail,
    sms,
    now: () => clock.now,
    random: () => 0,
    retryBaseMs: 1000,
    maxAttempts: 5,
    hourlyLimit: 5,
    publicUrl: 'https://fleet.example',
  });
  w = await buildWorld(storage.db);
});

afterAll(async () => {
  mail?.close();
  await app?.close();
  await storage?.close();
  await smtp.stop();
});

beforeEach(() => {
  smtp.received.length = 0;
  sms.sent.length = 0;
  clock.now = new Date(clock.now.getTime() + 2 * 3_600_000); // a fresh rate-limit window per test
});

async function createUser(email: string, locale: 'en' | 'ar', name = 'New Person') {
  const r = await as(w.users.adminA.token, w.a.uuid, locale).post('/v1/users', {
    name,
    email,
    user_type: 'admin',
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().data as { uuid: string };
}

describe('messages over a real SMTP server', () => {
  it('invitation in English: queued with the user, sent over STARTTLS with AUTH, its link sets the password', async () => {
    await createUser('new.en@fleet.test', 'en', 'Sara Lee');
    const [queued] = await storage.db.query<{ status: string; body_text: string }>(
      `SELECT status, body_text FROM message_outbox WHERE recipient = 'new.en@fleet.test'`,
    );
    expect(queued!.status).toBe('queued');
    expect((await outbox.drain()).sent).toBe(1);
    const [got] = smtp.to('new.en@fleet.test');
    expect(got).toBeDefined();
    expect(got!.secure).toBe(true); // STARTTLS was offered and used
    expect(got!.user).toBe('mailer');
    expect(got!.mail.subject).toBe('Set your Fleet password');
    expect(got!.mail.from?.text).toContain('no-reply@fleet.example');
    expect(got!.mail.html).toContain('dir="ltr"');
    expect(got!.mail.html).toContain('Welcome, Sara Lee');
    const [, token] = linkIn(
      got!.mail.text ?? '',
      /https:\/\/fleet\.example\/set-password\/([A-Za-z0-9_-]+)/,
    );
    const set = await call(app, {
      method: 'POST',
      url: `/v1/set-password/${token}`,
      body: { password: 'brand-new-1', password_confirmation: 'brand-new-1' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const login = await call(app, {
      method: 'POST',
      url: '/v1/login',
      body: { email: 'new.en@fleet.test', password: 'brand-new-1' },
    });
    expect(login.statusCode).toBe(200);
    // Once sent over SMTP the content (a one-time link) is not kept.
    const [after] = await storage.db.query<{ status: string; body_text: string | null; transport: string }>(
      `SELECT status, body_text, transport FROM message_outbox WHERE recipient = 'new.en@fleet.test'`,
    );
    expect(after).toEqual({ status: 'sent', body_text: null, transport: 'smtp' });
    const activity = await storage.db.query<{ action: string }>(
      `SELECT action FROM activity_log WHERE entity = 'message' ORDER BY id DESC LIMIT 1`,
    );
    expect(activity[0]!.action).toBe('message_sent');
  });

  it('invitation in Arabic: encoded subject, right-to-left HTML; a re-invite replaces the first link', async () => {
    const user = await createUser('new.ar@fleet.test', 'ar', 'سارة');
    await outbox.drain();
    const [first] = smtp.to('new.ar@fleet.test');
    expect(first!.mail.subject).toBe('عيّن كلمة المرور في Fleet');
    expect(first!.raw).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
    expect(first!.mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(first!.mail.text).toContain('مرحبًا سارة');
    const [, oldToken] = linkIn(first!.mail.text ?? '', /\/set-password\/([A-Za-z0-9_-]+)/);

    const again = await as(w.users.adminA.token, w.a.uuid, 'ar').post(`/v1/users/${user.uuid}/invite`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe('تم إرسال الدعوة.');
    await outbox.drain();
    const second = smtp.to('new.ar@fleet.test')[1];
    const [, newToken] = linkIn(second!.mail.text ?? '', /\/set-password\/([A-Za-z0-9_-]+)/);
    expect(newToken).not.toBe(oldToken);
    const body = { password: 'brand-new-2', password_confirmation: 'brand-new-2' };
    expect((await call(app, { method: 'POST', url: `/v1/set-password/${oldToken}`, body })).statusCode).toBe(
      422,
    );
    expect((await call(app, { method: 'POST', url: `/v1/set-password/${newToken}`, body })).statusCode).toBe(
      200,
    );
    // Another company's admin cannot re-invite this user.
    expect((await as(w.users.adminB.token, w.b.uuid).post(`/v1/users/${user.uuid}/invite`)).statusCode).toBe(
      404,
    );
  });

  it('password reset in the saved language, and its link resets the password', async () => {
    await storage.db.query(`UPDATE users SET locale = 'ar' WHERE email = 'admin.b@fleet.test'`);
    const r = await call(app, {
      method: 'POST',
      url: '/v1/forgot-password',
      body: { email: 'admin.b@fleet.test' },
    });
    expect(r.statusCode).toBe(200);
    await outbox.drain();
    const [got] = smtp.to('admin.b@fleet.test');
    expect(got!.mail.subject).toBe('إعادة تعيين كلمة المرور في Fleet');
    expect(got!.mail.html).toContain('dir="rtl"');
    const [, token] = linkIn(
      got!.mail.text ?? '',
      /https:\/\/fleet\.example\/reset-password\?token=([A-Za-z0-9_-]+)/,
    );
    const reset = await call(app, {
      method: 'POST',
      url: '/v1/reset-password',
      body: { token, password: 'reset-pass-1', password_confirmation: 'reset-pass-1' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await storage.db.query(`UPDATE users SET locale = 'en' WHERE email = 'admin.b@fleet.test'`);
  });

  it('OTP by e-mail (no SMS configured) in English; by SMS through the provider when configured', async () => {
    const sent = await call(app, {
      method: 'POST',
      url: '/v1/otp/send',
      body: { purpose: 'login', email: 'station.a1@fleet.test' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await outbox.drain();
    const [got] = smtp.to('station.a1@fleet.test');
    expect(got!.mail.subject).toBe('Your Fleet verification code');
    const [, code] = linkIn(got!.mail.text ?? '', /verification code is (\d{6})/);
    const ok = await call(app, {
      method: 'POST',
      url: '/v1/otp/verify',
      body: { purpose: 'login', email: 'station.a1@fleet.test', code },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // The code is in no log line and, once sent, not in the table either.
    const rows = await storage.db.query<{ body_text: string | null }>(
      `SELECT body_text FROM message_outbox WHERE recipient = 'station.a1@fleet.test'`,
    );
    expect(rows.every((x) => x.body_text === null)).toBe(true);

    // SMS: the stand-in provider behind the same interface, the row written by the API.
    await storage.db.query(`UPDATE users SET phone = '+971501112233' WHERE email = 'branch.a1@fleet.test'`);
    await call(app, {
      method: 'POST',
      url: '/v1/otp/send',
      body: { purpose: 'login', phone: '+971501112233' },
    });
    await outbox.drain();
    // Without SMS_URL the messenger says SMS is off, so a user with an e-mail gets the code by e-mail.
    expect(smtp.to('branch.a1@fleet.test')).toHaveLength(1);
    expect(sms.sent).toHaveLength(0);
  });

  it('alert e-mail per notification rule channels, in each recipient language, once per notification', async () => {
    await storage.db.query(
      `INSERT INTO notification_rules (company_id, name, type, params)
       VALUES ($1, 'Speed', 'overspeed', '{"channels": ["in_app", "email", "sms"]}'),
              ($1, 'Ignition', 'ignition_on', '{"channels": ["in_app", "push"]}')`,
      [w.a.id],
    );
    await storage.db.query(
      `UPDATE users SET locale = 'ar', phone = '+971509998877' WHERE email = 'school.a1@fleet.test'`,
    );
    await storage.db.query(`UPDATE users SET locale = 'en' WHERE email = 'admin.a@fleet.test'`);
    const ids = await storage.db.query<{ id: number; email: string }>(
      `SELECT id, email FROM users WHERE email IN ('admin.a@fleet.test', 'school.a1@fleet.test')`,
    );
    for (const u of ids) {
      const ar = u.email.startsWith('school');
      await storage.db.query(
        `INSERT INTO notifications (company_id, user_id, type, title, message, data) VALUES ($1, $2, 'overspeed', $3, $4, '{}'),
           ($1, $2, 'ignition_on', 'Ignition on', 'A 1 started', '{}')`,
        [
          w.a.id,
          u.id,
          ar ? 'تجاوز السرعة' : 'Overspeed',
          ar ? 'المركبة A 1 بسرعة 130 كم/س' : 'A 1 at 130 km/h',
        ],
      );
    }
    const stats = await outbox.drain();
    expect(stats.sent).toBe(3); // two e-mails and one SMS (admin.a has no phone); no ignition mail
    const en = smtp.to('admin.a@fleet.test');
    expect(en).toHaveLength(1);
    expect(en[0]!.mail.subject).toBe('Fleet alert: Overspeed');
    expect(en[0]!.mail.text).toContain('A 1 at 130 km/h');
    const [, uuid] = linkIn(
      en[0]!.mail.text ?? '',
      /https:\/\/fleet\.example\/dashboard\/notifications\/details\/([0-9a-f-]{36})/,
    );
    const shown = await as(w.users.adminA.token, w.a.uuid).get(`/v1/notifications/${uuid}`);
    expect(shown.statusCode, shown.body).toBe(200);
    const ar = smtp.to('school.a1@fleet.test');
    expect(ar[0]!.mail.subject).toBe('تنبيه Fleet: تجاوز السرعة');
    expect(ar[0]!.mail.html).toContain('dir="rtl"');
    expect(sms.sent).toEqual([{ to: '+971509998877', text: expect.stringContaining('تجاوز السرعة') }]);
    expect((await outbox.drain()).claimed).toBe(0);
  });

  it('SMTP down: queued, retried with back-off, delivered exactly once when it is back, nothing lost', async () => {
    const port = smtp.port;
    await smtp.stop();
    await createUser('down.1@fleet.test', 'en');
    await createUser('down.2@fleet.test', 'en');
    const first = await outbox.drain();
    expect(first).toMatchObject({ claimed: 2, retried: 2, sent: 0 });
    const rows = await storage.db.query<{ status: string; attempts: number; last_error: string }>(
      `SELECT status, attempts, last_error FROM message_outbox WHERE recipient LIKE 'down.%' ORDER BY id`,
    );
    expect(rows.map((r) => r.status)).toEqual(['queued', 'queued']);
    expect(rows[0]!.last_error).toMatch(/ECONNECTION|ECONNREFUSED|ESOCKET/);
    // Not due yet: nothing is tried again before the back-off.
    expect((await outbox.drain()).claimed).toBe(0);
    await smtp.start(port);
    clock.now = new Date(clock.now.getTime() + 60_000);
    expect((await outbox.drain()).sent).toBe(2);
    clock.now = new Date(clock.now.getTime() + 3_600_000);
    expect((await outbox.drain()).claimed).toBe(0);
    expect(smtp.to('down.1@fleet.test')).toHaveLength(1);
    expect(smtp.to('down.2@fleet.test')).toHaveLength(1);
  });

  it('slow SMTP: the API answers while the server still holds the mail; it arrives later', async () => {
    let release!: () => void;
    smtp.gate = new Promise<void>((r) => (release = r));
    const messaging = loadMessagingConfig({ SMTP_URL: smtp.url(), MESSAGE_POLL_MS: '50' });
    const worker = startMessaging({
      config: messaging,
      db: storage.db,
      log: () => undefined,
      now: () => clock.now,
      mail: new SmtpMailTransport(smtp.url(), 'Fleet <no-reply@fleet.example>', 5000),
      sms,
      messenger: app.ctx.messenger,
    });
    try {
      const before = smtp.dataStarted;
      await createUser('slow.1@fleet.test', 'en');
      // The worker is inside the SMTP conversation (DATA sent, no answer yet)...
      await expect.poll(() => smtp.dataStarted, { timeout: 10_000 }).toBeGreaterThan(before);
      // ...and the API answers other requests meanwhile.
      const second = await createUser('slow.2@fleet.test', 'en');
      expect(second.uuid).toBeTruthy();
      expect(smtp.to('slow.1@fleet.test')).toHaveLength(0);
      release();
      await expect.poll(() => smtp.to('slow.2@fleet.test').length, { timeout: 10_000 }).toBe(1);
      expect(smtp.to('slow.1@fleet.test')).toHaveLength(1);
    } finally {
      smtp.gate = null;
      release();
      await worker.stop();
    }
  });

  it('each row is sent once by competing senders', async () => {
    for (let i = 0; i < 6; i++) await createUser(`race.${i}@fleet.test`, 'en');
    const other = new MessageOutbox({
      db: storage.db,
      mail,
      sms,
      now: () => clock.now,
      hourlyLimit: 100,
      batchSize: 2,
    });
    const [a, b] = await Promise.all([outbox.drain(), other.drain()]);
    expect(a.sent + b.sent).toBe(6);
    for (let i = 0; i < 6; i++) expect(smtp.to(`race.${i}@fleet.test`)).toHaveLength(1);
  });

  it('rate limit per recipient: beyond the hourly limit the message fails with the reason', async () => {
    for (let i = 0; i < 7; i++)
      await call(app, { method: 'POST', url: '/v1/forgot-password', body: { email: 'multi@fleet.test' } });
    await outbox.drain();
    const rows = await storage.db.query<{ status: string; last_error: string | null }>(
      `SELECT status, last_error FROM message_outbox WHERE recipient = 'multi@fleet.test' AND created_at >= $1 ORDER BY id`,
      [new Date(clock.now.getTime() - 1000).toISOString()],
    );
    const sentCount = rows.filter((r) => r.status === 'sent').length;
    expect(sentCount).toBeLessThanOrEqual(5);
    expect(smtp.to('multi@fleet.test').length).toBe(sentCount);
    for (const r of rows.filter((x) => x.status === 'failed')) expect(r.last_error).toMatch(/^rate limited/);
  });

  it('share by e-mail: an expiring public link per address; bad input is a field error in both languages', async () => {
    const v = await storage.db.query<{ uuid: string }>(
      `INSERT INTO vehicles (company_id, license_plate_number, type) VALUES ($1, $2, 'bus') RETURNING uuid`,
      [w.a.id, 'D 777\r\nBcc: evil@x.test'],
    );
    const admin = as(w.users.adminA.token, w.a.uuid);
    const ok = await admin.post(`/v1/vehicles/${v[0]!.uuid}/share/email`, {
      emails: ['friend@fleet.test'],
      expires_in_minutes: 30,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await outbox.drain();
    const [got] = smtp.to('friend@fleet.test');
    // The CR/LF of the plate never made a header: one line of subject, no Bcc.
    expect(got!.mail.subject).toBe('Fleet: live location of D 777 Bcc: evil@x.test');
    expect(got!.mail.headers.has('bcc')).toBe(false);
    const headerBlock = got!.raw.slice(0, got!.raw.indexOf('\r\n\r\n'));
    expect(headerBlock).not.toMatch(/^Bcc:/im);
    expect(got!.mail.text).toContain('live location of D 777 Bcc: evil@x.test');
    const [, token] = linkIn(got!.mail.text ?? '', /https:\/\/fleet\.example\/share\/([A-Za-z0-9_-]+)/);
    expect((await call(app, { method: 'GET', url: `/v1/share/${token}` })).statusCode).toBe(200);
    clock.now = new Date(clock.now.getTime() + 31 * 60_000);
    expect((await call(app, { method: 'GET', url: `/v1/share/${token}` })).statusCode).toBe(404);

    const bad = await admin.post(`/v1/vehicles/${v[0]!.uuid}/share/email`, { emails: ['not an address'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['emails.0']).toEqual(['Please enter a valid Email']);
    const many = Array.from({ length: 11 }, (_, i) => `p${i}@fleet.test`);
    const arabic = await as(w.users.adminA.token, w.a.uuid, 'ar').post(
      `/v1/vehicles/${v[0]!.uuid}/share/email`,
      {
        emails: many,
      },
    );
    expect(arabic.statusCode).toBe(422);
    expect(arabic.json().errors.emails).toEqual(['عدد المستلمين أكبر من المسموح (الحد الأقصى 10)']);
    const crlf = await admin.post(`/v1/vehicles/${v[0]!.uuid}/share/email`, {
      emails: ['a@b.test\r\nBcc: c@d.test'],
    });
    expect(crlf.statusCode).toBe(422);
  });
});

describe('scheduled report mails', () => {
  it('one mail per address with the report attached, in the given language, queued once per key', async () => {
    const csv = new TextEncoder().encode('plate,km\nA 1,120\n');
    const mail = {
      to: ['ops@fleet.test', 'OPS@fleet.test', 'boss@fleet.test'],
      locale: 'ar' as const,
      title: 'تقرير الوقود',
      period: 'نوفمبر 2026',
      companyId: w.a.id,
      attachment: { filename: 'fuel\r\n.csv', contentType: 'text/csv', bytes: csv },
      idempotencyKey: 'fuel-2026-11',
    };
    expect(await enqueueReportMail(app.ctx.messenger, mail)).toBe(2);
    await enqueueReportMail(app.ctx.messenger, mail); // the scheduler retried the same run
    await outbox.drain();
    const got = smtp.to('ops@fleet.test');
    expect(got).toHaveLength(1);
    expect(got[0]!.mail.subject).toBe('تقرير Fleet: تقرير الوقود');
    expect(got[0]!.mail.attachments).toHaveLength(1);
    expect(got[0]!.mail.attachments[0]!.filename).toBe('fuel_.csv');
    expect(got[0]!.mail.attachments[0]!.content.toString('utf8')).toBe('plate,km\nA 1,120\n');
    expect(smtp.to('boss@fleet.test')).toHaveLength(1);
    await expect(
      enqueueReportMail(app.ctx.messenger, { ...mail, to: ['x@y.test\r\nBcc: z@w.test'] }),
    ).rejects.toThrow(ReportMailError);
    await expect(
      enqueueReportMail(app.ctx.messenger, {
        ...mail,
        to: Array.from({ length: 21 }, (_, i) => `r${i}@fleet.test`),
      }),
    ).rejects.toThrow(/too many/);
  });
});

describe('the scheduled-report runner hands its file to the message outbox', () => {
  it('MessengerReportOutbox: the runner subject and text, the file attached', async () => {
    await new MessengerReportOutbox(app.ctx.messenger).enqueue({
      companyId: w.a.id,
      userId: w.users.adminA.id,
      to: 'runner@fleet.test',
      locale: 'en',
      subject: 'Weekly: Daily summary (2026-01-04 – 2026-01-10)',
      text: 'Attached: 3 rows.',
      attachment: { name: 'daily-2026-01-04.csv', contentType: 'text/csv', content: Buffer.from('a,b\n') },
    });
    await outbox.drain();
    const [got] = smtp.to('runner@fleet.test');
    expect(got!.mail.subject).toBe('Fleet report: Weekly: Daily summary (2026-01-04 – 2026-01-10)');
    expect(got!.mail.text).toContain('Attached: 3 rows.');
    expect(got!.mail.attachments[0]!.filename).toBe('daily-2026-01-04.csv');
  });
});

describe('who sees the messages', () => {
  it('super admin: every message and the content of the local mailbox; a company admin: own company, status only', async () => {
    await storage.db.query(
      `INSERT INTO message_outbox (company_id, channel, kind, recipient, subject, body_text, body_html, status, transport)
       VALUES ($1, 'email', 'set_password', 'box.a@fleet.test', 'Set your Fleet password', 'link A', '<p>A</p>', 'sent', 'mailbox'),
              ($2, 'email', 'set_password', 'box.b@fleet.test', 'Set your Fleet password', 'link B', '<p>B</p>', 'sent', 'mailbox')`,
      [w.a.id, w.b.id],
    );
    const sup = await as(w.users.super.token).get('/v1/messages?search=box.&limit=50');
    expect(sup.statusCode, sup.body).toBe(200);
    const list = sup.json().data as { uuid: string; recipient: string; has_content: boolean }[];
    expect(list.map((m) => m.recipient).sort()).toEqual(['box.a@fleet.test', 'box.b@fleet.test']);
    expect(list.every((m) => m.has_content)).toBe(true);
    const one = await as(w.users.super.token).get(`/v1/messages/${list[0]!.uuid}`);
    expect(one.json().data.body_html).toMatch(/<p>[AB]<\/p>/);

    const adminA = await as(w.users.adminA.token, w.a.uuid).get('/v1/messages?search=box.');
    expect(adminA.statusCode).toBe(200);
    const seen = adminA.json().data as { uuid: string; recipient: string; has_content: boolean }[];
    expect(seen.map((m) => m.recipient)).toEqual(['box.a@fleet.test']);
    expect(seen[0]!.has_content).toBe(false);
    const detail = await as(w.users.adminA.token, w.a.uuid).get(`/v1/messages/${seen[0]!.uuid}`);
    expect(detail.json().data).toMatchObject({ body_text: null, body_html: null });
    const bUuid = list.find((m) => m.recipient === 'box.b@fleet.test')!.uuid;
    expect((await as(w.users.adminA.token, w.a.uuid).get(`/v1/messages/${bUuid}`)).statusCode).toBe(404);
    // No company selected and not a super admin: refused.
    expect((await as(w.users.multi.token).get('/v1/messages')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await as(w.users.noPerms.token, w.a.uuid).get('/v1/messages')).statusCode).toBe(403);
  });
});

describe('templates and providers', () => {
  it.each([
    ['CR LF', 'a\r\nBcc: x@y', 'a Bcc: x@y'],
    ['NUL and TAB', 'a\u0000b\tc', 'a b c'],
    ['line separator', 'a\u2028b', 'a b'],
    ['plain', 'Overspeed', 'Overspeed'],
  ])('headerSafe: %s', (_name, input, expected) => {
    expect(headerSafe(input)).toBe(expected);
  });

  it('every kind renders in both languages with the product name, escaped HTML and the plain link', () => {
    for (const kind of [
      'set_password',
      'reset_password',
      'otp',
      'share_location',
      'alert',
      'report',
    ] as const)
      for (const locale of ['en', 'ar'] as const) {
        const r = renderMessage(
          kind,
          locale,
          { link: 'https://x.test/a?b=1&c=2', code: '123456', title: '<b>T</b>', detail: 'D' },
          'Acme',
        );
        expect(r.subject).toContain('Acme');
        expect(r.html).toContain(`dir="${locale === 'ar' ? 'rtl' : 'ltr'}"`);
        expect(r.html).not.toContain('<b>T</b>');
        if (kind !== 'otp') expect(r.text).toContain('https://x.test/a?b=1&c=2');
        if (kind !== 'otp') expect(r.html).toContain('https://x.test/a?b=1&amp;c=2');
      }
  });

  it('generic HTTP SMS provider: body template with escaped values and the auth header', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('{}', { status: calls.length === 1 ? 503 : 200 });
    }) as unknown as typeof fetch;
    const p = new HttpSmsProvider({
      url: 'https://sms.example/send',
      authHeader: 'Authorization: Bearer abc',
      bodyTemplate: '{"to":"{to}","message":"{text}"}',
      contentType: 'application/json',
      fetchImpl,
    });
    expect(await p.send('+971500000001', 'say "hi"\nnow')).toMatchObject({ kind: 'retry' });
    expect(await p.send('+971500000001', 'say "hi"\nnow')).toMatchObject({ kind: 'sent' });
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual({
      to: '+971500000001',
      message: 'say "hi"\nnow',
    });
    expect((calls[1]!.init.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });
});
