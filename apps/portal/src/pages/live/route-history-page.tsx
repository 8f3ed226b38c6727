import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { formatDate, formatDuration, intlLocale } from '@fleet/core';
import type { StopReportRow } from '@fleet/api-client';
import {
  Button,
  Card,
  DateField,
  FormField,
  LineChart,
  NativeSelect,
  PageHeader,
  RouteLayer,
  type RoutePoint,
} from '@fleet/ui';
import { MapView } from '../../map/map-view';
import { RouteFileButtons } from '../reports/route-file-buttons';
import { useCoreText } from '../../i18n/core-text';
import { today } from '../../live/day-range';
import { historyRange, MAX_HISTORY_DAYS } from '../../live/history-range';
import { useLiveVehicles } from '../../live/use-live-vehicles';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { useTimeZone } from '../../entities/display';
import { PlaceAddress } from '../../map/address';

/** One row of the breakdown beside the map: a trip or a stop, in time order. */
interface BreakdownItem {
  kind: 'trip' | 'stop';
  key: string;
  start: number;
  end: number | null;
  distanceKm?: number;
  durationSeconds: number;
  address?: string | null;
  /** A trip's first and last fix: their addresses come from the geocoder through useAddress. */
  from?: { latitude: number; longitude: number } | null;
  to?: { latitude: number; longitude: number } | null;
}

/**
 * Route history: any range of whole days up to 7 (`?vehicle=&from=&to=`), the route on the map with
 * start and end markers and playback; hovering or tapping the line shows the time and speed of the
 * nearest point. Beside the map the trips (device trips) and stops (the stops report) in time order:
 * choosing one moves the play head to its start. Under the map the speed over time; hovering the chart
 * moves the play head too. Export through the route report's GPX / KML file.
 */
export default function RouteHistoryPage() {
  const { t, i18n } = useTranslation('live');
  const core = useCoreText();
  const { api } = useServices();
  const { company } = useSession();
  const timeZone = useTimeZone();
  const live = useLiveVehicles();
  const [params, setParams] = useSearchParams();
  const vehicle = params.get('vehicle') ?? '';
  const range = historyRange(params);
  const [draft, setDraft] = useState({ vehicle, from: range.fromDay, to: range.toDay });
  const draftRange = historyRange(new URLSearchParams({ from: draft.from, to: draft.to }));
  const [time, setTime] = useState<number | undefined>(undefined);
  // The moment under the pointer on the map's line; the chart's cursor shows it, else the play head.
  const [hoverTime, setHoverTime] = useState<number | null>(null);
  const ok = range.ok ? range : null;

  const history = useQuery({
    queryKey: ['history', company?.uuid, vehicle, ok?.from, ok?.to],
    enabled: Boolean(vehicle && ok),
    queryFn: async ({ signal }) => {
      const records = await api.walkLocations(
        { vehicle_uuid: vehicle, from: ok!.from, to: ok!.to },
        undefined,
        {
          signal,
        },
      );
      return records
        .filter((r) => r.latitude !== null && r.longitude !== null)
        .map<RoutePoint>((r) => ({
          lat: r.latitude as number,
          lng: r.longitude as number,
          time: Date.parse(r.created_at),
          speed: r.speed,
        }));
    },
  });
  const breakdown = useQuery({
    queryKey: ['history-breakdown', company?.uuid, vehicle, ok?.from, ok?.to],
    enabled: Boolean(vehicle && ok),
    queryFn: async ({ signal }) => {
      const [trips, stops] = await Promise.all([
        api.request('deviceTrips.list', {
          query: {
            vehicle_uuid: vehicle,
            from: ok!.from,
            to: ok!.to,
            limit: 200,
            sort: 'started_at',
            order: 'asc',
          },
          signal,
        }),
        api.request('reports.stops', {
          query: { vehicle_uuid: vehicle, from: ok!.from, to: ok!.to, limit: 200 },
          signal,
        }),
      ]);
      const items: BreakdownItem[] = [
        ...trips.data.map<BreakdownItem>((trip) => ({
          kind: 'trip',
          key: `trip-${trip.uuid}`,
          start: Date.parse(trip.started_at),
          end: trip.ended_at ? Date.parse(trip.ended_at) : null,
          distanceKm: trip.distance_km,
          durationSeconds: trip.duration_seconds,
          from: trip.start_location,
          to: trip.end_location,
        })),
        ...(stops.data as StopReportRow[]).map<BreakdownItem>((stop, i) => ({
          kind: 'stop',
          key: `stop-${i}-${stop.started_at}`,
          start: Date.parse(stop.started_at),
          end: stop.ended_at ? Date.parse(stop.ended_at) : null,
          durationSeconds: Math.round(stop.duration_minutes * 60),
          address: stop.address,
        })),
      ];
      return items.sort((a, b) => a.start - b.start);
    },
  });
  usePageReady(!vehicle || !ok || (history.isSuccess && !breakdown.isPending));

  const points = useMemo(() => history.data ?? [], [history.data]);
  const speedLabel = t('history.speedSeries');
  const speedUnit = t('history.speedUnit');
  // Memoised with its series: a new series array rebuilds the chart, which the play head's every step
  // would otherwise do.
  const chart = useMemo(
    () => ({
      timestamps: points.map((p) => p.time),
      series: [{ label: speedLabel, values: points.map((p) => p.speed ?? null), unit: speedUnit }],
    }),
    [points, speedLabel, speedUnit],
  );
  const playHead = time ?? points[0]?.time;
  const number = new Intl.NumberFormat(intlLocale(i18n.language), { maximumFractionDigits: 1 });
  const clock = (ms: number) => formatDate(ms, 'long', { locale: i18n.language, timeZone });

  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="route-history">
      <PageHeader className="mb-4" title={t('page.routeHistory')} />
      <Card>
        <form
          className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!draftRange.ok) return;
            const next = new URLSearchParams(params);
            if (draft.vehicle) next.set('vehicle', draft.vehicle);
            else next.delete('vehicle');
            next.delete('date');
            next.set('from', draft.from);
            next.set('to', draft.to);
            setParams(next);
            setTime(undefined);
          }}
        >
          <FormField id="history-vehicle" label={t('history.vehicle')}>
            <NativeSelect
              id="history-vehicle"
              value={draft.vehicle}
              onChange={(e) => setDraft((d) => ({ ...d, vehicle: e.target.value }))}
            >
              <option value="">{t('history.chooseVehicle')}</option>
              {(live.data?.data ?? []).map((v) => (
                <option key={v.uuid} value={v.uuid}>
                  {v.license_plate_number}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="history-from" label={t('history.from')}>
            <DateField
              id="history-from"
              value={draft.from}
              max={today()}
              today={today()}
              onChange={(from) => setDraft((d) => ({ ...d, from }))}
            />
          </FormField>
          <FormField
            id="history-to"
            label={t('history.to')}
            {...(!draftRange.ok
              ? { error: t(`history.rangeError.${draftRange.error}`, { days: MAX_HISTORY_DAYS }) }
              : {})}
          >
            <DateField
              id="history-to"
              value={draft.to}
              max={today()}
              today={today()}
              onChange={(to) => setDraft((d) => ({ ...d, to }))}
            />
          </FormField>
          <Button type="submit" data-testid="history-load" disabled={!draft.vehicle || !draftRange.ok}>
            {t('history.load')}
          </Button>
        </form>
      </Card>
      {vehicle && ok && history.isSuccess ? (
        points.length === 0 ? (
          <p
            role="status"
            data-testid="history-empty"
            className="rounded-md border border-border bg-surface p-4 text-foreground-muted"
          >
            {core('empty.noDataForRange')}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-foreground-muted" data-testid="history-count">
                {t('history.points', { count: points.length })}
              </p>
              <RouteExport vehicle={vehicle} from={ok.from} to={ok.to} />
            </div>
            <div className="grid min-w-0 gap-3 lg:grid-cols-[minmax(0,1fr)_20rem]">
              <div className="h-[60dvh] min-w-0 overflow-hidden rounded-lg border border-border">
                <MapView center={[points[0]!.lat, points[0]!.lng]} zoom={13} className="h-full">
                  <RouteLayer
                    points={points}
                    timeZone={timeZone}
                    {...(time !== undefined ? { time } : {})}
                    onTimeChange={setTime}
                    onHoverTime={setHoverTime}
                  />
                </MapView>
              </div>
              <section
                aria-labelledby="history-breakdown-title"
                className="flex max-h-[60dvh] min-w-0 flex-col gap-2 overflow-y-auto rounded-lg border border-border p-3"
                data-testid="history-breakdown"
              >
                <h2 id="history-breakdown-title" className="text-sm font-semibold">
                  {t('history.breakdown')}
                </h2>
                {breakdown.data && breakdown.data.length === 0 ? (
                  <p className="text-sm text-foreground-muted">{t('history.noBreakdown')}</p>
                ) : null}
                <ol className="flex flex-col gap-1">
                  {(breakdown.data ?? []).map((item) => (
                    <li key={item.key}>
                      <button
                        type="button"
                        data-testid={`history-${item.kind}`}
                        onClick={() => setTime(item.start)}
                        className="flex w-full flex-col items-start gap-0.5 rounded-md px-2 py-1.5 text-start text-sm hover:bg-surface-raised focus-visible:outline-2 focus-visible:outline-focus-ring"
                      >
                        <span className="font-medium">
                          {t(`history.${item.kind}`)} ·{' '}
                          <bdi dir="ltr" className="tabular-nums">
                            {clock(item.start)}
                          </bdi>
                        </span>
                        <span className="text-foreground-muted">
                          {item.kind === 'trip'
                            ? t('history.tripLine', {
                                distance: number.format(item.distanceKm ?? 0),
                                duration: formatDuration(item.durationSeconds, i18n.language),
                              })
                            : t('history.stopLine', {
                                duration: formatDuration(item.durationSeconds, i18n.language),
                              })}
                        </span>
                        {item.address ? (
                          <span data-testid="place-address" className="text-xs text-foreground-muted">
                            {item.address}
                          </span>
                        ) : null}
                        {item.from ? (
                          <PlaceAddress
                            lat={item.from.latitude}
                            lng={item.from.longitude}
                            className="text-xs text-foreground-muted"
                          />
                        ) : null}
                        {item.to ? (
                          <PlaceAddress
                            lat={item.to.latitude}
                            lng={item.to.longitude}
                            className="text-xs text-foreground-muted"
                          />
                        ) : null}
                      </button>
                    </li>
                  ))}
                </ol>
              </section>
            </div>
            <div data-testid="history-speed-chart" className="min-w-0">
              <LineChart
                title={t('history.speedChart')}
                timestamps={chart.timestamps}
                series={chart.series}
                height={180}
                timeZone={timeZone}
                markerTime={hoverTime ?? playHead ?? null}
                onCursorTime={(at) => {
                  if (at !== null) setTime(at);
                }}
              />
            </div>
          </>
        )
      ) : null}
    </div>
  );
}

/** GPX / KML of the shown range (the route report's files). */
function RouteExport({ vehicle, from, to }: { vehicle: string; from: string; to: string }) {
  const { t } = useTranslation('live');
  return (
    <RouteFileButtons
      vehicle={vehicle}
      from={from}
      to={to}
      label={t('history.export')}
      testId="history-export"
      itemTestId={(format) => `history-export-${format}`}
      size="sm"
    />
  );
}
