import type { ReportKind } from '@fleet/api-client';

/**
 * A report page turned into a plain table for the export writers: a title, localized column headers and
 * cells that are strings, numbers or null. Times are written in the requester's zone as
 * `YYYY-MM-DD HH:mm` (what a spreadsheet user reads), numbers stay numbers.
 *
 * Series (fuel level, RPM and temperature charts) are not exported: the tables carry the summary figures
 * of each vehicle, and refuels/drops as counts and litres.
 */
export type Cell = string | number | null;
export type Locale = 'en' | 'ar';

export interface ExportTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: Cell[][];
  readonly rtl: boolean;
}

type Row = Record<string, unknown>;
interface Column {
  readonly en: string;
  readonly ar: string;
  readonly get: (row: Row, fmt: Formatter) => Cell;
}

interface Formatter {
  time(iso: unknown): Cell;
}

const plate = (r: Row) => {
  const v = r.vehicle as
    { license_plate_number?: string; license_plate_state_code?: string | null } | undefined;
  return [v?.license_plate_state_code, v?.license_plate_number].filter(Boolean).join(' ') || null;
};
const n = (k: string) => (r: Row) => (r[k] === null || r[k] === undefined ? null : Number(r[k]));
const s = (k: string) => (r: Row) => (r[k] === null || r[k] === undefined ? null : String(r[k]));
const t = (k: string) => (r: Row, f: Formatter) => f.time(r[k]);
const events = (k: string, what: 'count' | 'litres') => (r: Row) => {
  const list = (r[k] as { litres: number }[] | undefined) ?? [];
  return what === 'count' ? list.length : Math.round(list.reduce((a, e) => a + e.litres, 0) * 10) / 10;
};

const vehicle: Column = { en: 'Vehicle', ar: 'المركبة', get: plate };
const driverName = (r: Row) => (r.driver as { name?: string } | null | undefined)?.name ?? null;
const coord = (k: string, which: 'latitude' | 'longitude') => (r: Row) => {
  const p = r[k] as { latitude: number; longitude: number } | null | undefined;
  return p ? p[which] : null;
};
/** Seconds as hours with two decimals (what the on-screen reports show). */
const hours = (k: string) => (r: Row) =>
  r[k] === null || r[k] === undefined ? null : Math.round((Number(r[k]) / 3600) * 100) / 100;
const stopColumns: Column[] = [
  vehicle,
  { en: 'Start', ar: 'البداية', get: t('started_at') },
  { en: 'End', ar: 'النهاية', get: t('ended_at') },
  { en: 'Minutes', ar: 'الدقائق', get: n('duration_minutes') },
  { en: 'Latitude', ar: 'خط العرض', get: n('latitude') },
  { en: 'Longitude', ar: 'خط الطول', get: n('longitude') },
  { en: 'Address', ar: 'العنوان', get: s('address') },
];

export const reportColumns: Record<ReportKind, { en: string; ar: string; columns: Column[] }> = {
  fuel: {
    en: 'Fuel report',
    ar: 'تقرير الوقود',
    columns: [
      vehicle,
      { en: 'Fuel used (L)', ar: 'الوقود المستهلك (لتر)', get: n('fuel_used_litres') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'L/100 km', ar: 'لتر/100 كم', get: n('consumption_per_100km') },
      { en: 'L/hour', ar: 'لتر/ساعة', get: n('consumption_per_hour') },
      { en: 'Refuels', ar: 'مرات التزود', get: events('refuels', 'count') },
      { en: 'Refuelled (L)', ar: 'كمية التزود (لتر)', get: events('refuels', 'litres') },
      { en: 'Drops', ar: 'مرات الانخفاض', get: events('drops', 'count') },
      { en: 'Dropped (L)', ar: 'كمية الانخفاض (لتر)', get: events('drops', 'litres') },
    ],
  },
  engine: {
    en: 'Engine report',
    ar: 'تقرير المحرك',
    columns: [
      vehicle,
      { en: 'Engine hours', ar: 'ساعات تشغيل المحرك', get: n('engine_hours') },
      { en: 'Max RPM', ar: 'أقصى دورات', get: n('max_rpm') },
      { en: 'Over-revving', ar: 'تجاوز الدورات', get: n('over_rev_events') },
      { en: 'Max temperature (°C)', ar: 'أعلى حرارة (°م)', get: n('max_temperature') },
    ],
  },
  wheel: {
    en: 'Wheel report',
    ar: 'تقرير الإطارات',
    columns: [
      vehicle,
      {
        en: 'Tyres (kPa / °C)',
        ar: 'الإطارات (كيلوباسكال / °م)',
        get: (r) =>
          (
            (r.tyres as { position: string; pressure_kpa: number | null; temperature_c: number | null }[]) ??
            []
          )
            .map((x) => `${x.position} ${x.pressure_kpa ?? '-'}/${x.temperature_c ?? '-'}`)
            .join(', ') || null,
      },
    ],
  },
  trips: {
    en: 'Trips report',
    ar: 'تقرير الرحلات',
    columns: [
      vehicle,
      { en: 'Trips', ar: 'الرحلات', get: n('trips') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'Driving (s)', ar: 'القيادة (ث)', get: n('driving_seconds') },
      { en: 'Idle (s)', ar: 'التوقف مع التشغيل (ث)', get: n('idle_seconds') },
      { en: 'Max speed (km/h)', ar: 'أقصى سرعة (كم/س)', get: n('max_speed') },
      { en: 'Average speed (km/h)', ar: 'متوسط السرعة (كم/س)', get: n('average_speed') },
    ],
  },
  stops: { en: 'Stops report', ar: 'تقرير التوقفات', columns: stopColumns },
  idling: { en: 'Idling report', ar: 'تقرير التباطؤ', columns: stopColumns },
  'geofence-visits': {
    en: 'Geofence visits',
    ar: 'زيارات المناطق الجغرافية',
    columns: [
      vehicle,
      { en: 'Geofence', ar: 'المنطقة', get: s('geofence_name') },
      { en: 'Entered', ar: 'الدخول', get: t('entered_at') },
      { en: 'Exited', ar: 'الخروج', get: t('exited_at') },
      { en: 'Dwell (s)', ar: 'مدة البقاء (ث)', get: n('dwell_seconds') },
    ],
  },
  salik: {
    en: 'Salik report',
    ar: 'تقرير سالك',
    columns: [
      vehicle,
      { en: 'Crossings', ar: 'العبور', get: n('crossings') },
      { en: 'Charged', ar: 'المدفوعة', get: n('charged_crossings') },
      { en: 'Total fee', ar: 'إجمالي الرسوم', get: n('total_fee') },
      { en: 'Currency', ar: 'العملة', get: s('currency') },
    ],
  },
  violations: {
    en: 'Violations report',
    ar: 'تقرير المخالفات',
    columns: [
      vehicle,
      { en: 'Kind', ar: 'النوع', get: s('kind') },
      { en: 'Time', ar: 'الوقت', get: t('occurred_at') },
      { en: 'Value', ar: 'القيمة', get: (r) => (r.value as Cell) ?? null },
    ],
  },
  'trip-list': {
    en: 'Trips',
    ar: 'الرحلات',
    columns: [
      vehicle,
      { en: 'Driver', ar: 'السائق', get: driverName },
      { en: 'Start', ar: 'البداية', get: t('started_at') },
      { en: 'Start latitude', ar: 'خط عرض البداية', get: coord('start', 'latitude') },
      { en: 'Start longitude', ar: 'خط طول البداية', get: coord('start', 'longitude') },
      { en: 'Start address', ar: 'عنوان البداية', get: s('start_address') },
      { en: 'End', ar: 'النهاية', get: t('ended_at') },
      { en: 'End latitude', ar: 'خط عرض النهاية', get: coord('end', 'latitude') },
      { en: 'End longitude', ar: 'خط طول النهاية', get: coord('end', 'longitude') },
      { en: 'End address', ar: 'عنوان النهاية', get: s('end_address') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'Duration (h)', ar: 'المدة (ساعة)', get: hours('duration_seconds') },
      { en: 'Max speed (km/h)', ar: 'أقصى سرعة (كم/س)', get: n('max_speed') },
      { en: 'Average speed (km/h)', ar: 'متوسط السرعة (كم/س)', get: n('average_speed') },
      { en: 'Idle (h)', ar: 'التباطؤ (ساعة)', get: hours('idle_seconds') },
    ],
  },
  summary: {
    en: 'Daily summary',
    ar: 'الملخص اليومي',
    columns: [
      vehicle,
      { en: 'Day', ar: 'اليوم', get: s('day') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'Engine (h)', ar: 'تشغيل المحرك (ساعة)', get: n('engine_hours') },
      { en: 'Driving (h)', ar: 'القيادة (ساعة)', get: n('driving_hours') },
      { en: 'Idle (h)', ar: 'التباطؤ (ساعة)', get: n('idle_hours') },
      { en: 'Fuel used (L)', ar: 'الوقود المستهلك (لتر)', get: n('fuel_used_litres') },
      { en: 'Max speed (km/h)', ar: 'أقصى سرعة (كم/س)', get: n('max_speed') },
      { en: 'Trips', ar: 'الرحلات', get: n('trips') },
      { en: 'Violations', ar: 'المخالفات', get: n('violations') },
    ],
  },
  events: {
    en: 'Events',
    ar: 'الأحداث',
    columns: [
      vehicle,
      { en: 'Time', ar: 'الوقت', get: t('occurred_at') },
      { en: 'Event', ar: 'الحدث', get: s('kind') },
      { en: 'Geofence', ar: 'المنطقة', get: s('geofence_name') },
      { en: 'Message', ar: 'الرسالة', get: s('message') },
      { en: 'Value', ar: 'القيمة', get: (r) => (r.value as Cell) ?? null },
    ],
  },
  route: {
    en: 'Route',
    ar: 'المسار',
    columns: [
      vehicle,
      { en: 'Time', ar: 'الوقت', get: t('at') },
      { en: 'Latitude', ar: 'خط العرض', get: n('latitude') },
      { en: 'Longitude', ar: 'خط الطول', get: n('longitude') },
      { en: 'Speed (km/h)', ar: 'السرعة (كم/س)', get: n('speed') },
      { en: 'Course (°)', ar: 'الاتجاه (°)', get: n('course') },
      { en: 'Altitude (m)', ar: 'الارتفاع (م)', get: n('altitude') },
      {
        en: 'Ignition',
        ar: 'الإشعال',
        get: (r) => (r.ignition === null || r.ignition === undefined ? null : r.ignition ? 1 : 0),
      },
    ],
  },
  utilisation: {
    en: 'Fleet utilisation',
    ar: 'استخدام الأسطول',
    columns: [
      { en: 'Day', ar: 'اليوم', get: s('day') },
      { en: 'Vehicles', ar: 'المركبات', get: n('vehicles') },
      { en: 'Vehicles used', ar: 'المركبات المستخدمة', get: n('used_vehicles') },
      { en: 'Share (%)', ar: 'النسبة (%)', get: n('share_percent') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'Driving (h)', ar: 'القيادة (ساعة)', get: n('driving_hours') },
    ],
  },
  'driver-activity': {
    en: 'Driver activity',
    ar: 'نشاط السائقين',
    columns: [
      { en: 'Driver', ar: 'السائق', get: driverName },
      vehicle,
      { en: 'Active days', ar: 'أيام النشاط', get: n('active_days') },
      { en: 'Trips', ar: 'الرحلات', get: n('trips') },
      { en: 'Distance (km)', ar: 'المسافة (كم)', get: n('distance_km') },
      { en: 'Driving (h)', ar: 'القيادة (ساعة)', get: n('driving_hours') },
      { en: 'Idle (h)', ar: 'التباطؤ (ساعة)', get: n('idle_hours') },
      { en: 'Max speed (km/h)', ar: 'أقصى سرعة (كم/س)', get: n('max_speed') },
      { en: 'Violations', ar: 'المخالفات', get: n('violations') },
    ],
  },
  'salik-monthly': {
    en: 'Salik per month',
    ar: 'سالك شهرياً',
    columns: [
      vehicle,
      { en: 'Month', ar: 'الشهر', get: s('month') },
      { en: 'Crossings', ar: 'العبور', get: n('crossings') },
      { en: 'Charged', ar: 'المدفوعة', get: n('charged_crossings') },
      { en: 'Total fee', ar: 'إجمالي الرسوم', get: n('total_fee') },
      { en: 'Currency', ar: 'العملة', get: s('currency') },
    ],
  },
};

const timeFormats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone: building one per cell cost ~0.25 ms, seconds for a long export. */
function timeFormat(timeZone: string): Intl.DateTimeFormat {
  let f = timeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    timeFormats.set(timeZone, f);
  }
  return f;
}

/** `YYYY-MM-DD HH:mm` in `timeZone` by Intl (the reference; formatTime caches its offsets). */
export function formatTimeIntl(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    timeFormat(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const QUARTER_MS = 900_000;
const zoneOffsets = new Map<string, Map<number, number>>();
/**
 * The zone's UTC offset (ms) during the quarter hour holding `ms`. Zones change offset only at whole
 * quarter hours of UTC (every rule since 1970: :00, :30 or :45 local with offsets in quarter hours),
 * so one Intl call per quarter hour and zone answers every time inside it. Intl's formatToParts cost
 * ~4.5 µs a call: 0.9 s of CPU for the two times of each row of a 100,000-row trip list (issue 15).
 */
function offsetAt(ms: number, timeZone: string): number {
  let zone = zoneOffsets.get(timeZone);
  if (!zone) zoneOffsets.set(timeZone, (zone = new Map()));
  const q = Math.floor(ms / QUARTER_MS);
  let off = zone.get(q);
  if (off === undefined) {
    const at = q * QUARTER_MS;
    const p = Object.fromEntries(
      timeFormat(timeZone)
        .formatToParts(new Date(at))
        .map((x) => [x.type, Number(x.value)]),
    );
    off = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - at;
    if (zone.size > 100_000) zone.clear();
    zone.set(q, off);
  }
  return off;
}

/** Years whose local time toISOString writes as YYYY (formatTimeIntl answers outside them). */
const FAST_FROM = Date.UTC(1900, 0, 1);
const FAST_TO = Date.UTC(9000, 0, 1);

/** `YYYY-MM-DD HH:mm` in `timeZone` (null stays null). */
export function formatTime(iso: unknown, timeZone: string): Cell {
  if (iso === null || iso === undefined) return null;
  const ms = new Date(String(iso)).getTime();
  if (Number.isNaN(ms)) return null;
  if (ms < FAST_FROM || ms >= FAST_TO) return formatTimeIntl(ms, timeZone);
  const local = new Date(ms + offsetAt(ms, timeZone)).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)}`;
}

export function tableOf(
  kind: ReportKind,
  rows: readonly Row[],
  locale: Locale,
  timeZone: string,
): ExportTable {
  const def = reportColumns[kind];
  const fmt: Formatter = { time: (iso) => formatTime(iso, timeZone) };
  return {
    title: def[locale],
    columns: def.columns.map((c) => c[locale]),
    rows: rows.map((r) => def.columns.map((c) => c.get(r, fmt))),
    rtl: locale === 'ar',
  };
}
