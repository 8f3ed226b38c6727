import type { VehicleSummary } from '@fleet/api-client';
import type { Queryable } from '../../storage/db';
import type { ExpiringDocument, VehicleContext } from '../alerts/engine';
import { alertRulesFrom, type NotificationRuleLike } from '../alerts/from-rules';
import type { IoMap } from '../common/io';
import type { PositionRecord } from '../common/types';
import type { GeofenceShape } from '../geofence/geometry';
import type { GeofenceEvent, TrackingRule } from '../geofence/tracker';
import type { DayRollups, VehicleRollup } from '../rollups/rollups';
import { nameUuid } from '../salik/api-gates';
import type { SalikCrossing } from '../salik/detector';
import type { ScheduledTripDef, TripInstance } from '../scheduled/instances';
import type { TripDetection } from '../trips/trips';
import {
  writeChangedRollups,
  writeChangedTrips,
  WrittenRows,
  type WriteBatch,
} from '../incremental/write-changed';
import type {
  CompanySetup,
  NotificationInput,
  NotificationOut,
  PipelineStore,
  Recipient,
  StoredTripInstance,
} from './ports';

/**
 * PipelineStore over the server's PostgreSQL schema (PGlite or pg: same SQL).
 *
 * Mapping decisions:
 *  - device_trips rows hold trips only; the contract fields (deviceTripSchema) go in `data` with the
 *    device-day they belong to (`data.day`), which is what a recompute replaces. Stops and idling periods
 *    of the day are kept in `data.stops` / `data.idles` of that day's first trip row, so a day without a
 *    trip has none stored (a device_stops table is the proper home; see the pipeline report).
 *  - geofence_events / salik_events: contract fields in `data` (geofenceEventSchema / salikEventSchema).
 *    Idempotent: one row per (vehicle, geofence, time, kind) and per (vehicle, gate, time), enforced by
 *    unique indexes (migration 0014), so records run through the engines again after a worker died
 *    before saving its device state store nothing twice.
 *    `gate_uuid` is the API gate record of the crossing (see salik/api-gates.ts: one record per charged
 *    direction, name-based uuids when the gates come from salik.json).
 *  - notifications: idempotent per (user, alert dedupe key) through `data.dedupe_key`, enforced by a
 *    unique index (migration 0009) so concurrent nodes cannot both insert an episode.
 *  - rollups: the `vehicle_rollups` table (migration 0007_reports.sql) and the day's refuels and drops
 *    in `fuel_events`.
 *  - scheduled trip instances are upserted into `trips` (scheduled_trip_id, status, start/end) keyed by
 *    `data.instance_id`; a finished instance (completed, missed, cancelled) is never overwritten.
 *  - recipients: users with a membership in the company whose scope (sub company, branch, school)
 *    covers the vehicle. Guardians are matched to user accounts by e-mail.
 */
export class SqlPipelineStore implements PipelineStore {
  /** `rememberWrites`: this process is the only writer of trips and rollups (embedded; see write-changed.ts). */
  private readonly written: WrittenRows | null;
  constructor(
    private readonly db: Queryable,
    opts: { rememberWrites?: boolean } = {},
  ) {
    this.written = opts.rememberWrites ? new WrittenRows() : null;
  }

  async companySetup(companyUuid: string): Promise<CompanySetup> {
    const [company] = await this.db.query<{ id: number }>(
      'SELECT id FROM transport_companies WHERE uuid = $1',
      [companyUuid],
    );
    if (!company) throw new Error(`Unknown company ${companyUuid}`);
    const rules = await this.db.query<{ type: string; status: string; params: Record<string, unknown> }>(
      'SELECT type, status, params FROM notification_rules WHERE company_id = $1 ORDER BY created_at, id',
      [company.id],
    );
    const fences = await this.db.query<{
      uuid: string;
      name: string;
      geometry: {
        shape: string;
        center?: { latitude: number; longitude: number };
        radius?: number;
        points?: { latitude: number; longitude: number }[];
      };
      data: Record<string, unknown>;
      status: string;
    }>(
      "SELECT uuid, name, geometry, data, status FROM geofences WHERE company_id = $1 AND status = 'active'",
      [company.id],
    );
    const vehicles = await this.db.query<{
      uuid: string;
      plate: string;
      data: Record<string, unknown>;
      driver_uuid: string | null;
    }>(
      `SELECT v.uuid, v.license_plate_number AS plate, v.data, d.uuid AS driver_uuid
       FROM vehicles v LEFT JOIN drivers d ON d.id = v.driver_id WHERE v.company_id = $1`,
      [company.id],
    );
    const geofences = [];
    for (const f of fences) {
      const shape = toShape(f.geometry);
      if (!shape) continue;
      const tracking = (
        Array.isArray(f.data.tracking_rules) ? f.data.tracking_rules : ['entry', 'exit']
      ) as TrackingRule[];
      const nameAr = typeof f.data.name_ar === 'string' ? f.data.name_ar : undefined;
      geofences.push({
        id: f.uuid,
        name: f.name,
        nameEn: f.name,
        ...(nameAr ? { nameAr } : {}),
        shape,
        tracking,
      });
    }
    return {
      rules: alertRulesFrom(
        rules.map(
          (r) => ({ ...(r.params as object), type: r.type, status: r.status }) as NotificationRuleLike,
        ),
      ),
      geofences,
      vehicles: vehicles.map((v): VehicleContext => ({
        vehicleId: v.uuid,
        plate: v.plate,
        ...(typeof v.data.speed_limit === 'number' ? { speedLimitKmh: v.data.speed_limit } : {}),
        ...(v.driver_uuid ? { driverId: v.driver_uuid } : {}),
      })),
    };
  }

  async readLocations(deviceUuid: string, from: number, to: number): Promise<PositionRecord[]> {
    const rows = await this.db.query<{
      fix_ms: number;
      received_ms: number;
      latitude: number | null;
      longitude: number | null;
      speed: number | null;
      course: number | null;
      ignition: boolean | null;
      digital_output1: number | null;
      digital_output2: number | null;
      io_elements: IoMap;
      valid: boolean;
      vehicle_uuid: string | null;
    }>(
      `SELECT (extract(epoch FROM l.fix_time) * 1000)::float8 AS fix_ms,
              (extract(epoch FROM l.received_at) * 1000)::float8 AS received_ms,
              l.latitude, l.longitude, l.speed, l.course, l.ignition, l.digital_output1, l.digital_output2,
              l.io_elements, l.valid, v.uuid AS vehicle_uuid
       FROM locations l JOIN devices d ON d.id = l.device_id LEFT JOIN vehicles v ON v.id = l.vehicle_id
       WHERE d.uuid = $1 AND l.fix_time >= to_timestamp($2 / 1000.0) AND l.fix_time < to_timestamp($3 / 1000.0)
       ORDER BY l.fix_time`,
      [deviceUuid, from, to],
    );
    return rows.map((r) => ({
      deviceId: deviceUuid,
      ...(r.vehicle_uuid ? { vehicleId: r.vehicle_uuid } : {}),
      time: Math.round(r.fix_ms),
      receivedAt: Math.round(r.received_ms),
      lat: r.latitude ?? Number.NaN,
      lon: r.longitude ?? Number.NaN,
      speed: r.speed ?? 0,
      ...(r.course !== null ? { heading: r.course } : {}),
      ...(r.ignition !== null ? { ignition: r.ignition } : {}),
      io: r.io_elements ?? {},
      digitalOutput1: r.digital_output1,
      digitalOutput2: r.digital_output2,
      ignored: !r.valid,
    }));
  }

  async replaceDeviceDay(
    ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null },
    date: string,
    det: TripDetection,
  ): Promise<void> {
    await this.writeResults([{ ref, date, detection: det }], []);
  }

  async replaceRollups(ref: { companyUuid: string; vehicleUuid: string }, day: DayRollups): Promise<void> {
    await this.writeResults([], [{ ref, day }]);
  }

  /**
   * One flush: the device-days' trips and the vehicle-days' rollups and fuel events, each replaced by one
   * DELETE and one multi-row INSERT (unnest) for all of them, in one transaction when the connection
   * has them. An unknown device or vehicle (deleted meanwhile) is an error, as a single write was.
   */
  async writeResults(
    trips: readonly {
      ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null };
      date: string;
      detection: TripDetection;
    }[],
    rollups: readonly { ref: { companyUuid: string; vehicleUuid: string }; day: DayRollups }[],
  ): Promise<void> {
    if (trips.length === 0 && rollups.length === 0) return;
    const db = this.db as Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> };
    const batch = this.written?.begin();
    const run = (q: Queryable) => this.writeResultsIn(q, trips, rollups, batch);
    if (typeof db.transaction === 'function') await db.transaction(run);
    else await run(db);
    batch?.commit();
  }

  private async writeResultsIn(
    db: Queryable,
    trips: readonly {
      ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null };
      date: string;
      detection: TripDetection;
    }[],
    rollups: readonly { ref: { companyUuid: string; vehicleUuid: string }; day: DayRollups }[],
    batch?: WriteBatch,
  ): Promise<void> {
    const vehicleUuids = [
      ...new Set([
        ...trips.map((t) => t.ref.vehicleUuid).filter((v): v is string => !!v),
        ...rollups.map((r) => r.ref.vehicleUuid),
      ]),
    ];
    const vehicles = new Map(
      vehicleUuids.length
        ? (
            await db.query<{ id: number; uuid: string; company_id: number }>(
              'SELECT id, uuid, company_id FROM vehicles WHERE uuid = ANY($1::uuid[])',
              [vehicleUuids],
            )
          ).map((v) => [v.uuid, v])
        : [],
    );
    if (trips.length) {
      const deviceUuids = [...new Set(trips.map((t) => t.ref.deviceUuid))];
      const devices = new Map(
        (
          await db.query<{ id: number; uuid: string; imei: string; company_id: number }>(
            'SELECT id, uuid, imei, company_id FROM devices WHERE uuid = ANY($1::uuid[])',
            [deviceUuids],
          )
        ).map((d) => [d.uuid, d]),
      );
      const del = { dev: [] as number[], day: [] as string[] };
      const ins = {
        company: [] as number[],
        vehicle: [] as (number | null)[],
        dev: [] as number[],
        start: [] as number[],
        end: [] as number[],
        dist: [] as number[],
        data: [] as string[],
      };
      const place = (p: { lat: number; lon: number }) => ({
        latitude: p.lat,
        longitude: p.lon,
        address: null,
      });
      for (const { ref, date, detection: det } of trips) {
        const dev = devices.get(ref.deviceUuid);
        if (!dev) throw new Error(`Unknown device ${ref.deviceUuid}`);
        const vehicleId = ref.vehicleUuid ? (vehicles.get(ref.vehicleUuid)?.id ?? null) : null;
        del.dev.push(dev.id);
        del.day.push(date);
        for (const [k, t] of det.trips.entries()) {
          const data = {
            day: date,
            device_imei: dev.imei,
            start_location: place(t.start),
            end_location: place(t.end),
            distance_km: Math.round(t.distanceM) / 1000,
            distance_source: t.distanceSource,
            duration_seconds: Math.round(t.durationS),
            max_speed: t.maxSpeedKmh,
            average_speed: t.avgSpeedKmh,
            idle_seconds: Math.round(t.idleS),
            fuel_used_litres: null,
            ...(k === 0 ? { stops: det.stops, idles: det.idles } : {}),
          };
          ins.company.push(dev.company_id);
          ins.vehicle.push(vehicleId);
          ins.dev.push(dev.id);
          ins.start.push(t.startTime);
          ins.end.push(t.endTime);
          ins.dist.push(t.distanceM);
          ins.data.push(JSON.stringify(data));
        }
      }
      await writeChangedTrips(db, del, ins, batch);
    }
    if (rollups.length === 0) return;
    const rows: { company: number; vehicle: number; day: string; r: VehicleRollup }[] = [];
    const del = { vehicle: [] as number[], day: [] as string[] };
    const ev: { company: number; vehicle: number; day: string; e: DayRollups['fuelEvents'][number] }[] = [];
    // One vehicle-day can come twice in a flush (two devices of one vehicle; seen in bench:soak on
    // PostgreSQL, where the duplicate daily row failed every later flush with vehicle_rollups_pkey).
    // Written one by one, the later write replaced the earlier: keep that, the last one.
    const last = new Map<string, (typeof rollups)[number]>();
    for (const w of rollups) last.set(`${w.ref.vehicleUuid}|${w.day.daily.date}`, w);
    for (const { ref, day } of last.values()) {
      const v = vehicles.get(ref.vehicleUuid);
      if (!v) throw new Error(`Unknown vehicle ${ref.vehicleUuid}`);
      del.vehicle.push(v.id);
      del.day.push(day.daily.date);
      for (const r of [day.daily, ...day.hourly.filter((h) => h.records > 0)])
        rows.push({ company: v.company_id, vehicle: v.id, day: day.daily.date, r });
      for (const e of day.fuelEvents)
        ev.push({ company: v.company_id, vehicle: v.id, day: day.daily.date, e });
    }
    const col = <K extends keyof VehicleRollup>(k: K) => rows.map((x) => x.r[k]);
    await writeChangedRollups(
      db,
      del,
      [
        rows.map((x) => x.company),
        rows.map((x) => x.vehicle),
        rows.map((x) => x.day),
        rows.map((x) => x.r.hour ?? -1),
        col('distanceM'),
        col('drivingS'),
        col('idleS'),
        col('engineS'),
        col('records'),
        col('maxSpeedKmh'),
        col('trips'),
        col('violations'),
        col('fuelUsedL'),
        col('refuels'),
        col('refuelL'),
        col('drops'),
        col('dropL'),
        col('rpmMax'),
        col('rpmSecondsSum'),
        col('rpmSeconds'),
        col('overRevS'),
        col('tempMin'),
        col('tempMax'),
        col('tempSum'),
        col('tempCount'),
        col('startsAt'),
        col('overRevs'),
        col('fuelLevelPct'),
        col('fuelLevelL'),
        rows.map((x) => (x.r.tyres ? JSON.stringify(x.r.tyres) : null)),
      ],
      batch,
    );
    // Refuels and drops of the days (place and time) for the fuel report.
    await db.query(
      `DELETE FROM fuel_events f USING unnest($1::int[], $2::date[]) AS u(v, d)
       WHERE f.vehicle_id = u.v AND f.day = u.d`,
      [del.vehicle, del.day],
    );
    if (ev.length > 0) {
      await db.query(
        `INSERT INTO fuel_events (company_id, vehicle_id, day, kind, litres, at, ended_at, latitude, longitude,
           level_before_l, level_after_l)
         SELECT c, v, dy::date, k, l, to_timestamp(a / 1000.0), to_timestamp(b / 1000.0), la, lo, lb, lf
         FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[],
           $8::float8[], $9::float8[], $10::float8[], $11::float8[]) AS u(c, v, dy, k, l, a, b, la, lo, lb, lf)`,
        [
          ev.map((x) => x.company),
          ev.map((x) => x.vehicle),
          ev.map((x) => x.day),
          ev.map((x) => x.e.kind),
          ev.map((x) => x.e.litres),
          ev.map((x) => x.e.startTime),
          ev.map((x) => x.e.endTime),
          ev.map((x) => x.e.lat),
          ev.map((x) => x.e.lon),
          ev.map((x) => x.e.levelBeforeL),
          ev.map((x) => x.e.levelAfterL),
        ],
      );
    }
  }

  async violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    if (vehicleUuids.length === 0) return out;
    const rows = await this.db.query<{ v: string; t: number }>(
      `SELECT DISTINCT ON (n.vehicle_id, n.data->>'dedupe_key') v.uuid::text AS v,
              (extract(epoch FROM n.device_created_at) * 1000)::float8 AS t
       FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id
       WHERE v.uuid = ANY($1::uuid[]) AND n.type IN ('overspeed', 'violation_output', 'emergency_button')
         AND n.device_created_at >= to_timestamp($2 / 1000.0) AND n.device_created_at < to_timestamp($3 / 1000.0)`,
      [vehicleUuids, from, to],
    );
    for (const r of rows) {
      const list = out.get(r.v) ?? [];
      list.push(Math.round(r.t));
      out.set(r.v, list);
    }
    return out;
  }

  async violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]> {
    const rows = await this.db.query<{ t: number }>(
      `SELECT DISTINCT ON (n.data->>'dedupe_key') (extract(epoch FROM n.device_created_at) * 1000)::float8 AS t
       FROM notifications n JOIN vehicles v ON v.id = n.vehicle_id
       WHERE v.uuid = $1 AND n.type IN ('overspeed', 'violation_output', 'emergency_button')
         AND n.device_created_at >= to_timestamp($2 / 1000.0) AND n.device_created_at < to_timestamp($3 / 1000.0)`,
      [vehicleUuid, from, to],
    );
    return rows.map((r) => Math.round(r.t));
  }

  async insertGeofenceEvents(companyUuid: string, events: readonly GeofenceEvent[]): Promise<number> {
    let inserted = 0;
    for (const e of events) {
      // A replayed event (same vehicle, fence, time and kind) is a no-op against the unique index of
      // migration 0014.
      const rows = await this.db.query(
        `INSERT INTO geofence_events (company_id, vehicle_id, geofence_id, kind, at, data)
         SELECT c.id, v.id, g.id, $4, to_timestamp($5 / 1000.0),
                jsonb_build_object('geofence_uuid', g.uuid, 'geofence_name', g.name) || $6::jsonb
         FROM transport_companies c JOIN vehicles v ON v.uuid = $2 AND v.company_id = c.id
         JOIN geofences g ON g.uuid = $3 AND g.company_id = c.id
         WHERE c.uuid = $1
         ON CONFLICT (vehicle_id, geofence_id, at, kind) DO NOTHING
         RETURNING id`,
        [
          companyUuid,
          e.vehicleId,
          e.geofenceId,
          e.kind,
          e.time,
          JSON.stringify({
            latitude: e.lat,
            longitude: e.lon,
            speed: 0,
            dwell_seconds: e.dwellS === undefined ? null : Math.round(e.dwellS),
            ...(e.enteredAt !== undefined ? { entered_at: new Date(e.enteredAt).toISOString() } : {}),
          }),
        ],
      );
      inserted += rows.length;
    }
    return inserted;
  }

  async insertSalikEvents(companyUuid: string, crossings: readonly SalikCrossing[]): Promise<number> {
    let inserted = 0;
    for (const c of crossings) {
      // The crossing id is vehicle:gate:time, the key of the unique index of migration 0014: a replayed
      // crossing (or two nodes racing) inserts nothing.
      const rows = await this.db.query(
        `INSERT INTO salik_events (company_id, vehicle_id, gate, direction, fee, at, data)
         SELECT c.id, v.id, $3, $4, $5, to_timestamp($6 / 1000.0), $7::jsonb
         FROM transport_companies c JOIN vehicles v ON v.uuid = $2 AND v.company_id = c.id
         WHERE c.uuid = $1
         ON CONFLICT (vehicle_id, gate, at) DO NOTHING
         RETURNING id`,
        [
          companyUuid,
          c.vehicleId,
          c.gateCode,
          c.directionName,
          c.fee,
          c.time,
          JSON.stringify({
            crossing_id: c.id,
            gate_uuid: gateUuid(c.gateCode, c.direction),
            gate_code: c.gateCode,
            gate_name: c.gateNameEn,
            gate_name_ar: c.gateNameAr,
            bearing: c.bearing,
            direction: c.direction,
            latitude: c.lat,
            longitude: c.lon,
            currency: c.currency,
            charged: c.fee > 0,
            linked_to: c.linkedTo ?? null,
            tariff: c.tariff,
          }),
        ],
      );
      inserted += rows.length;
    }
    return inserted;
  }

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

  async scheduledTrips(companyUuid: string): Promise<ScheduledTripDef[]> {
    const trips = await this.db.query<{
      id: number;
      uuid: string;
      name: string;
      type: string;
      departure_time: string;
      return_time: string | null;
      data: Record<string, unknown>;
      vehicle_uuid: string | null;
      driver_uuid: string | null;
    }>(
      `SELECT t.id, t.uuid, t.name, t.type, t.departure_time, t.return_time, t.data, v.uuid AS vehicle_uuid, d.uuid AS driver_uuid
       FROM scheduled_trips t JOIN transport_companies c ON c.id = t.company_id
       LEFT JOIN vehicles v ON v.id = t.vehicle_id LEFT JOIN drivers d ON d.id = t.driver_id
       WHERE c.uuid = $1 AND t.status = 'active' ORDER BY t.id`,
      [companyUuid],
    );
    const out: ScheduledTripDef[] = [];
    for (const t of trips) {
      const stops = await this.db.query<{
        uuid: string;
        name: string;
        latitude: number;
        longitude: number;
        offset: number;
        passengers: string[];
      }>(
        `SELECT s.uuid, s.name, s.latitude, s.longitude, s.arrival_offset_minutes AS offset,
                ARRAY(SELECT p.uuid::text FROM scheduled_trip_passengers j JOIN passengers p ON p.id = j.passenger_id
                      WHERE j.stop_id = s.id ORDER BY p.id) AS passengers
         FROM scheduled_trip_stops s WHERE s.scheduled_trip_id = $1 ORDER BY s.position`,
        [t.id],
      );
      if (stops.length === 0) continue;
      // The leg ends at the last stop's expected arrival (at least 30 minutes after departure).
      const span = Math.max(30, ...stops.map((s) => s.offset));
      const plus = (hhmm: string) => {
        const [h, m] = hhmm.slice(0, 5).split(':').map(Number);
        const total = ((h ?? 0) * 60 + (m ?? 0) + span) % 1440;
        return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
      };
      const days = Array.isArray(t.data.days_of_week)
        ? (t.data.days_of_week as number[]).map((d) => d % 7)
        : undefined;
      const round = t.type === 'round' && t.return_time;
      out.push({
        id: t.uuid,
        companyId: companyUuid,
        name: t.name,
        type: round ? 'round' : 'one_way',
        departure: { startTime: t.departure_time.slice(0, 5), endTime: plus(t.departure_time) },
        ...(round
          ? { return: { startTime: t.return_time!.slice(0, 5), endTime: plus(t.return_time!) } }
          : {}),
        ...(days ? { days } : {}),
        ...(typeof t.data.start_date === 'string' ? { validFrom: t.data.start_date } : {}),
        ...(typeof t.data.end_date === 'string' ? { validTo: t.data.end_date } : {}),
        stops: stops.map((s) => ({
          id: s.uuid,
          name: s.name,
          lat: s.latitude,
          lon: s.longitude,
          passengerIds: s.passengers,
        })),
        ...(t.vehicle_uuid ? { vehicleId: t.vehicle_uuid } : {}),
        ...(t.driver_uuid ? { driverId: t.driver_uuid } : {}),
      });
    }
    return out;
  }

  async saveTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      const data = SqlPipelineStore.instanceData(i, 0);
      const updated = await this.db.query<{ id: number }>(
        `UPDATE trips SET status = $2, end_at = $3::timestamptz, updated_at = now(),
           data = data || $4::jsonb || jsonb_build_object('rev', coalesce((data->>'rev')::int, 0) + 1)
         WHERE data->>'instance_id' = $1 AND status IN ('pending', 'delayed', 'started') RETURNING id`,
        [i.id, i.status, i.endedAt ? new Date(i.endedAt).toISOString() : null, data],
      );
      if (updated.length) continue;
      await this.insertInstance(i, data);
    }
  }

  /**
   * Inserts the trip row of an instance (from its scheduled trip). The unique index on
   * data->>'instance_id' (migration 0011) makes a concurrent second insert a no-op.
   */
  private async insertInstance(i: TripInstance, data: string): Promise<void> {
    await this.db.query(
      `INSERT INTO trips (company_id, sub_company_id, branch_id, school_id, name, status, vehicle_id, driver_id,
         scheduled_trip_id, start_at, end_at, data)
       SELECT t.company_id, t.sub_company_id, t.branch_id, t.school_id, t.name, $2, t.vehicle_id, t.driver_id, t.id,
              $3::timestamptz, $4::timestamptz, $5::jsonb
       FROM scheduled_trips t WHERE t.uuid = $1
       ON CONFLICT ((data->>'instance_id')) WHERE data ? 'instance_id' DO NOTHING`,
      [
        i.tripId,
        i.status,
        new Date(i.plannedStart).toISOString(),
        i.endedAt ? new Date(i.endedAt).toISOString() : null,
        data,
      ],
    );
  }

  /** The columns and data fields of a stored instance (the full instance is kept in `data.instance`). */
  private static instanceData(i: TripInstance, rev: number): string {
    return JSON.stringify({
      instance_id: i.id,
      leg: i.leg,
      date: i.date,
      late: i.late,
      incomplete: i.incomplete,
      reached: i.reached,
      instance: i,
      rev,
    });
  }

  async createTripInstances(instances: readonly TripInstance[]): Promise<void> {
    for (const i of instances) {
      // A row of an older version (no `data.instance`) gets the instance, with its stored status.
      const upgraded = await this.db.query<{ id: number }>(
        `UPDATE trips SET data = data || jsonb_build_object('rev', 0, 'instance', $2::jsonb || jsonb_build_object(
             'status', status, 'late', coalesce((data->>'late')::boolean, false),
             'incomplete', coalesce((data->>'incomplete')::boolean, false),
             'reached', coalesce(data->'reached', '{}'::jsonb)))
         WHERE data->>'instance_id' = $1 AND NOT data ? 'instance' RETURNING id`,
        [i.id, JSON.stringify(i)],
      );
      if (upgraded.length) continue;
      await this.insertInstance(i, SqlPipelineStore.instanceData(i, 0));
    }
  }

  private static storedInstances(
    rows: { instance: TripInstance | string; rev: number }[],
  ): StoredTripInstance[] {
    return rows.map((r) => ({
      instance: typeof r.instance === 'string' ? (JSON.parse(r.instance) as TripInstance) : r.instance,
      rev: r.rev,
    }));
  }

  async tripInstancesSince(companyUuid: string, sinceMs: number): Promise<StoredTripInstance[]> {
    const rows = await this.db.query<{ instance: TripInstance; rev: number }>(
      `SELECT t.data->'instance' AS instance, coalesce((t.data->>'rev')::int, 0) AS rev
       FROM trips t JOIN transport_companies c ON c.id = t.company_id
       WHERE c.uuid = $1 AND t.data ? 'instance' AND t.start_at >= to_timestamp($2 / 1000.0)
       ORDER BY t.start_at, t.id`,
      [companyUuid, sinceMs],
    );
    return SqlPipelineStore.storedInstances(rows);
  }

  async openVehicleTripInstances(vehicleUuid: string): Promise<StoredTripInstance[]> {
    const rows = await this.db.query<{ instance: TripInstance; rev: number }>(
      `SELECT t.data->'instance' AS instance, coalesce((t.data->>'rev')::int, 0) AS rev
       FROM trips t JOIN vehicles v ON v.id = t.vehicle_id
       WHERE v.uuid = $1 AND t.status IN ('pending', 'delayed', 'started') AND t.data ? 'instance'
       ORDER BY t.start_at, t.id`,
      [vehicleUuid],
    );
    return SqlPipelineStore.storedInstances(rows);
  }

  async openTripVehicles(companyUuid: string): Promise<string[]> {
    const rows = await this.db.query<{ uuid: string }>(
      `SELECT DISTINCT v.uuid FROM trips t JOIN vehicles v ON v.id = t.vehicle_id
       JOIN transport_companies c ON c.id = t.company_id
       WHERE c.uuid = $1 AND t.status IN ('pending', 'delayed', 'started') AND t.data ? 'instance'`,
      [companyUuid],
    );
    return rows.map((r) => r.uuid);
  }

  async updateTripInstance(i: TripInstance, rev: number): Promise<boolean> {
    const rows = await this.db.query<{ id: number }>(
      `UPDATE trips SET status = $2, end_at = $3::timestamptz, data = data || $4::jsonb, updated_at = now()
       WHERE data->>'instance_id' = $1 AND coalesce((data->>'rev')::int, 0) = $5 RETURNING id`,
      [
        i.id,
        i.status,
        i.endedAt ? new Date(i.endedAt).toISOString() : null,
        SqlPipelineStore.instanceData(i, rev + 1),
        rev,
      ],
    );
    return rows.length > 0;
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

  async loadDeviceStates(deviceUuids: readonly string[]): Promise<Map<string, unknown>> {
    if (deviceUuids.length === 0) return new Map();
    const rows = await this.db.query<{ device_uuid: string; state: unknown }>(
      `SELECT device_uuid::text AS device_uuid, state FROM pipeline_device_state
       WHERE device_uuid = ANY($1::uuid[])`,
      [deviceUuids],
    );
    return new Map(
      rows.map((r) => [r.device_uuid, typeof r.state === 'string' ? JSON.parse(r.state) : r.state]),
    );
  }

  async saveDeviceStates(
    rows: readonly { deviceUuid: string; lastTime: number | null; state: unknown }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO pipeline_device_state (device_uuid, last_time, state)
       SELECT u, t, s FROM unnest($1::uuid[], $2::float8[], $3::jsonb[]) AS x(u, t, s)
       ON CONFLICT (device_uuid) DO UPDATE SET last_time = EXCLUDED.last_time, state = EXCLUDED.state,
         updated_at = now()
       WHERE pipeline_device_state.last_time IS NULL OR EXCLUDED.last_time IS NULL
          OR pipeline_device_state.last_time <= EXCLUDED.last_time`,
      [rows.map((r) => r.deviceUuid), rows.map((r) => r.lastTime), rows.map((r) => JSON.stringify(r.state))],
    );
  }

  private async vehicleId(uuid: string | null): Promise<number | null> {
    if (!uuid) return null;
    const [v] = await this.db.query<{ id: number }>('SELECT id FROM vehicles WHERE uuid = $1', [uuid]);
    return v?.id ?? null;
  }
}

/** Geofence geometry of the API contract -> engine shape (null when unreadable). */
export function toShape(g: {
  shape: string;
  center?: { latitude: number; longitude: number };
  radius?: number;
  points?: { latitude: number; longitude: number }[];
}): GeofenceShape | null {
  if (g.shape === 'circle' && g.center && typeof g.radius === 'number') {
    return { kind: 'circle', lat: g.center.latitude, lon: g.center.longitude, radiusM: g.radius };
  }
  if (g.shape === 'polygon' && Array.isArray(g.points) && g.points.length >= 3) {
    return { kind: 'polygon', rings: [g.points.map((p) => [p.latitude, p.longitude] as const)] };
  }
  return null;
}

/** The API gate record a crossing belongs to (gates from the API already carry their uuid as code). */
export function gateUuid(code: string, direction: 'forward' | 'reverse'): string {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(code)
    ? code
    : nameUuid(`${code}:${direction}`);
}
