import type { FastifyInstance, FastifyRequest } from 'fastify';
import { vehicleStatus } from '@fleet/core';
import type { GuardianMessageChannel, trackedTripStatuses } from '@fleet/api-client';
import { route, iso } from '../http/route';
import { notFound } from '../http/errors';
import { t } from '../http/i18n';
import { hashToken } from '../auth/crypto';
import { logActivity } from '../activity/log';
import { scopeSql } from '../entities/scope';
import { haversineM } from '../pipeline/common/geo';
import { locationView, type LocationRow } from '../modules/locations';
import { channelsOf } from './render';
import { verifyUnsubscribe } from './signing';

/**
 * What guardians reach without an account (issue 14), and the staff side of it:
 *
 * - GET /v1/track/:token: the tracking page of a guardian message. The link names one guardian, one
 *   passenger and one scheduled-trip instance; it answers only that trip's bus (plate, latest position,
 *   live status) and the way to the guardian's stop (distance, ETA). It works while the link is not
 *   revoked, not expired and the trip is open (pending, delayed, started): when the trip completes, is
 *   cancelled or missed, it is a 404 like a forged one. Every failure is the same bare 404.
 * - GET / POST /v1/unsubscribe/:token: the signed unsubscribe link of every guardian message. GET reads
 *   (mail scanners open links), POST stops the messages of the link's channel: 'both' becomes the other
 *   channel, a single channel becomes 'none'. Logged in the company's activity log.
 * - POST /v1/guardians/:uuid/tracking-links/revoke (guardians.update): every open link of that guardian
 *   stops working at once.
 *
 * ETA: the straight-line distance to the stop over the bus's speed, at least 20 km/h (town traffic, and
 * a bus standing at a light is not "never"); 0 once the stop is recorded as reached. The spec is silent;
 * the road distance needs a router we do not have offline.
 */
export const ETA_MIN_SPEED_KMH = 20;

export function etaMinutes(distanceM: number, speedKmh: number | null): number {
  const kmh = Math.max(ETA_MIN_SPEED_KMH, speedKmh ?? 0);
  return Math.max(0, Math.round((distanceM / 1000 / kmh) * 60));
}

interface TrackRow extends Partial<LocationRow> {
  trip_name: string;
  trip_status: (typeof trackedTripStatuses)[number];
  instance: {
    plannedStart?: number;
    plannedEnd?: number;
    reached?: Record<string, number>;
    stops?: { id: string; name: string; lat: number; lon: number }[];
  } | null;
  start_at: Date;
  stop_uuid: string | null;
  expires_at: Date;
  passenger_first_name: string;
  passenger_data: Record<string, unknown>;
  guardian_data: Record<string, unknown>;
  license_plate_number: string;
  vehicle_type: string;
  vehicle_data: Record<string, unknown>;
}

export function registerGuardianMessageRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;

  route(app, 'track.show', async ({ params }) => {
    const now = app.ctx.now();
    if (params.token.length < 16 || params.token.length > 200) throw notFound();
    const rows = await db.query<TrackRow>(
      `SELECT t.name AS trip_name, t.status AS trip_status, t.data->'instance' AS instance, t.start_at,
              k.stop_uuid, k.expires_at, x.first_name AS passenger_first_name, x.data AS passenger_data,
              g.data AS guardian_data, v.license_plate_number, v.type AS vehicle_type, v.data AS vehicle_data, l.*
       FROM guardian_tracking_links k
       JOIN trips t ON t.id = k.trip_id
       JOIN passengers x ON x.id = k.passenger_id
       JOIN guardians g ON g.id = k.guardian_id
       JOIN vehicles v ON v.id = t.vehicle_id
       LEFT JOIN LATERAL (SELECT ll.fix_time, ll.latitude, ll.longitude, ll.speed, ll.course, ll.altitude, ll.satellites,
                                 ll.ignition, ll.is_idle, ll.digital_output1, ll.digital_output2, ll.io_elements
                          FROM latest_locations ll JOIN devices d ON d.id = ll.device_id
                          WHERE d.imei IN (v.device_imei, v.gps_device_imei) ORDER BY ll.fix_time DESC LIMIT 1) l ON true
       WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND k.expires_at > $2
         AND t.status IN ('pending', 'delayed', 'started') AND g.status = 'active'`,
      [hashToken(params.token), now.toISOString()],
    );
    const r = rows[0];
    if (!r) throw notFound();
    const stop = r.instance?.stops?.find((s) => s.id === r.stop_uuid);
    if (!stop) throw notFound();
    const location = r.fix_time ? locationView(r as LocationRow) : null;
    const reached = Boolean(r.instance?.reached?.[stop.id]);
    const distance =
      location && r.latitude != null && r.longitude != null
        ? Math.round(haversineM(r.latitude, r.longitude, stop.lat, stop.lon))
        : null;
    const plannedStart = r.instance?.plannedStart ?? r.start_at.getTime();
    const plannedEnd = r.instance?.plannedEnd ?? plannedStart;
    return {
      data: {
        trip: {
          name: r.trip_name,
          status: r.trip_status,
          planned_start: iso(new Date(plannedStart))!,
          planned_end: iso(new Date(plannedEnd))!,
        },
        passenger: {
          first_name: r.passenger_first_name,
          first_name_ar: (r.passenger_data.first_name_ar as string | undefined) ?? null,
        },
        stop: { name: stop.name, latitude: stop.lat, longitude: stop.lon, reached },
        vehicle: {
          license_plate_number: r.license_plate_number,
          license_plate_state_code: (r.vehicle_data.license_plate_state_code as string | undefined) ?? null,
          license_plate_category: (r.vehicle_data.license_plate_category as string | undefined) ?? null,
          type: r.vehicle_type as 'bus',
        },
        location,
        live_status: vehicleStatus(location, now),
        distance_m: reached ? 0 : distance,
        eta_minutes: reached ? 0 : distance === null ? null : etaMinutes(distance, r.speed ?? null),
        language: r.guardian_data.language === 'ar' ? 'ar' : 'en',
        expires_at: iso(r.expires_at)!,
      },
    };
  });

  async function subscription(token: string) {
    const signed = await verifyUnsubscribe(db, token);
    if (!signed) throw notFound();
    const [g] = await db.query<{
      id: number;
      company_id: number;
      email: string | null;
      data: Record<string, unknown>;
    }>('SELECT id, company_id, email, data FROM guardians WHERE uuid = $1::uuid', [signed.guardianUuid]);
    if (!g) throw notFound();
    return { signed, g };
  }

  const answer = (channel: 'email' | 'sms', data: Record<string, unknown>, email: string | null) => {
    const channels = channelsOf(data, email);
    const preference: GuardianMessageChannel =
      channels.length === 2 ? 'both' : channels.length === 1 ? channels[0]! : 'none';
    return {
      data: {
        channel,
        subscribed: channels.includes(channel),
        message_channel: preference,
        language: data.language === 'ar' ? ('ar' as const) : ('en' as const),
      },
    };
  };

  route(app, 'unsubscribe.show', async ({ params }) => {
    const { signed, g } = await subscription(params.token);
    return answer(signed.channel, g.data ?? {}, g.email);
  });

  /** Stops the messages of a genuine link's channel (once: a second call changes nothing). */
  async function unsubscribe(token: string, req: FastifyRequest, via: string) {
    const { signed, g } = await subscription(token);
    const before = channelsOf(g.data ?? {}, g.email);
    if (!before.includes(signed.channel)) return answer(signed.channel, g.data ?? {}, g.email);
    const left = before.filter((c) => c !== signed.channel);
    const next = left.length ? left[0]! : 'none';
    const [row] = await db.query<{ uuid: string; data: Record<string, unknown>; email: string | null }>(
      `UPDATE guardians SET data = data || jsonb_build_object('message_channel', $2::text), updated_at = now()
       WHERE id = $1 RETURNING uuid, data, email`,
      [g.id, next],
    );
    // Who stopped the messages: the guardian, through their link (no user).
    await logActivity(db, {
      companyId: g.company_id,
      userId: null,
      action: 'updated',
      entity: 'guardian',
      entityUuid: signed.guardianUuid,
      before: { message_channel: before.length === 2 ? 'both' : (before[0] ?? 'none') },
      after: { message_channel: next, via },
      req,
    });
    return answer(signed.channel, row!.data, row!.email);
  }

  route(app, 'unsubscribe.confirm', async ({ req, params }) =>
    unsubscribe(params.token, req, 'unsubscribe link'),
  );

  /*
   * One-click unsubscribe (RFC 8058). Every guardian e-mail names its unsubscribe link in
   * `List-Unsubscribe` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`; a mail client's
   * "Unsubscribe" button then POSTs `List-Unsubscribe=One-Click` to that very link, without cookies and
   * without showing anything. The link is the portal's page path (/unsubscribe/:token, the one in the
   * message body), so GET stays the page (read-only, mail scanners open it) and only this POST acts.
   * The RFC's body is required (form-urlencoded, or multipart/form-data as the RFC prefers): a bare
   * POST is refused with 400 so nothing but a one-click request unsubscribes here. The answer is
   * plain text (no page, no redirect, as the RFC asks); a forged token is the same bare 404 as the
   * API's. Its own plugin scope keeps the small form parser away from every other route.
   */
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, body, done) => done(null, body),
    );
    scope.post<{ Params: { token: string } }>(
      '/unsubscribe/:token',
      { bodyLimit: 64 * 1024 },
      async (req, reply) => {
        const locale = req.locale ?? 'en';
        if (!(await isOneClick(req))) {
          return reply.code(400).send({ message: t(locale, 'unsubscribe.one_click') });
        }
        if (req.params.token.length > 200) return reply.code(404).send({ message: t(locale, 'not_found') });
        let done: ReturnType<typeof answer>;
        try {
          done = await unsubscribe(req.params.token, req, 'one-click unsubscribe');
        } catch (e) {
          if ((e as { statusCode?: number }).statusCode === 404)
            return reply.code(404).send({ message: t(locale, 'not_found') });
          throw e;
        }
        // A mail client sends no X-Locale: the answer is in the guardian's saved language.
        return reply
          .code(200)
          .type('text/plain; charset=utf-8')
          .send(t(done.data.language, 'unsubscribe.done'));
      },
    );
  });

  route(
    app,
    'guardians.revokeTracking',
    async ({ req, params, tenant, principal }) => {
      const p: unknown[] = [params.uuid];
      const [g] = await db.query<{ id: number }>(
        `SELECT g.id FROM guardians g WHERE g.uuid = $1 AND ${scopeSql('guardians', 'g', tenant, p)}`,
        p,
      );
      if (!g) throw notFound('Guardian');
      const revoked = await db.query(
        `UPDATE guardian_tracking_links SET revoked_at = $2
         WHERE guardian_id = $1 AND revoked_at IS NULL AND expires_at > $2 RETURNING 1`,
        [g.id, app.ctx.now().toISOString()],
      );
      await logActivity(db, {
        companyId: tenant.companyId,
        userId: principal.user.id,
        action: 'updated',
        entity: 'guardian',
        entityUuid: params.uuid,
        after: { tracking_links_revoked: revoked.length },
        req,
      });
      return { data: { revoked: revoked.length } };
    },
    { permission: 'guardians.update' },
  );
}

/**
 * Whether a request's body is RFC 8058's `List-Unsubscribe=One-Click`: a form-urlencoded body (parsed
 * to a string by the route's parser) or a multipart/form-data field of that name (@fastify/multipart,
 * registered for the whole server by the file routes).
 */
async function isOneClick(req: FastifyRequest): Promise<boolean> {
  if (typeof req.body === 'string')
    return new URLSearchParams(req.body).get('List-Unsubscribe') === 'One-Click';
  if (typeof req.isMultipart !== 'function' || !req.isMultipart()) return false;
  try {
    for await (const part of req.parts({ limits: { fields: 10, fieldSize: 1024, files: 0 } })) {
      if (part.type === 'field' && part.fieldname === 'List-Unsubscribe') return part.value === 'One-Click';
    }
  } catch {
    return false;
  }
  return false;
}
