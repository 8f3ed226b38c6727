/**
 * Rendering of the guardian messages that migration 0026's trigger queued (template values only): done
 * by the message sender just before the first try, because only the application holds what a message
 * needs beyond the database's facts: a fresh tracking-link token (its hash stored, the token itself only
 * in the message body, which the outbox clears once the message left) and the signed unsubscribe link.
 *
 * A message whose guardian unsubscribed from its channel (or was removed, or deactivated) after it was
 * queued is not sent: the row fails with the reason, which admins see in "Sent messages".
 */
import { hashToken, newToken } from '../auth/crypto';
import type { Queryable } from '../storage/db';
import { renderMessage, type MessageKind, type RenderedMessage } from '../messaging/templates';
import { signUnsubscribe } from './signing';

export const guardianMessageKinds = [
  'guardian_approaching',
  'guardian_delayed',
  'guardian_cancelled',
  'guardian_missed',
] as const;
export type GuardianMessageKind = (typeof guardianMessageKinds)[number];

export const isGuardianKind = (kind: string): kind is GuardianMessageKind =>
  (guardianMessageKinds as readonly string[]).includes(kind);

/** Kinds whose message links to the tracking page (the trip is still running or about to). */
const TRACKED: readonly GuardianMessageKind[] = ['guardian_approaching', 'guardian_delayed'];

/** A tracking link works this long after the trip's planned end, unless the trip ends earlier. */
export const TRACKING_GRACE_MS = 60 * 60_000;

export interface GuardianRow {
  kind: GuardianMessageKind;
  channel: 'email' | 'sms';
  locale: string;
  company_id: number | null;
  params: Record<string, unknown>;
}

export interface GuardianRenderOptions {
  publicUrl: string;
  product: string;
  now: Date;
}

interface GuardianFacts {
  guardian_id: number;
  guardian_uuid: string;
  guardian_status: string;
  email: string | null;
  data: Record<string, unknown>;
  passenger_id: number;
  first_name: string;
  last_name: string;
  first_name_ar: string | null;
  last_name_ar: string | null;
}

interface TripFacts {
  id: number;
  name: string;
  status: string;
  instance: { plannedEnd?: number; date?: string } | null;
}

/** The guardian's current channel preference, with the default of guardians saved before it existed. */
export function channelsOf(data: Record<string, unknown>, email: string | null): ('email' | 'sms')[] {
  const pref = typeof data.message_channel === 'string' && data.message_channel ? data.message_channel : null;
  const p = pref ?? (email ? 'email' : 'sms');
  if (p === 'both') return ['email', 'sms'];
  return p === 'email' || p === 'sms' ? [p] : [];
}

export function personName(
  p: { first_name: string; last_name: string; first_name_ar: string | null; last_name_ar: string | null },
  locale: 'en' | 'ar',
): string {
  if (locale === 'ar' && p.first_name_ar) return `${p.first_name_ar} ${p.last_name_ar ?? ''}`.trim();
  return `${p.first_name} ${p.last_name}`.trim();
}

export async function renderGuardianMessage(
  db: Queryable,
  row: GuardianRow,
  o: GuardianRenderOptions,
): Promise<{ rendered: RenderedMessage } | { skip: string }> {
  const locale = row.locale === 'ar' ? 'ar' : 'en';
  const p = row.params;
  const [who] = await db.query<GuardianFacts>(
    `SELECT g.id AS guardian_id, g.uuid AS guardian_uuid, g.status AS guardian_status, g.email, g.data,
            x.id AS passenger_id, x.first_name, x.last_name, x.data->>'first_name_ar' AS first_name_ar,
            x.data->>'last_name_ar' AS last_name_ar
     FROM guardians g JOIN passenger_guardians pg ON pg.guardian_id = g.id
     JOIN passengers x ON x.id = pg.passenger_id
     WHERE g.uuid = $1::uuid AND x.uuid = $2::uuid`,
    [String(p.guardian_uuid), String(p.passenger_uuid)],
  );
  if (!who) return { skip: 'the guardian or the passenger no longer exists, or they are no longer linked' };
  if (who.guardian_status !== 'active') return { skip: 'the guardian is not active' };
  if (!channelsOf(who.data ?? {}, who.email).includes(row.channel))
    return { skip: `the guardian unsubscribed from ${row.channel === 'email' ? 'e-mail' : 'SMS'} messages` };
  const [trip] = await db.query<TripFacts>(
    `SELECT id, name, status, data->'instance' AS instance FROM trips WHERE uuid = $1::uuid`,
    [String(p.trip_uuid)],
  );
  if (!trip) return { skip: 'the trip no longer exists' };
  let link: string | undefined;
  if (TRACKED.includes(row.kind) && ['pending', 'delayed', 'started'].includes(trip.status)) {
    const token = newToken();
    const plannedEnd = Number(trip.instance?.plannedEnd ?? 0);
    const expires = new Date(Math.max(plannedEnd, o.now.getTime()) + TRACKING_GRACE_MS);
    await db.query(
      `INSERT INTO guardian_tracking_links (token_hash, company_id, guardian_id, passenger_id, trip_id, stop_uuid,
         created_at, expires_at)
       SELECT $1, t.company_id, $2, $3, t.id, $4, $5, $6 FROM trips t WHERE t.id = $7`,
      [
        hashToken(token),
        who.guardian_id,
        who.passenger_id,
        typeof p.stop_uuid === 'string' ? p.stop_uuid : null,
        o.now.toISOString(),
        expires.toISOString(),
        trip.id,
      ],
    );
    link = `${o.publicUrl}/track/${token}`;
  }
  const unsubscribe = `${o.publicUrl}/unsubscribe/${await signUnsubscribe(db, who.guardian_uuid, row.channel)}`;
  const rendered = renderMessage(
    row.kind as MessageKind,
    locale,
    {
      title: trip.name,
      passenger: personName(who, locale),
      ...(typeof p.stop_name === 'string' ? { stop: p.stop_name } : {}),
      ...(trip.instance?.date ? { detail: trip.instance.date } : {}),
      ...(link ? { link } : {}),
      unsubscribe,
    },
    o.product,
  );
  return { rendered };
}
