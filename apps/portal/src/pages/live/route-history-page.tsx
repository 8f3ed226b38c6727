import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  Button,
  Card,
  FormField,
  Input,
  NativeSelect,
  PageHeader,
  RouteLayer,
  type RoutePoint,
} from '@fleet/ui';
import { MapView } from '../../map/map-view';
import { useCoreText } from '../../i18n/core-text';
import { dayRange, today } from '../../live/day-range';
import { useLiveVehicles } from '../../live/use-live-vehicles';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { useTimeZone } from '../../entities/display';

/** Trip history by date with playback (also reached as the route-history view). */
export default function RouteHistoryPage() {
  const { t } = useTranslation('live');
  const core = useCoreText();
  const { api } = useServices();
  const { company } = useSession();
  const timeZone = useTimeZone();
  const live = useLiveVehicles();
  const [params, setParams] = useSearchParams();
  const vehicle = params.get('vehicle') ?? '';
  const day = params.get('date') ?? today();
  const [draft, setDraft] = useState({ vehicle, day });
  const range = dayRange(day);

  const history = useQuery({
    queryKey: ['history', company?.uuid, vehicle, day],
    enabled: Boolean(vehicle && range),
    queryFn: async ({ signal }) => {
      const records = await api.walkLocations(
        { vehicle_uuid: vehicle, from: range!.from, to: range!.to },
        undefined,
        { signal },
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
  usePageReady(!vehicle || history.isSuccess);

  const points = history.data ?? [];
  return (
    <div className="flex flex-col gap-3" data-testid="route-history">
      <PageHeader className="mb-4" title={t('page.routeHistory')} />
      <Card>
        <form
          className="grid grid-cols-1 items-end gap-3 sm:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            const next = new URLSearchParams(params);
            if (draft.vehicle) next.set('vehicle', draft.vehicle);
            else next.delete('vehicle');
            next.set('date', draft.day);
            setParams(next);
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
          <FormField id="history-date" label={t('history.date')}>
            <Input
              id="history-date"
              kind="date"
              dir="ltr"
              value={draft.day}
              max={today()}
              onChange={(e) => setDraft((d) => ({ ...d, day: e.target.value }))}
            />
          </FormField>
          <Button type="submit" data-testid="history-load" disabled={!draft.vehicle}>
            {t('history.load')}
          </Button>
        </form>
      </Card>
      {vehicle && history.isSuccess ? (
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
            <p className="text-sm text-foreground-muted" data-testid="history-count">
              {t('history.points', { count: points.length })}
            </p>
            <div className="h-[60dvh] overflow-hidden rounded-lg border border-border">
              <MapView center={[points[0]!.lat, points[0]!.lng]} zoom={13} className="h-full">
                <RouteLayer points={points} timeZone={timeZone} />
              </MapView>
            </div>
          </>
        )
      ) : null}
    </div>
  );
}
