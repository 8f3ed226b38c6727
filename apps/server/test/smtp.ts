import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  raw: string;
  mail: ParsedMail;
}

/**
 * A real SMTP server on a free loopback port (the `smtp-server` package speaks the protocol, with
 * STARTTLS and AUTH), recording what it accepts, each mail parsed by `mailparser` as a client would.
 */
export class TestSmtpServer {
  received: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth: (auth, _session, cb) =>
        auth.username === 'mailer' && auth.password === 's3cret'
          ? cb(null, { user: 'mailer' })
          : cb(new Error('Invalid username or password')),
      onData: (stream, _session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          void simpleParser(raw).then(
            (mail) => {
              this.received.push({ raw, mail });
              cb();
            },
            (err: Error) => cb(err),
          );
        });
      },
      logger: false,
      closeTimeout: 200,
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
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

  to(address: string): ReceivedMail[] {
    return this.received.filter((r) => JSON.stringify(r.mail.to ?? '').includes(address));
  }
}
