import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate, type MessageKey } from '@fleet/core';
import type { LiveVehicle } from '@fleet/api-client';
import { DataTable, PageHeader, type ColumnDef } from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { PlaceAddress } from '../../map/address';
import { LiveStatusTabs } from '../../live/live-status-tabs';
import { useTimeZone } from '../../entities/display';
import { useCoreText } from '../../i18n/core-text';
import { useLiveView } from '../../live/use-live-view';
import { usePageReady } from '../../state/use-page-ready';

const PAGE = 50;

/** live/list: the same live vehicles as a list, with the status tabs and their counts. */
export default function LiveListPage() {
  const { t, i18n } = useTranslation('live');
  const core = useCoreText();
  const timeZone = useTimeZone();
  const view = useLiveView();
  usePageReady(view.live.isSuccess);

  // Accessors give the kit's table something to search and sort on; cells draw the value.
  const columns: ColumnDef<LiveVehicle, unknown>[] = [
    {
      id: 'plate',
      header: t('fields:label.license_plate_number'),
      accessorFn: (v) => v.license_plate_number,
      cell: ({ row: { original: v } }) => (
        <Link to={`/dashboard/live?vehicle=${v.uuid}`} aria-label={v.license_plate_number}>
          <VehiclePlate vehicle={v} />
        </Link>
      ),
    },
    {
      id: 'status',
      header: t('common:status.label'),
      accessorFn: (v) => core(`status.${view.statusOf.get(v.uuid) ?? 'no-data'}` as MessageKey),
    },
    {
      id: 'speed',
      header: t('vehicle.speed'),
      meta: { numeric: true },
      accessorFn: (v) => v.location?.speed ?? null,
      cell: ({ row: { original: v } }) =>
        v.location ? <bdi>{t('vehicle.speedValue', { speed: Math.round(v.location.speed) })}</bdi> : '—',
    },
    {
      id: 'updated',
      header: t('vehicle.lastUpdate'),
      accessorFn: (v) => v.location?.created_at ?? null,
      cell: ({ row: { original: v } }) =>
        v.location ? (
          <time dir="ltr" dateTime={v.location.created_at}>
            {formatDate(v.location.created_at, 'long', { locale: i18n.language, timeZone })}
          </time>
        ) : (
          core('empty.noLocation')
        ),
    },
    { id: 'driver', header: t('vehicle.driver'), accessorFn: (v) => v.driver?.name ?? '—' },
    {
      // The reverse-geocoded address when a geocoder is configured (GEOCODER_URL); the position's
      // coordinates stay in the title. Not sortable: addresses arrive after the rows.
      id: 'address',
      header: t('vehicle.address'),
      enableSorting: false,
      cell: ({ row: { original: v } }) =>
        v.location?.latitude != null && v.location.longitude != null ? (
          <span title={`${v.location.latitude}, ${v.location.longitude}`}>
            <PlaceAddress lat={v.location.latitude} lng={v.location.longitude} />
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'history',
      header: t('vehicle.history'),
      enableSorting: false,
      cell: ({ row: { original: v } }) => (
        <Link className="text-primary underline" to={`/dashboard/live/route-history?vehicle=${v.uuid}`}>
          {t('vehicle.history')}
        </Link>
      ),
    },
  ];

  return (
    <div data-testid="live-list">
      <PageHeader
        className="mb-4"
        title={t('page.list')}
        actions={
          <Link
            className="text-sm text-primary underline"
            to={`/dashboard/live${view.tab !== 'all' ? `?tab=${view.tab}` : ''}`}
          >
            {t('view.map')}
          </Link>
        }
      />
      <LiveStatusTabs value={view.tab} counts={view.counts} onValueChange={view.setTab} />
      <div className="mt-3">
        <DataTable<LiveVehicle>
          // A new tab is a new list: start it on its first page.
          key={view.tab}
          caption={t('page.list')}
          columns={columns}
          data={view.visible}
          getRowId={(v) => v.uuid}
          pageSize={PAGE}
          loading={view.live.isPending}
        />
      </div>
    </div>
  );
}
