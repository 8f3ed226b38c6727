import type { Messenger } from '../auth/messenger';
import type { Locale } from '../http/i18n';
import type { Queryable } from '../storage/db';
import type { ReportMail as ScheduledReportMail, ReportOutbox } from '../reports/schedules';

/** Largest attachment a report mail carries (most mail servers refuse messages above 10-25 MB). */
export const MAX_REPORT_ATTACHMENT_BYTES = 8 * 1024 * 1024;
/** At most this many addresses per scheduled report. */
export const MAX_REPORT_RECIPIENTS = 20;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ReportMail {
  to: readonly string[];
  locale: Locale;
  /** The report's name as the recipient reads it ("Fuel report"). */
  title: string;
  /** The period covered, already written in the recipient's language. */
  period: string;
  companyId: number | null;
  /** A link to the report in the portal, when there is one. */
  link?: string;
  attachment: { filename: string; contentType: string; bytes: Uint8Array };
  /** The same key twice (a scheduler's retry of one run) queues the mail once per address. */
  idempotencyKey?: string;
}

export class ReportMailError extends Error {}

/**
 * The interface the report scheduler (another issue) calls: one mail per address with the report
 * attached, queued in the message outbox (in the caller's transaction when `db` is given) and sent by
 * the outbox worker like every other message. Refuses what no mail server would take: a bad address
 * (or one carrying CR/LF), too many recipients, an attachment over 8 MB.
 */
export async function enqueueReportMail(
  messenger: Messenger,
  mail: ReportMail,
  db?: Queryable,
): Promise<number> {
  if (mail.to.length === 0) throw new ReportMailError('no recipients');
  if (mail.to.length > MAX_REPORT_RECIPIENTS)
    throw new ReportMailError(`too many recipients (at most ${MAX_REPORT_RECIPIENTS})`);
  for (const to of mail.to)
    if (!EMAIL_RE.test(to) || to.length > 255)
      throw new ReportMailError(`invalid address: ${JSON.stringify(to)}`);
  if (mail.attachment.bytes.byteLength > MAX_REPORT_ATTACHMENT_BYTES)
    throw new ReportMailError(`attachment too large (at most ${MAX_REPORT_ATTACHMENT_BYTES} bytes)`);
  const filename = mail.attachment.filename.replace(/[\r\n"\\/]+/g, '_').slice(0, 120);
  const recipients = [...new Set(mail.to.map((t) => t.toLowerCase()))];
  for (const to of recipients)
    await messenger.send(
      {
        channel: 'email',
        to,
        kind: 'report',
        subject: `Report: ${mail.title}`,
        text: `${mail.title} (${mail.period})`,
        secret: '',
        locale: mail.locale,
        ...(mail.link ? { link: mail.link } : {}),
        params: { title: mail.title, detail: mail.period },
        companyId: mail.companyId,
        ...(mail.idempotencyKey ? { idempotencyKey: `report:${mail.idempotencyKey}:${to}` } : {}),
        attachments: [
          {
            filename,
            contentType: mail.attachment.contentType,
            contentBase64: Buffer.from(mail.attachment.bytes).toString('base64'),
          },
        ],
      },
      db ? { db } : {},
    );
  return recipients.length;
}

/**
 * The scheduled-report runner's outbox (reports/schedules.ts `ReportOutbox`) on the message outbox:
 * the runner's subject (already in the user's language) is the title, its text the detail.
 */
export class MessengerReportOutbox implements ReportOutbox {
  /** `messenger` may be a getter: the report routes are also registered on the worker role's
   * routes-only Fastify instance, which has no context and never runs the schedule runner. */
  constructor(private readonly messenger: Messenger | (() => Messenger)) {}
  async enqueue(mail: ScheduledReportMail): Promise<void> {
    const messenger = typeof this.messenger === 'function' ? this.messenger() : this.messenger;
    await enqueueReportMail(messenger, {
      to: [mail.to],
      locale: mail.locale,
      title: mail.subject,
      period: mail.text,
      companyId: mail.companyId,
      attachment: {
        filename: mail.attachment.name,
        contentType: mail.attachment.contentType,
        bytes: mail.attachment.content,
      },
    });
  }
}
