import type { Messenger } from './messenger';
import type { Queryable } from '../storage/db';
import { issueToken, SET_PASSWORD_TTL_MS } from './routes';

/** What sending an invitation needs from the server (or the CLI). */
export interface InvitationDeps {
  messenger: Messenger;
  config: { PUBLIC_URL?: string | undefined; HOST: string; PORT: number };
  now: () => Date;
}

export interface Invitee {
  userId: number;
  email: string;
  name: string;
  locale: 'en' | 'ar';
  companyId: number;
}

/** The portal address invitation links point to (PUBLIC_URL, else the listening address). */
export function publicBase(config: InvitationDeps['config']): string {
  return config.PUBLIC_URL?.replace(/\/+$/, '') ?? `http://${config.HOST}:${config.PORT}`;
}

/**
 * Issue a one-time set-password token (valid SET_PASSWORD_TTL_MS) for a new account and queue the
 * invitation e-mail in the message outbox, both in the caller's transaction `tx` (a rolled-back
 * creation leaves neither a token nor a message). Used by users.create, companies.create and the
 * company:create CLI. Returns the link (the CLI prints it).
 */
export async function sendSetPasswordInvitation(
  deps: InvitationDeps,
  tx: Queryable,
  invitee: Invitee,
): Promise<string> {
  const token = await issueToken(
    tx,
    invitee.userId,
    'set_password',
    new Date(deps.now().getTime() + SET_PASSWORD_TTL_MS),
  );
  const link = `${publicBase(deps.config)}/set-password/${token}`;
  await deps.messenger.send(
    {
      channel: 'email',
      to: invitee.email,
      kind: 'set_password',
      subject: 'Set your password',
      text: `Open ${link} to set your password.`,
      secret: token,
      link,
      locale: invitee.locale,
      params: { name: invitee.name },
      userId: invitee.userId,
      companyId: invitee.companyId,
    },
    { db: tx },
  );
  return link;
}
