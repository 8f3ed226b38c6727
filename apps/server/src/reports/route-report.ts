import type { Queryable } from '../storage/db';
import { scopeSql } from '../entities/scope';
import type { Tenant } from '../tenancy/context';
import { fieldError } from '../http/errors';
import { answer, page, round, VEHICLE_SUMMARY, type Cursor, type ReportRange, type SeekKey } from './queries';

/**
 * Route report: the stored positions of ONE vehicle over [from, to), oldest first, from `locations`
 * (the only report that reads positions: it is a list of them). Invalid fixes (flagged by the gateway)
 * and fixes without coordinates are left out. The vehicle must be inside the tenant's scope; another
 * company's vehicle reads as an empty route, never as its positions.
 *
 * GPX 1.1 and KML 2.2 files of the same positions are written as a stream of pages (ROUTE_FILE_PAGE
 * rows at a time), so a long route never sits in memory whole.
 */
export const ROUTE_FILE_PAGE = 2_000;

interface Point {
  at: Date | string;
  latitude: number;
  longitude: number;
  speed: number | null;
  course: number | null;
  altitude: number | null;
  ignition: boolean | null;
}

const needVehicle = () => fieldError('vehicle_uuid', 'Vehicle is required');

async function vehicleOf(db: Queryable, tenant: Tenant, uuid: string) {
  const params: unknown[] = [];
  const scope = scopeSql('vehicles', 'v', tenant, params);
  const [v] = await db.query<{ id: number; vehicle: unknown; plate: string }>(
    `SELECT v.id, ${VEHICLE_SUMMARY} AS vehicle, v.license_plate_number AS plate FROM vehicles v
     WHERE ${scope} AND v.uuid = $${params.push(uuid)}`,
    params,
  );
  return v ?? null;
}

async function points(
  db: Queryable,
  vehicleId: number,
  companyId: number,
  from: string,
  to: string,
  limit: number,
  offset: number,
  after?: Cursor | null,
): Promise<(Point & { seek_0: string; seek_1: number })[]> {
  // A seek starts at the cursor's time (the index's column) and skips the fixes of that instant read.
  return db.query<Point & { seek_0: string; seek_1: number }>(
    `SELECT fix_time AS at, latitude, longitude, speed, course, altitude, ignition,
            fix_time::text AS seek_0, device_id AS seek_1 FROM locations
     WHERE vehicle_id = $1 AND company_id = $2 AND fix_time >= $3::timestamptz AND fix_time < $4::timestamptz
       AND valid AND latitude IS NOT NULL AND longitude IS NOT NULL
       ${after ? 'AND (fix_time, device_id) > ($3::timestamptz, $7::bigint)' : ''}
     ORDER BY fix_time, device_id LIMIT $5 OFFSET $6`,
    [vehicleId, companyId, after ? after[0] : from, to, limit, offset, ...(after ? [after[1]] : [])],
  );
}

/** Positions by fix time, then device (the primary key is (device_id, fix_time)). */
const ROUTE_ORDER: readonly SeekKey[] = [{ sql: 'fix_time', cast: 'timestamptz' }, { sql: 'device_id' }];

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function routeReport(db: Queryable, tenant: Tenant, q: ReportRange) {
  if (!q.vehicle_uuid) throw needVehicle();
  const v = await vehicleOf(db, tenant, q.vehicle_uuid);
  if (!v) return q.seek ? { ...page([], 0, q), next: null } : page([], 0, q);
  const [c] = q.seek
    ? [{ n: 0 }]
    : await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM locations
         WHERE vehicle_id = $1 AND company_id = $2 AND fix_time >= $3::timestamptz AND fix_time < $4::timestamptz
           AND valid AND latitude IS NOT NULL AND longitude IS NOT NULL`,
        [v.id, tenant.companyId, q.from, q.to],
      );
  const rows = await points(
    db,
    v.id,
    tenant.companyId,
    q.from,
    q.to,
    q.limit,
    q.seek ? 0 : (q.page - 1) * q.limit,
    q.seek?.after,
  );
  return answer(
    rows.map((p) => ({
      vehicle: v.vehicle,
      at: new Date(p.at).toISOString(),
      latitude: Number(p.latitude),
      longitude: Number(p.longitude),
      speed: num(p.speed) === null ? null : round(Number(p.speed)),
      course: num(p.course),
      altitude: num(p.altitude),
      ignition: p.ignition,
    })),
    q,
    () => c?.n ?? 0,
    rows as unknown as Record<string, unknown>[],
    ROUTE_ORDER,
  );
}

const xml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!,
  );

/**
 * The route as a GPX 1.1 or KML 2.2 document, yielded in chunks. GPX carries time, elevation, course
 * and speed (m/s, GPX's unit) per point; KML a gx:Track (when/coord pairs) Google Earth plays back.
 * Null when the vehicle is not in the tenant's scope.
 */
export async function routeFile(
  db: Queryable,
  tenant: Tenant,
  q: { from: string; to: string; vehicle_uuid: string; format: 'gpx' | 'kml' },
): Promise<{ name: string; contentType: string; chunks: AsyncGenerator<string> } | null> {
  const v = await vehicleOf(db, tenant, q.vehicle_uuid);
  if (!v) return null;
  const title = xml(`${v.plate} ${q.from} – ${q.to}`);
  async function* pages() {
    // Keyset pages: each starts after the last fix of the one before (no OFFSET re-reading the route).
    let after: Cursor | null = null;
    for (;;) {
      const rows = await points(db, v!.id, tenant.companyId, q.from, q.to, ROUTE_FILE_PAGE, 0, after);
      yield rows;
      const last = rows[rows.length - 1];
      if (rows.length < ROUTE_FILE_PAGE || !last) return;
      after = [last.seek_0, Number(last.seek_1)];
    }
  }
  async function* gpx() {
    yield `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="fleet" xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>${title}</name><trkseg>\n`;
    for await (const rows of pages()) {
      yield rows
        .map((p) => {
          const extra = [
            p.altitude === null ? '' : `<ele>${Number(p.altitude)}</ele>`,
            `<time>${new Date(p.at).toISOString()}</time>`,
            p.course === null ? '' : `<course>${Number(p.course)}</course>`,
            p.speed === null ? '' : `<speed>${round(Number(p.speed) / 3.6, 2)}</speed>`,
          ].join('');
          return `<trkpt lat="${Number(p.latitude)}" lon="${Number(p.longitude)}">${extra}</trkpt>\n`;
        })
        .join('');
    }
    yield '</trkseg></trk>\n</gpx>\n';
  }
  async function* kml() {
    yield `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">\n<Document><name>${title}</name><Placemark><name>${xml(v!.plate)}</name><gx:Track>\n`;
    // gx:Track wants every <when> before the first <gx:coord>: two passes over the pages.
    for await (const rows of pages()) {
      yield rows.map((p) => `<when>${new Date(p.at).toISOString()}</when>\n`).join('');
    }
    for await (const rows of pages()) {
      yield rows
        .map(
          (p) =>
            `<gx:coord>${Number(p.longitude)} ${Number(p.latitude)} ${Number(p.altitude ?? 0)}</gx:coord>\n`,
        )
        .join('');
    }
    yield '</gx:Track></Placemark></Document>\n</kml>\n';
  }
  const safe = v.plate.replace(/[^A-Za-z0-9_-]+/g, '_') || 'route';
  return q.format === 'gpx'
    ? { name: `route-${safe}.gpx`, contentType: 'application/gpx+xml', chunks: gpx() }
    : { name: `route-${safe}.kml`, contentType: 'application/vnd.google-earth.kml+xml', chunks: kml() };
}
