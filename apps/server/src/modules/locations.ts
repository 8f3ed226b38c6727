import type { FastifyInstance } from 'fastify';
import { vehicleStatus } from '@fleet/core';
import { JsonText, route } from '../http/route';
import { notFound } from '../http/errors';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import { containsPattern, type Queryable } from '../storage/db';
import { pageEnvelopeJson, pageMeta } from '../http/page';

/** A stored location row (locations / latest_locations). */
export interface LocationRow {
  fix_time: Date;
  latitude: number | null;
  longitude: number | null;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  satellites: number | null;
  ignition: boolean | null;
  is_idle: boolean | null;
  digital_output1: number | null;
  digital_output2: number | null;
  io_elements: Record<string, { value: number | string }> | null;
}

const bit = (v: boolean | number | null | undefined): 0 | 1 => (v === true || v === 1 ? 1 : 0);

/** Course folded into [0, 360); a course already in range is kept exactly (12.3 stays 12.3). */
const headingOf = (course: number): number =>
  course >= 0 && course < 360 ? course : ((course % 360) + 360) % 360;

/**
 * The spec's location record from a stored row: created_at is the device's fix time, ignition and
 * digital outputs are 0/1, io_elements keyed by numeric id, each {value}. Exported for the gateway
 * and pipeline, which publish the same shape over the WebSocket.
 */
export function locationView(
  r: LocationRow,
  extra: { vehicle_uuid?: string | null; device_imei?: string | null } = {},
) {
  return {
    created_at: new Date(r.fix_time).toISOString(),
    ignition: bit(r.ignition),
    is_idle: r.is_idle === true,
    latitude: r.latitude,
    longitude: r.longitude,
    speed: Math.max(0, r.speed ?? 0),
    io_elements: r.io_elements ?? {},
    digital_output1: bit(r.digital_output1),
    digital_output2: bit(r.digital_output2),
    heading: r.course === null || r.course === undefined ? null : headingOf(r.course),
    altitude: r.altitude,
    satellites: r.satellites,
    ...extra,
  };
}

/** SQL of the live status, the same rules as @fleet/core's vehicleStatus (a test keeps them equal). */
export function liveStatusSql(alias: string, nowParam: string): string {
  return `CASE WHEN ${alias}.fix_time IS NULL THEN 'no-data'
    WHEN ${alias}.fix_time < ${nowParam}::timestamptz - interval '30 days' THEN 'inactive'
    WHEN coalesce(${alias}.is_idle, false) AND NOT coalesce(${alias}.ignition, false) THEN 'idle'
    WHEN ${alias}.fix_time > ${nowParam}::timestamptz - interval '60 minutes' AND coalesce(${alias}.ignition, false) THEN 'live'
    ELSE 'offline' END`;
}

/** A vehicle of the tenant's scope with the internal ids of its devices (main and GPS), one query. */
async function vehicleDevices(db: Queryable, tenant: Tenant, uuid: string): Promise<number[]> {
  const params: unknown[] = [uuid];
  const rows = await db.query<{ ids: number[] | null }>(
    `SELECT ARRAY(SELECT d.id FROM devices d WHERE d.imei IN (v.device_imei, v.gps_device_imei) ORDER BY d.id) AS ids
     FROM vehicles v WHERE v.uuid = $1 AND ${scopeSql('vehicles', 'v', tenant, params)}`,
    params,
  );
  if (!rows[0]) throw notFound('Vehicle');
  return (rows[0].ids ?? []).map(Number);
}

/** Where a page ended: the last row's fix time in whole microseconds since 1970 (exact) and its device. */
interface PageEnd {
  us: number;
  device: number;
}

interface Walk {
  total: number;
  ends: Map<number, PageEnd>;
}

/**
 * Walks through one vehicle's locations (`page` 1, 2, 3 ... of the same range and page size).
 *
 * Page 1 always counts the range exactly. The next pages of the same walk reuse that total and
 * continue from where the previous page ended (keyset: `(fix_time, device_id) > last`), so a walk
 * costs one index range scan in all instead of a count plus an ever longer OFFSET per page, and
 * points arriving meanwhile neither shift rows between pages nor move last_page. A page asked out
 * of order (no end of page-1 remembered) falls back to OFFSET, which is the same rows when nothing
 * changed. Bounded LRU; entries are per company, so nothing is shared across tenants.
 */
export class LocationWalks {
  private readonly walks = new Map<string, { walk: Walk; at: number }>();

  constructor(
    private readonly max = 512,
    private readonly ttlMs = 120_000,
  ) {}

  get(key: string, now: number): Walk | undefined {
    const hit = this.walks.get(key);
    if (!hit) return undefined;
    this.walks.delete(key);
    if (now - hit.at > this.ttlMs) return undefined;
    hit.at = now;
    this.walks.set(key, hit);
    return hit.walk;
  }

  start(key: string, total: number, now: number): Walk {
    const walk: Walk = { total, ends: new Map() };
    this.walks.delete(key);
    this.walks.set(key, { walk, at: now });
    while (this.walks.size > this.max) this.walks.delete(this.walks.keys().next().value!);
    return walk;
  }
}

/**
 * One stored location as a line of text: the fix time in microseconds since 1970, then the columns
 * of the spec record, comma-separated (numbers and 0/1 only, NULL as nothing), and io_elements'
 * JSON last (jsonb's text never holds a raw line break, so lines split cleanly).
 */
const ROW_TEXT = `concat(floor(extract(epoch FROM fix_time) * 1000000)::bigint, ',', device_id, ',', latitude, ',',
  longitude, ',', speed, ',', course, ',', altitude, ',', satellites, ',', ignition::int, ',', is_idle::int, ',',
  digital_output1, ',', digital_output2, ',', io_elements)`;
const PAGE_COLS =
  'fix_time, device_id, latitude, longitude, speed, course, altitude, satellites, ignition, is_idle, digital_output1, digital_output2, io_elements';

/**
 * A number as PostgreSQL printed it, which is already JSON (digits, '-', '.', 'e'), or null for
 * NULL (empty), NaN and the infinities: those are the only texts not starting with a digit or '-'
 * followed by a digit.
 */
function numberOrNull(text: string): string {
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57) return text;
  if (c === 45) {
    const d = text.charCodeAt(1);
    if (d >= 48 && d <= 57) return text;
  }
  return 'null';
}

const DAY_MS = 86_400_000;
const pad2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const pad3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
let isoDay = Number.NaN;
let isoDayPrefix = '';

/**
 * `new Date(ms).toISOString()`, for the hot loop of a page: the date part is reused while the day
 * stays the same (a page is at most a few days), the time written from lookup tables.
 */
function isoOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  // Years 0000-9999 only; others take toISOString's extended form.
  if (day < -62_167_219_200_000 || day >= 253_402_300_800_000) return new Date(ms).toISOString();
  if (day !== isoDay) {
    isoDay = day;
    isoDayPrefix = new Date(day).toISOString().slice(0, 11);
  }
  let rest = ms - day;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  return `${isoDayPrefix}${pad2[h]}:${pad2[m]}:${pad2[sec]}.${pad3[rest - sec * 1000]}Z`;
}

/**
 * The spec's location records (the same fields, order and rules as `locationView`) written straight
 * from the page's lines as JSON text. Building 500 objects to serialise them again cost more than the
 * database spent on the page; this is a single pass of string slicing.
 */
export function pageJson(
  lines: string,
  extra: string,
): { json: string; count: number; last: PageEnd | undefined } {
  if (!lines) return { json: '[]', count: 0, last: undefined };
  const out: string[] = [];
  let us = 0;
  let device = 0;
  let pos = 0;
  const f: string[] = new Array<string>(12);
  while (pos < lines.length) {
    let eol = lines.indexOf('\n', pos);
    if (eol < 0) eol = lines.length;
    let at = pos;
    for (let i = 0; i < 12; i++) {
      const comma = lines.indexOf(',', at);
      f[i] = lines.slice(at, comma);
      at = comma + 1;
    }
    const io = at < eol ? lines.slice(at, eol) : '{}';
    pos = eol + 1;
    us = Number(f[0]);
    device = Number(f[1]);
    const speed = numberOrNull(f[4]!);
    const course = numberOrNull(f[5]!);
    const n = Number(course);
    const heading = course === 'null' ? 'null' : n >= 0 && n < 360 ? course : String(headingOf(n));
    out.push(
      `{"created_at":"${isoOf(Math.floor(us / 1000))}","ignition":${f[8] === '1' ? 1 : 0},"is_idle":${f[9] === '1'},` +
        `"latitude":${numberOrNull(f[2]!)},"longitude":${numberOrNull(f[3]!)},` +
        `"speed":${speed === 'null' || speed.charCodeAt(0) === 45 ? 0 : speed},"io_elements":${io},` +
        `"digital_output1":${f[10] === '1' ? 1 : 0},"digital_output2":${f[11] === '1' ? 1 : 0},"heading":${heading},` +
        `"altitude":${numberOrNull(f[6]!)},"satellites":${numberOrNull(f[7]!)}${extra}}`,
    );
  }
  return { json: `[${out.join(',')}]`, count: out.length, last: { us, device } };
}

/**
 * One page of the devices' locations, oldest first, ordered by (fix_time, device_id), plus the
 * exact count of the range when `count` is set, in one statement. Each device is its own branch
 * so its primary key (device_id, fix_time) delivers the rows in order: no sort of the whole range,
 * and with `after` an index seek straight to the page.
 *
 * The page comes back as one text of lines (ROW_TEXT) rather than 500 rows: on PGlite decoding 500
 * rows of 13 columns in JavaScript costs several times what the database spends printing them, and
 * the answer is then written from that text directly (pageJson).
 */
async function locationPage(
  db: Queryable,
  ids: number[],
  range: { from?: string | undefined; to?: string | undefined },
  limit: number,
  after: PageEnd | undefined,
  offset: number,
  count: boolean,
): Promise<{ lines: string; total: number | null }> {
  const params: unknown[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  // Records stored flagged (valid = false: fix time in the future or before the device's installation,
  // gateway/records.ts and gateway/hygiene.ts) are raw only: never part of a vehicle's route history.
  const inRange = () =>
    ' AND valid' +
    (range.from ? ` AND fix_time >= ${p(range.from)}` : '') +
    (range.to ? ` AND fix_time <= ${p(range.to)}` : '');
  const where = (device: number) => {
    let cond = `device_id = ${p(device)}${inRange()}`;
    if (after) {
      // (fix_time, device_id) > (after, after.device), written per device branch; the bound is
      // rebuilt exactly from whole microseconds (timestamps are integers of microseconds).
      const op = device > after.device ? '>=' : '>';
      cond += ` AND fix_time ${op} timestamptz 'epoch' + ${p(String(after.us))}::bigint * interval '1 microsecond'`;
    }
    return cond;
  };
  const skip = after ? '' : ` OFFSET ${p(offset)}`;
  let page: string;
  if (ids.length === 1) {
    page = `SELECT ${PAGE_COLS} FROM locations WHERE ${where(ids[0]!)} ORDER BY fix_time LIMIT ${p(limit)}${skip}`;
  } else {
    // Each branch needs at most offset + limit rows; the merge keeps the global order.
    const take = p(limit + (after ? 0 : offset));
    const branches = ids.map(
      (d) => `(SELECT ${PAGE_COLS} FROM locations WHERE ${where(d)} ORDER BY fix_time LIMIT ${take})`,
    );
    page = `SELECT * FROM (${branches.join(' UNION ALL ')}) u ORDER BY fix_time, device_id LIMIT ${p(limit)}${skip}`;
  }
  const counted = count
    ? `, (SELECT count(*)::int FROM locations WHERE device_id = ANY(${p(ids)}::bigint[])${inRange()}) AS n`
    : '';
  const [r] = await db.query<{ page: string | null; n?: number }>(
    `SELECT (SELECT string_agg(${ROW_TEXT}, E'\\n') FROM (${page}) x) AS page${counted}`,
    params,
  );
  return { lines: r?.page ?? '', total: count ? (r?.n ?? 0) : null };
}

export function registerLocationRoutes(app: FastifyInstance): void {
  const db = app.ctx.storage.db;
  const walks = new LocationWalks();

  route(
    app,
    'deviceLocations.vehicle',
    async ({ query, tenant }) => {
      const ids = await vehicleDevices(db, tenant, query.vehicle_uuid);
      const range = { from: query.from, to: query.to };
      const { page, limit } = query;
      const key = `${tenant.companyId}|${ids.join(',')}|${query.from ?? ''}|${query.to ?? ''}|${limit}`;
      const now = Date.now();
      const offset = (page - 1) * limit;
      let walk = page > 1 ? walks.get(key, now) : undefined;
      let lines = '';
      if (!ids.length) walk ??= walks.start(key, 0, now);
      else if (walk) {
        if (offset < walk.total)
          ({ lines } = await locationPage(db, ids, range, limit, walk.ends.get(page - 1), offset, false));
      } else {
        const r = await locationPage(db, ids, range, limit, undefined, offset, true);
        lines = r.lines;
        walk = walks.start(key, r.total ?? 0, now);
      }
      const { json, last } = pageJson(lines, `,"vehicle_uuid":${JSON.stringify(query.vehicle_uuid)}`);
      if (last) walk.ends.set(page, last);
      return new JsonText(pageEnvelopeJson(json, walk.total, { page, limit }));
    },
    { permission: 'vehicles.view', trustedResponse: true },
  );

  route(
    app,
    'vehicles.live',
    async ({ query, tenant }) => {
      const now = app.ctx.now();
      const params: unknown[] = [now.toISOString()];
      const where = [scopeSql('vehicles', 'v', tenant, params)];
      if (query.search) {
        params.push(containsPattern(query.search));
        where.push(
          `(v.license_plate_number ILIKE $${params.length} OR v.device_imei ILIKE $${params.length})`,
        );
      }
      if (query.type) {
        params.push(query.type);
        where.push(`v.type = $${params.length}`);
      }
      for (const [key, table, col] of [
        ['branch_uuid', 'branches', 'branch_id'],
        ['school_uuid', 'schools', 'school_id'],
        ['station_uuid', 'sub_companies', 'sub_company_id'],
      ] as const) {
        const value = query[key];
        if (value) {
          params.push(value);
          where.push(`v.${col} = (SELECT id FROM ${table} WHERE uuid = $${params.length})`);
        }
      }
      const base = `SELECT v.*, l.fix_time, l.latitude, l.longitude, l.speed, l.course, l.altitude, l.satellites, l.ignition,
          l.is_idle, l.digital_output1, l.digital_output2, l.io_elements, ${liveStatusSql('l', '$1')} AS live_status
        FROM vehicles v
        LEFT JOIN LATERAL (SELECT ll.* FROM latest_locations ll JOIN devices d ON d.id = ll.device_id
                           WHERE d.imei IN (v.device_imei, v.gps_device_imei) ORDER BY ll.fix_time DESC LIMIT 1) l ON true
        WHERE ${where.join(' AND ')}`;
      const counts = await db.query<{ live_status: string; n: number }>(
        `SELECT live_status, count(*)::int AS n FROM (${base}) x GROUP BY live_status`,
        params,
      );
      const tally = { all: 0, live: 0, idle: 0, offline: 0, inactive: 0, 'no-data': 0 } as Record<
        string,
        number
      >;
      for (const c of counts) {
        tally[c.live_status] = c.n;
        tally.all! += c.n;
      }
      const filter =
        query.live_status === 'all' ? '' : `WHERE live_status = $${params.push(query.live_status)}`;
      const sorts: Record<string, string> = {
        license_plate_number: 'license_plate_number',
        created_at: 'created_at',
        fix_time: 'fix_time',
        speed: 'speed',
      };
      const sort = sorts[query.sort ?? 'license_plate_number'] ?? 'license_plate_number';
      params.push(query.limit, (query.page - 1) * query.limit);
      const rows = await db.query<
        LocationRow & {
          uuid: string;
          license_plate_number: string;
          type: string;
          make: string | null;
          model: string | null;
          status: string;
          device_imei: string | null;
          gps_device_imei: string | null;
          data: Record<string, unknown>;
          driver_id: number | null;
          live_status: string;
        }
      >(
        `SELECT x.*, (SELECT jsonb_build_object('uuid', dr.uuid, 'name', trim(dr.first_name || ' ' || dr.last_name))
                      FROM drivers dr WHERE dr.id = x.driver_id) AS driver
         FROM (${base}) x ${filter}
         ORDER BY ${sort} ${query.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, id
         LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      const total = query.live_status === 'all' ? tally.all! : (tally[query.live_status] ?? 0);
      return {
        data: rows.map((r) => {
          const location = r.fix_time
            ? locationView(r, { vehicle_uuid: r.uuid, device_imei: r.device_imei })
            : null;
          const status = vehicleStatus(location, now);
          return {
            uuid: r.uuid,
            license_plate_number: r.license_plate_number,
            license_plate_state_code: (r.data.license_plate_state_code as string | undefined) ?? null,
            license_plate_category: (r.data.license_plate_category as string | undefined) ?? null,
            type: r.type as 'car',
            make: r.make,
            model: r.model,
            status: r.status as 'active',
            device_imei: r.device_imei,
            gps_device_imei: r.gps_device_imei,
            driver: (r as unknown as { driver: { uuid: string; name: string } | null }).driver,
            location,
            live_status: status,
            // Minutes since the last report while idle (the pipeline's idle periods are finer).
            idle_minutes:
              status === 'idle' && r.fix_time
                ? Math.max(0, Math.floor((now.getTime() - new Date(r.fix_time).getTime()) / 60_000))
                : null,
          };
        }),
        ...pageMeta(total, query),
        counts: tally as {
          all: number;
          live: number;
          idle: number;
          offline: number;
          inactive: number;
          'no-data': number;
        },
      };
    },
    // Every field is built here (no row spread). The zod parse of the answer was its largest
    // allocation: ~550 MB a minute in bench:soak, which reads all 1,000 vehicles once a second.
    { permission: 'vehicles.view', trustedResponse: true },
  );
}
