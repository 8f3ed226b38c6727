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
const stopColumns: Column[] = [
  vehicle,
  { en: 'Start', ar: 'البداية', get: t('started_at') },
  { en: 'End', ar: 'النهاية', get: t('ended_at') },
  { en: 'Minutes', ar: 'الدقائق', get: n('duration_minutes') },
  { en: 'Latitude', ar: 'خط العرض', get: n('latitude') },
  { en: 'Longitude', ar: 'خط الطول', get: n('longitude') },
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
};

/** `YYYY-MM-DD HH:mm` in `timeZone` (null stays null). */
export function formatTime(iso: unknown, timeZone: string): Cell {
  if (iso === null || iso === undefined) return null;
  const d = new Date(String(iso));
  if (Number.isNaN(d.getTime())) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
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
