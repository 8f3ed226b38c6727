/**
 * Outgoing e-mail / SMS (set-password invitations, reset links, OTP codes). Production wiring of a
 * real provider is not part of the spec; the default logs that a message went out (never its
 * secret in production), tests capture messages with {@link MemoryMessenger}.
 */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  kind: 'set_password' | 'reset_password' | 'otp';
  subject: string;
  text: string;
  /** The secret carried (link token or code) so tests can use it. */
  secret: string;
}

export interface Messenger {
  send(message: OutgoingMessage): Promise<void>;
}

export class MemoryMessenger implements Messenger {
  readonly sent: OutgoingMessage[] = [];
  async send(message: OutgoingMessage): Promise<void> {
    this.sent.push(message);
  }
  last(kind?: OutgoingMessage['kind']): OutgoingMessage | undefined {
    return [...this.sent].reverse().find((m) => !kind || m.kind === kind);
  }
}

export class LogMessenger implements Messenger {
  constructor(
    private readonly log: (line: string) => void,
    private readonly revealSecrets: boolean,
  ) {}
  async send(m: OutgoingMessage): Promise<void> {
    this.log(
      `[messenger] ${m.channel} to ${m.to}: ${m.subject}` +
        (this.revealSecrets ? ` — ${m.text}` : ' (content hidden)'),
    );
  }
}
