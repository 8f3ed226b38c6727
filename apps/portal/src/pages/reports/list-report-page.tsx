import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { ReactNode } from 'react';
import type {
  DriverActivityReportRow,
  EventReportRow,
  GeofenceVisitReportRow,
  ReportKind,
  RouteReportRow,
  SalikMonthlyReportRow,
  SalikReportRow,
  StopReportRow,
  SummaryReportRow,
  TripListReportRow,
  TripsReportRow,
  UtilisationReportRow,
  ViolationReportRow,
} from '@fleet/api-client';
import { CategoryBarChart, LineChart } from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { useTimeZone } from '../../entities/display';
import NotFoundPage from '../not-found-page';
import { ReportShell, type ReportSelectionQuery } from './report-shell';
import { RouteFileButtons } from './route-file-buttons';
import { Place, ReportTable, Time, useFigures, type ReportColumn } from './report-table';

type T = ReturnType<typeof useTranslation<'reports'>>['t'];
type Figures = ReturnType<typeof useFigures>;

/** What a list report page shows: its columns, a chart where people would rather look, extra actions. */
interface ListReport<R> {
  readonly title: string;
  readonly columns: (t: T, f: Figures) => ReportColumn<R>[];
  readonly rowKey: (row: R, i: number) => string;
  readonly chart?: (rows: R[], t: T, zone: string) => ReactNode;
  readonly needsVehicle?: boolean;
}

/** Report kinds with a list page (`/dashboard/reports/{kind}`) and the i18n key of their title. */
export const listReportTitles = {
  'trip-list': 'list.tripList',
  stops: 'list.stops',
  idling: 'list.idling',
  summary: 'list.summary',
  events: 'list.events',
  route: 'list.route',
  'geofence-visits': 'list.geofenceVisits',
  salik: 'list.salik',
  'salik-monthly': 'list.salikMonthly',
  'driver-activity': 'list.driverActivity',
  utilisation: 'list.utilisation',
  trips: 'list.trips',
  violations: 'list.violations',
} as const satisfies Partial<Record<ReportKind, string>>;
export type ListReportKind = keyof typeof listReportTitles;

const vehicleCol = <R extends { vehicle: Parameters<typeof VehiclePlate>[0]['vehicle'] }>(
  t: T,
): ReportColumn<R> => ({
  id: 'vehicle',
  label: t('col.vehicle'),
  value: (r) => <VehiclePlate vehicle={r.vehicle} />,
});

/** Sum of a figure per day over the rows on screen (several vehicles), in day order, as chart bars. */
function perDay<R>(rows: R[], day: (r: R) => string, value: (r: R) => number) {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(day(r), (sums.get(day(r)) ?? 0) + value(r));
  return [...sums.keys()]
    .sort()
    .map((d) => ({ label: <bdi dir="ltr">{d.slice(5)}</bdi>, value: Math.round(sums.get(d)! * 10) / 10 }));
}

const stopColumns = (t: T, f: Figures): ReportColumn<StopReportRow>[] => [
  vehicleCol(t),
  { id: 'start', label: t('col.start'), value: (r) => <Time at={r.started_at} /> },
  { id: 'end', label: t('col.end'), value: (r) => <Time at={r.ended_at} /> },
  {
    id: 'duration',
    label: t('col.duration'),
    numeric: true,
    value: (r) => f.duration(r.duration_minutes * 60),
  },
  {
    id: 'place',
    label: t('col.place'),
    value: (r) => <Place latitude={r.latitude} longitude={r.longitude} address={r.address} />,
  },
];

const reports: { [K in ListReportKind]: ListReport<never> } = {
  'trip-list': {
    title: listReportTitles['trip-list'],
    rowKey: (r: TripListReportRow) => r.uuid,
    columns: (t, f): ReportColumn<TripListReportRow>[] => [
      vehicleCol(t),
      { id: 'driver', label: t('col.driver'), value: (r) => r.driver?.name ?? '—' },
      { id: 'start', label: t('col.start'), value: (r) => <Time at={r.started_at} /> },
      {
        id: 'from',
        label: t('col.startPlace'),
        value: (r) => (
          <Place
            latitude={r.start?.latitude ?? null}
            longitude={r.start?.longitude ?? null}
            address={r.start_address}
          />
        ),
      },
      { id: 'end', label: t('col.end'), value: (r) => <Time at={r.ended_at} /> },
      {
        id: 'to',
        label: t('col.endPlace'),
        value: (r) => (
          <Place latitude={r.end?.latitude ?? null} longitude={r.end?.longitude ?? null} address={r.end_address} />
        ),
      },
      { id: 'distance', label: t('col.distance'), numeric: true, value: (r) => f.km(r.distance_km) },
      {
        id: 'duration',
        label: t('col.duration'),
        numeric: true,
        value: (r) => f.duration(r.duration_seconds),
      },
      { id: 'max', label: t('col.maxSpeed'), numeric: true, value: (r) => f.kmh(r.max_speed) },
      { id: 'avg', label: t('col.avgSpeed'), numeric: true, value: (r) => f.kmh(r.average_speed) },
      { id: 'idle', label: t('col.idle'), numeric: true, value: (r) => f.duration(r.idle_seconds) },
    ],
  } satisfies ListReport<TripListReportRow> as never,
  stops: {
    title: listReportTitles.stops,
    rowKey: (r: StopReportRow, i) => `${r.vehicle.uuid}:${r.started_at}:${i}`,
    columns: stopColumns,
  } satisfies ListReport<StopReportRow> as never,
  idling: {
    title: listReportTitles.idling,
    rowKey: (r: StopReportRow, i) => `${r.vehicle.uuid}:${r.started_at}:${i}`,
    columns: stopColumns,
  } satisfies ListReport<StopReportRow> as never,
  summary: {
    title: listReportTitles.summary,
    rowKey: (r: SummaryReportRow) => `${r.vehicle.uuid}:${r.day}`,
    columns: (t, f): ReportColumn<SummaryReportRow>[] => [
      { id: 'day', label: t('col.day'), value: (r) => <bdi dir="ltr">{r.day}</bdi> },
      vehicleCol(t),
      { id: 'distance', label: t('col.distance'), numeric: true, value: (r) => f.km(r.distance_km) },
      { id: 'engine', label: t('col.engine'), numeric: true, value: (r) => f.hours(r.engine_hours) },
      { id: 'driving', label: t('col.driving'), numeric: true, value: (r) => f.hours(r.driving_hours) },
      { id: 'idle', label: t('col.idle'), numeric: true, value: (r) => f.hours(r.idle_hours) },
      { id: 'fuel', label: t('col.fuel'), numeric: true, value: (r) => f.litres(r.fuel_used_litres) },
      { id: 'max', label: t('col.maxSpeed'), numeric: true, value: (r) => f.kmh(r.max_speed) },
      { id: 'trips', label: t('col.trips'), numeric: true, value: (r) => f.num(r.trips, 0) },
      { id: 'violations', label: t('col.violations'), numeric: true, value: (r) => f.num(r.violations, 0) },
    ],
    chart: (rows: SummaryReportRow[], t) => (
      <CategoryBarChart
        title={t('chartOf.distancePerDay')}
        unit={t('unit.km')}
        data={perDay(
          rows,
          (r) => r.day,
          (r) => r.distance_km,
        )}
      />
    ),
  } satisfies ListReport<SummaryReportRow> as never,
  events: {
    title: listReportTitles.events,
    rowKey: (r: EventReportRow, i) => `${r.vehicle.uuid}:${r.occurred_at}:${r.kind}:${i}`,
    columns: (t, f): ReportColumn<EventReportRow>[] => [
      { id: 'time', label: t('col.time'), value: (r) => <Time at={r.occurred_at} /> },
      vehicleCol(t),
      {
        id: 'event',
        label: t('col.event'),
        value: (r) => t(`eventKind.${r.kind}`, { defaultValue: r.kind }),
      },
      { id: 'geofence', label: t('col.geofence'), value: (r) => r.geofence_name ?? '—' },
      { id: 'message', label: t('col.message'), value: (r) => r.message ?? '—' },
      {
        id: 'value',
        label: t('col.value'),
        numeric: true,
        value: (r) =>
          r.value === null
            ? '—'
            : typeof r.value === 'number' && r.kind === 'overspeed'
              ? f.kmh(r.value)
              : String(r.value),
      },
    ],
  } satisfies ListReport<EventReportRow> as never,
  route: {
    title: listReportTitles.route,
    needsVehicle: true,
    rowKey: (r: RouteReportRow) => r.at,
    columns: (t, f): ReportColumn<RouteReportRow>[] => [
      { id: 'time', label: t('col.time'), value: (r) => <Time at={r.at} /> },
      {
        id: 'place',
        label: t('col.place'),
        value: (r) => <Place latitude={r.latitude} longitude={r.longitude} />,
      },
      { id: 'speed', label: t('col.speed'), numeric: true, value: (r) => f.kmh(r.speed) },
      {
        id: 'ignition',
        label: t('col.ignition'),
        value: (r) => (r.ignition === null ? '—' : t(r.ignition ? 'col.on' : 'col.off')),
      },
    ],
    chart: (rows: RouteReportRow[], t, zone) => (
      <LineChart
        title={t('chartOf.speed')}
        timeZone={zone}
        timestamps={rows.map((r) => Date.parse(r.at))}
        series={[{ label: t('col.speed'), values: rows.map((r) => r.speed), unit: t('unit.kmh') }]}
      />
    ),
  } satisfies ListReport<RouteReportRow> as never,
  'geofence-visits': {
    title: listReportTitles['geofence-visits'],
    rowKey: (r: GeofenceVisitReportRow, i) => `${r.vehicle.uuid}:${r.geofence_uuid}:${r.entered_at}:${i}`,
    columns: (t, f): ReportColumn<GeofenceVisitReportRow>[] => [
      vehicleCol(t),
      { id: 'geofence', label: t('col.geofence'), value: (r) => r.geofence_name },
      { id: 'entered', label: t('col.entered'), value: (r) => <Time at={r.entered_at} /> },
      {
        id: 'exited',
        label: t('col.exited'),
        value: (r) => (r.exited_at ? <Time at={r.exited_at} /> : t('col.stillInside')),
      },
      { id: 'dwell', label: t('col.dwell'), numeric: true, value: (r) => f.duration(r.dwell_seconds) },
    ],
    chart: (rows: GeofenceVisitReportRow[], t) => {
      const sums = new Map<string, number>();
      for (const r of rows)
        sums.set(r.geofence_name, (sums.get(r.geofence_name) ?? 0) + (r.dwell_seconds ?? 0));
      return (
        <CategoryBarChart
          title={t('chartOf.dwellPerGeofence')}
          unit={t('unit.h')}
          data={[...sums].map(([label, s]) => ({ label, value: Math.round((s / 3600) * 10) / 10 }))}
        />
      );
    },
  } satisfies ListReport<GeofenceVisitReportRow> as never,
  salik: {
    title: listReportTitles.salik,
    rowKey: (r: SalikReportRow) => r.vehicle.uuid,
    columns: (t, f): ReportColumn<SalikReportRow>[] => [
      vehicleCol(t),
      { id: 'crossings', label: t('col.crossings'), numeric: true, value: (r) => f.num(r.crossings, 0) },
      { id: 'charged', label: t('col.charged'), numeric: true, value: (r) => f.num(r.charged_crossings, 0) },
      { id: 'fee', label: t('col.fee'), numeric: true, value: (r) => f.money(r.total_fee, r.currency) },
    ],
  } satisfies ListReport<SalikReportRow> as never,
  'salik-monthly': {
    title: listReportTitles['salik-monthly'],
    rowKey: (r: SalikMonthlyReportRow) => `${r.vehicle.uuid}:${r.month}`,
    columns: (t, f): ReportColumn<SalikMonthlyReportRow>[] => [
      { id: 'month', label: t('col.month'), value: (r) => <bdi dir="ltr">{r.month}</bdi> },
      vehicleCol(t),
      { id: 'crossings', label: t('col.crossings'), numeric: true, value: (r) => f.num(r.crossings, 0) },
      { id: 'charged', label: t('col.charged'), numeric: true, value: (r) => f.num(r.charged_crossings, 0) },
      { id: 'fee', label: t('col.fee'), numeric: true, value: (r) => f.money(r.total_fee, r.currency) },
    ],
    chart: (rows: SalikMonthlyReportRow[], t) => (
      <CategoryBarChart
        title={t('chartOf.feePerVehicle')}
        unit="AED"
        data={rows.map((r) => ({
          label: `${r.vehicle.license_plate_number} ${r.month}`,
          value: r.total_fee,
        }))}
      />
    ),
  } satisfies ListReport<SalikMonthlyReportRow> as never,
  'driver-activity': {
    title: listReportTitles['driver-activity'],
    rowKey: (r: DriverActivityReportRow) => `${r.driver.uuid}:${r.vehicle.uuid}`,
    columns: (t, f): ReportColumn<DriverActivityReportRow>[] => [
      { id: 'driver', label: t('col.driver'), value: (r) => r.driver.name },
      vehicleCol(t),
      { id: 'days', label: t('col.activeDays'), numeric: true, value: (r) => f.num(r.active_days, 0) },
      { id: 'trips', label: t('col.trips'), numeric: true, value: (r) => f.num(r.trips, 0) },
      { id: 'distance', label: t('col.distance'), numeric: true, value: (r) => f.km(r.distance_km) },
      { id: 'driving', label: t('col.driving'), numeric: true, value: (r) => f.hours(r.driving_hours) },
      { id: 'idle', label: t('col.idle'), numeric: true, value: (r) => f.hours(r.idle_hours) },
      { id: 'max', label: t('col.maxSpeed'), numeric: true, value: (r) => f.kmh(r.max_speed) },
      { id: 'violations', label: t('col.violations'), numeric: true, value: (r) => f.num(r.violations, 0) },
    ],
    chart: (rows: DriverActivityReportRow[], t) => (
      <CategoryBarChart
        title={t('chartOf.distancePerDriver')}
        unit={t('unit.km')}
        data={rows.map((r) => ({ label: r.driver.name, value: r.distance_km }))}
      />
    ),
  } satisfies ListReport<DriverActivityReportRow> as never,
  utilisation: {
    title: listReportTitles.utilisation,
    rowKey: (r: UtilisationReportRow) => r.day,
    columns: (t, f): ReportColumn<UtilisationReportRow>[] => [
      { id: 'day', label: t('col.day'), value: (r) => <bdi dir="ltr">{r.day}</bdi> },
      { id: 'vehicles', label: t('col.vehicles'), numeric: true, value: (r) => f.num(r.vehicles, 0) },
      { id: 'used', label: t('col.used'), numeric: true, value: (r) => f.num(r.used_vehicles, 0) },
      { id: 'share', label: t('col.share'), numeric: true, value: (r) => f.pct(r.share_percent) },
      { id: 'distance', label: t('col.distance'), numeric: true, value: (r) => f.km(r.distance_km) },
      { id: 'driving', label: t('col.driving'), numeric: true, value: (r) => f.hours(r.driving_hours) },
    ],
    chart: (rows: UtilisationReportRow[], t) => (
      <CategoryBarChart
        title={t('chartOf.sharePerDay')}
        unit="%"
        data={rows.map((r) => ({ label: <bdi dir="ltr">{r.day.slice(5)}</bdi>, value: r.share_percent }))}
      />
    ),
  } satisfies ListReport<UtilisationReportRow> as never,
  trips: {
    title: listReportTitles.trips,
    rowKey: (r: TripsReportRow) => r.vehicle.uuid,
    columns: (t, f): ReportColumn<TripsReportRow>[] => [
      vehicleCol(t),
      { id: 'trips', label: t('col.trips'), numeric: true, value: (r) => f.num(r.trips, 0) },
      { id: 'distance', label: t('col.distance'), numeric: true, value: (r) => f.km(r.distance_km) },
      { id: 'driving', label: t('col.driving'), numeric: true, value: (r) => f.duration(r.driving_seconds) },
      { id: 'idle', label: t('col.idle'), numeric: true, value: (r) => f.duration(r.idle_seconds) },
      { id: 'max', label: t('col.maxSpeed'), numeric: true, value: (r) => f.kmh(r.max_speed) },
      { id: 'avg', label: t('col.avgSpeed'), numeric: true, value: (r) => f.kmh(r.average_speed) },
    ],
    chart: (rows: TripsReportRow[], t) => (
      <CategoryBarChart
        title={t('chartOf.distancePerVehicle')}
        unit={t('unit.km')}
        data={rows.map((r) => ({ label: r.vehicle.license_plate_number, value: r.distance_km }))}
      />
    ),
  } satisfies ListReport<TripsReportRow> as never,
  violations: {
    title: listReportTitles.violations,
    rowKey: (r: ViolationReportRow, i) => `${r.vehicle.uuid}:${r.occurred_at}:${i}`,
    columns: (t, f): ReportColumn<ViolationReportRow>[] => [
      { id: 'time', label: t('col.time'), value: (r) => <Time at={r.occurred_at} /> },
      vehicleCol(t),
      { id: 'kind', label: t('col.kind'), value: (r) => t(`eventKind.${r.kind}`, { defaultValue: r.kind }) },
      {
        id: 'value',
        label: t('col.value'),
        numeric: true,
        value: (r) =>
          r.value === null
            ? '—'
            : typeof r.value === 'number' && r.kind === 'overspeed'
              ? f.kmh(r.value)
              : String(r.value),
      },
    ],
  } satisfies ListReport<ViolationReportRow> as never,
};

function RouteFiles({ query }: { query: ReportSelectionQuery }) {
  const { t } = useTranslation('reports');
  return (
    <RouteFileButtons
      vehicle={query.vehicle_uuid}
      from={query.from}
      to={query.to}
      label={t('routeFile.label')}
      testId="route-files"
      itemTestId={(format) => `route-file-${format}`}
    />
  );
}

/** reports/{kind}: a list report (trips, stops, summary, events, route ...) with filters, chart and table. */
export default function ListReportPage() {
  const { kind } = useParams();
  const { t } = useTranslation('reports');
  const figures = useFigures();
  const zone = useTimeZone();
  if (!kind || !(kind in reports)) return <NotFoundPage />;
  const def = reports[kind as ListReportKind] as unknown as ListReport<unknown>;
  return (
    <ReportShell<unknown>
      key={kind}
      kind={kind as ListReportKind}
      title={t(def.title as 'list.summary')}
      needsVehicle={def.needsVehicle ?? false}
      {...(kind === 'route' ? { actions: (q: ReportSelectionQuery) => <RouteFiles query={q} /> } : {})}
      renderRows={(rows) => (
        <div className="flex flex-col gap-3">
          {def.chart ? <div data-testid="report-chart">{def.chart(rows, t, zone)}</div> : null}
          <ReportTable columns={def.columns(t, figures)} rows={rows} rowKey={def.rowKey} />
        </div>
      )}
    />
  );
}
