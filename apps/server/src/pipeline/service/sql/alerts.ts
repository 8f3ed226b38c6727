import type { VehicleSummary } from '@fleet/api-client';
import type { Queryable } from '../../../storage/db';
import type { ExpiringDocument } from '../../alerts/engine';
import type { AlertStore, NotificationInput, NotificationOut, Recipient } from '../ports';

/**
 * Who is told of an alert, the notifications, and what the clock alerts read.
 *  - recipients: users with a membership in the company whose scope (sub company, branch, school)
 *    covers the vehicle. Guardians are matched to user accounts by e-mail.
 *  - notifications: idempotent per (user, alert dedupe key) through `data.dedupe_key`, enforced by a
 *    unique index (migration 0009) so concurrent nodes cannot both insert an episode.
 *  - lastSeen (offline / inactive), expiringDocuments (document expiry) and firedClockAlerts (what the
 *    previous holder of the clock lease already notified).
 */
export class SqlAlertStore implements AlertStore {
  constructor(private readonly db: Queryable) {}

  async recipients(companyUuid: string, vehicleUuid: string | undefined): Promise<Recipient[]> {
    return this.db.query<Recipient>(
      `SELECT u.uuid AS "userUuid", u.locale
       FROM memberships m JOIN users u ON u.id = m.user_id JOIN transport_companies c ON c.id = m.company_id
       LEFT JOIN vehicles v ON v.uuid = $2::uuid AND v.company_id = c.id
       WHERE c.uuid = $1 AND u.status = 'active'
         AND ($2::uuid IS NULL OR (v.id IS NOT NULL
           AND (m.sub_company_id IS NULL OR m.sub_company_id = v.sub_company_id)
           AND (m.branch_id IS NULL OR m.branch_id = v.branch_id)
           AND (m.school_id IS NULL OR m.school_id = v.school_id)))
       ORDER BY u.id`,
      [companyUuid, vehicleUuid ?? null],
    );
  }

  async guardianRecipients(companyUuid: string, passengerIds: readonly string[]): Promise<Recipient[]> {
    if (passengerIds.length === 0) return [];
    return this.db.query<Recipient>(
      `SELECT DISTINCT u.uuid AS "userUuid", u.locale
       FROM passengers p JOIN passenger_guardians pg ON pg.passenger_id = p.id JOIN guardians g ON g.id = pg.guardian_id
       JOIN transport_companies c ON c.id = p.company_id
       JOIN users u ON g.email IS NOT NULL AND lower(u.email) = lower(g.email)
       WHERE c.uuid = $1 AND p.uuid = ANY($2::uuid[]) AND u.status = 'active'`,
      [companyUuid, passengerIds],
    );
  }

  async insertNotifications(
    rows: readonly NotificationInput[],
  ): Promise<(NotificationOut & { userUuid: string })[]> {
    const out: (NotificationOut & { userUuid: string })[] = [];
    for (const row of rows) {
      const a = row.alert;
      if (a.update) {
        // An episode ended (pipeline/alerts/engine.ts): its notification gets the episode's text, peak
        // and times; nothing new is stored or published.
        await this.db.query(
          `UPDATE notifications n SET message = $3, violation_value = $4,
             data = n.data || $5::jsonb
           FROM users u WHERE u.uuid = $1 AND n.user_id = u.id AND n.data->>'dedupe_key' = $2`,
          [
            row.userUuid,
            a.dedupeKey,
            row.message,
            a.violationValue === null ? null : String(a.violationValue),
            JSON.stringify({ ...(a.data ?? {}), message_key: a.messageKey, params: a.params }),
          ],
        );
        continue;
      }
      const inserted = await this.db.query<{
        uuid: string;
        created_at: Date;
        device_created_at: Date | null;
        vehicle: VehicleSummary | null; // json_build_object of the vehicle summary (or null)
      }>(
        `WITH target AS (
           SELECT c.id AS company_id, u.id AS user_id, v.id AS vehicle_id
           FROM transport_companies c JOIN users u ON u.uuid = $2
           LEFT JOIN vehicles v ON v.uuid = $3::uuid AND v.company_id = c.id
           WHERE c.uuid = $1
         ), ins AS (
           INSERT INTO notifications (company_id, user_id, vehicle_id, type, title, message, violation_value, data, device_created_at)
           SELECT company_id, user_id, vehicle_id, $4, $5, $6, $7, $8::jsonb, $9::timestamptz FROM target t
           ON CONFLICT (user_id, (data->>'dedupe_key')) WHERE data->>'dedupe_key' IS NOT NULL DO NOTHING
           RETURNING uuid, created_at, device_created_at, vehicle_id
         )
         SELECT ins.uuid, ins.created_at, ins.device_created_at,
                CASE WHEN v.id IS NULL THEN NULL ELSE jsonb_build_object('uuid', v.uuid, 'license_plate_number',
                  v.license_plate_number, 'license_plate_state_code', v.data->>'license_plate_state_code',
                  'license_plate_category', v.data->>'license_plate_category', 'type', v.type) END AS vehicle
         FROM ins LEFT JOIN vehicles v ON v.id = ins.vehicle_id`,
        [
          row.companyUuid,
          row.userUuid,
          a.vehicleId ?? null,
          a.type,
          row.title,
          row.message,
          a.violationValue === null ? null : String(a.violationValue),
          JSON.stringify({
            ...(a.data ?? {}),
            dedupe_key: a.dedupeKey,
            // The keys let lists render the text again in the reader's language (modules/notifications.ts).
            title_key: a.titleKey,
            message_key: a.messageKey,
            params: a.params,
          }),
          a.deviceCreatedAt,
        ],
      );
      const n = inserted[0];
      if (!n) continue;
      out.push({
        userUuid: row.userUuid,
        uuid: n.uuid,
        type: a.type,
        title: row.title,
        message: row.message,
        created_at: new Date(n.created_at).toISOString(),
        device_created_at: n.device_created_at ? new Date(n.device_created_at).toISOString() : null,
        vehicle: n.vehicle,
        violation_value: a.violationValue,
        read: false,
        read_at: null,
        icon: null,
        // With the keys the realtime hub words the toast in each socket's language (realtime/hub.ts),
        // not in the language the recipient had saved when the alert fired.
        data: { ...(a.data ?? {}), title_key: a.titleKey, message_key: a.messageKey, params: a.params },
      });
    }
    return out;
  }

  async lastSeen(companyUuid: string): Promise<{ vehicleUuid: string; lastSeen: number | undefined }[]> {
    const rows = await this.db.query<{ vehicle_uuid: string; t: number | null }>(
      `SELECT v.uuid AS vehicle_uuid, (extract(epoch FROM max(l.fix_time)) * 1000)::float8 AS t
       FROM vehicles v JOIN transport_companies c ON c.id = v.company_id
       LEFT JOIN latest_locations l ON l.vehicle_id = v.id
       WHERE c.uuid = $1 GROUP BY v.uuid ORDER BY v.uuid`,
      [companyUuid],
    );
    return rows.map((r) => ({
      vehicleUuid: r.vehicle_uuid,
      lastSeen: r.t === null ? undefined : Math.round(r.t),
    }));
  }

  async expiringDocuments(companyUuid: string): Promise<ExpiringDocument[]> {
    const vehicles = await this.db.query<{ uuid: string; plate: string; data: Record<string, unknown> }>(
      `SELECT v.uuid, v.license_plate_number AS plate, v.data FROM vehicles v JOIN transport_companies c ON c.id = v.company_id
       WHERE c.uuid = $1 AND v.status <> 'inactive'`,
      [companyUuid],
    );
    const drivers = await this.db.query<{ uuid: string; name: string; data: Record<string, unknown> }>(
      `SELECT d.uuid, trim(d.first_name || ' ' || d.last_name) AS name, d.data FROM drivers d
       JOIN transport_companies c ON c.id = d.company_id WHERE c.uuid = $1 AND d.status <> 'inactive'`,
      [companyUuid],
    );
    const out: ExpiringDocument[] = [];
    const add = (doc: Omit<ExpiringDocument, 'expiresOn'>, value: unknown) => {
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value))
        out.push({ ...doc, expiresOn: value.slice(0, 10) });
    };
    for (const v of vehicles) {
      const base = { ownerId: v.uuid, ownerName: v.plate, vehicleId: v.uuid };
      add({ ...base, kind: 'vehicle_registration' }, v.data.registration_expiry);
      add({ ...base, kind: 'vehicle_insurance' }, v.data.insurance_expiry);
      add({ ...base, kind: 'vehicle_license' }, v.data.license_expiry);
    }
    for (const d of drivers) {
      const base = { ownerId: d.uuid, ownerName: d.name, driverId: d.uuid };
      add({ ...base, kind: 'driver_license' }, d.data.license_expiry);
      add({ ...base, kind: 'driver_national_id' }, d.data.national_id_expiry);
      add({ ...base, kind: 'driver_residence_permit' }, d.data.residence_permit_expiry);
    }
    return out;
  }

  async firedClockAlerts(companyUuid: string): Promise<string[]> {
    const rows = await this.db.query<{ key: string }>(
      `SELECT DISTINCT n.data->>'dedupe_key' AS key
       FROM notifications n JOIN transport_companies c ON c.id = n.company_id
       WHERE c.uuid = $1 AND n.type IN ('device_offline', 'vehicle_inactive', 'document_expiry')
         AND n.data->>'dedupe_key' IS NOT NULL`,
      [companyUuid],
    );
    const prefix = `${companyUuid}:`;
    return rows.filter((r) => r.key.startsWith(prefix)).map((r) => r.key.slice(prefix.length));
  }
}
