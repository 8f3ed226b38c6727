import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDate, formatDuration, intlLocale } from '@fleet/core';
import { DetailSection, LoadingState, SectionTabs } from '@fleet/ui';
import { paths } from '../app/paths';
import { CommandsPanel } from '../commands/commands-panel';
import type { Row } from '../entities/api';
import { useTimeZone } from '../entities/display';
import { useReferencedRecord } from '../entities/record-ref';
import { recordTitle } from '../entities/registry';
import { today } from '../live/day-range';
import { useServices, useSession } from '../state/app-context';
import { documentRows, documentsNeedingAttention } from './document-rows';
import { VehicleDocuments } from './vehicle-documents';

export const vehicleTabs = ['trips', 'alerts', 'documents', 'commands', 'history'] as const;
export type VehicleTab = (typeof vehicleTabs)[number];

const WEEK_MS = 7 * 86_400_000;

/**
 * The vehicle overview's tabs: trips (last 7 days), alerts about the vehicle, documents with their
 * expiry state, commands (history and send, the same panel as the device page) and route history.
 * The open tab is kept in the URL (`?tab=documents`) so a reload or a shared link opens the same one;
 * only the open tab fetches.
 */
export function VehicleOverviewTabs({ vehicle }: { vehicle: Row }) {
  const { t } = useTranslation('vehicles');
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: VehicleTab = (vehicleTabs as readonly string[]).includes(requested ?? '')
    ? (requested as VehicleTab)
    : 'trips';
  const uuid = String(vehicle.uuid);
  const driverUuid = typeof vehicle.driver_uuid === 'string' ? vehicle.driver_uuid : '';
  const driver = useReferencedRecord('drivers', driverUuid);
  const docs = documentRows(vehicle, driverUuid ? (driver.data?.data ?? null) : null, today(), {
    vehicle: recordTitle(vehicle),
    driver: recordTitle(driver.data?.data),
  });
  const attention = documentsNeedingAttention(docs);
  const imei = typeof vehicle.device_imei === 'string' && vehicle.device_imei ? vehicle.device_imei : null;

  return (
    <DetailSection title={t('overview.sections')}>
      <SectionTabs
        label={t('overview.sections')}
        value={tab}
        onValueChange={(next) => {
          const copy = new URLSearchParams(params);
          copy.set('tab', next);
          setParams(copy, { replace: true });
        }}
        tabs={[
          { id: 'trips', label: t('tab.trips'), content: <VehicleTrips vehicleUuid={uuid} /> },
          { id: 'alerts', label: t('tab.alerts'), content: <VehicleAlerts vehicleUuid={uuid} /> },
          {
            id: 'documents',
            label: t('tab.documents'),
            badge: attention > 0 ? <AttentionBadge count={attention} /> : undefined,
            content: <VehicleDocuments rows={docs} />,
          },
          {
            id: 'commands',
            label: t('tab.commands'),
            content: imei ? (
              <CommandsPanel deviceImei={imei} target={recordTitle(vehicle)} />
            ) : (
              <p className="text-sm text-foreground-muted">{t('commands.noDevice')}</p>
            ),
          },
          { id: 'history', label: t('tab.history'), content: <VehicleHistoryLink vehicleUuid={uuid} /> },
        ]}
      />
    </DetailSection>
  );
}

function AttentionBadge({ count }: { count: number }) {
  const { i18n } = useTranslation();
  return (
    <span
      className="min-w-5 rounded-full bg-tone-idle-soft px-1.5 text-center text-tone-idle tabular-nums"
      data-testid="documents-attention"
    >
      {count.toLocaleString(intlLocale(i18n.language))}
    </span>
  );
}

function VehicleTrips({ vehicleUuid }: { vehicleUuid: string }) {
  const { t, i18n } = useTranslation('vehicles');
  const { api } = useServices();
  const { company } = useSession();
  const timeZone = useTimeZone();
  const trips = useQuery({
    queryKey: ['vehicle-trips', company?.uuid, vehicleUuid],
    queryFn: ({ signal }) =>
      api.request('deviceTrips.list', {
        query: {
          vehicle_uuid: vehicleUuid,
          from: new Date(Date.now() - WEEK_MS).toISOString(),
          to: new Date().toISOString(),
          limit: 50,
        },
        signal,
      }),
  });
  if (trips.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (trips.isError) return <p role="alert">{t('common:state.error')}</p>;
  const rows = trips.data.data;
  const date = (iso: string) => formatDate(iso, 'long', { locale: i18n.language, timeZone });
  const numbers = new Intl.NumberFormat(intlLocale(i18n.language), { maximumFractionDigits: 1 });
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid="vehicle-trips">
      <p className="text-xs text-foreground-muted">{t('trips.range')}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-foreground-muted">{t('trips.empty')}</p>
      ) : (
        <div className="min-w-0 overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-foreground-muted">
              <tr className="border-b border-border">
                <th className="px-2 py-1 text-start font-medium">{t('trips.started')}</th>
                <th className="px-2 py-1 text-start font-medium">{t('trips.ended')}</th>
                <th className="px-2 py-1 text-end font-medium">{t('trips.distance')}</th>
                <th className="px-2 py-1 text-end font-medium">{t('trips.duration')}</th>
                <th className="px-2 py-1 text-end font-medium">{t('trips.maxSpeed')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((trip) => (
                <tr
                  key={trip.uuid}
                  className="border-b border-border last:border-0"
                  data-testid="vehicle-trip"
                >
                  <td className="px-2 py-1.5">
                    <bdi dir="ltr">{date(trip.started_at)}</bdi>
                  </td>
                  <td className="px-2 py-1.5">
                    {trip.ended_at ? <bdi dir="ltr">{date(trip.ended_at)}</bdi> : t('trips.ongoing')}
                  </td>
                  <td className="px-2 py-1.5 text-end tabular-nums">
                    <bdi>{t('trips.distanceValue', { km: numbers.format(trip.distance_km) })}</bdi>
                  </td>
                  <td className="px-2 py-1.5 text-end">
                    <bdi>{formatDuration(trip.duration_seconds, i18n.language)}</bdi>
                  </td>
                  <td className="px-2 py-1.5 text-end tabular-nums">
                    <bdi>
                      {t('live:vehicle.speedValue', { speed: numbers.format(Math.round(trip.max_speed)) })}
                    </bdi>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function VehicleAlerts({ vehicleUuid }: { vehicleUuid: string }) {
  const { t, i18n } = useTranslation('vehicles');
  const { api } = useServices();
  const { company } = useSession();
  const timeZone = useTimeZone();
  const alerts = useQuery({
    queryKey: ['vehicle-alerts', company?.uuid, vehicleUuid],
    queryFn: ({ signal }) =>
      api.request('notifications.list', { query: { vehicle_uuid: vehicleUuid, limit: 20 }, signal }),
  });
  if (alerts.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (alerts.isError) return <p role="alert">{t('common:state.error')}</p>;
  const rows = alerts.data.data;
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid="vehicle-alerts">
      {rows.length === 0 ? (
        <p className="text-sm text-foreground-muted">{t('alerts.empty')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border">
          {rows.map((n) => (
            <li key={n.uuid} className="flex min-w-0 flex-col gap-0.5 py-2" data-testid="vehicle-alert">
              <Link
                to={paths.details('notifications', n.uuid)}
                className="flex min-w-0 flex-wrap items-baseline justify-between gap-2"
              >
                <span className="font-medium">
                  {n.title}
                  {n.read ? null : <span className="ms-2 text-xs text-primary">{t('alerts.unread')}</span>}
                </span>
                <bdi dir="ltr" className="text-xs text-foreground-muted">
                  {formatDate(n.device_created_at ?? n.created_at, 'long', {
                    locale: i18n.language,
                    timeZone,
                  })}
                </bdi>
              </Link>
              <span className="text-sm break-words text-foreground-muted">{n.message}</span>
            </li>
          ))}
        </ul>
      )}
      <Link className="text-sm text-primary underline" to={paths.notifications}>
        {t('alerts.all')}
      </Link>
    </div>
  );
}

function VehicleHistoryLink({ vehicleUuid }: { vehicleUuid: string }) {
  const { t } = useTranslation('vehicles');
  return (
    <Link
      className="text-sm text-primary underline"
      to={`${paths.routeHistory}?vehicle=${vehicleUuid}`}
      data-testid="vehicle-history-link"
    >
      {t('history.open')}
    </Link>
  );
}
