import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate, statusTone, vehicleStatus, type MessageKey } from '@fleet/core';
import { lastSeenRanges, vehicleLiveStatuses } from '@fleet/api-client';
import { DetailStatusBadge, type ColumnDef } from '@fleet/ui';
import type { CrudEntity } from '../app/paths';
import type { FilterDef } from '../components/list-table';
import { requestByName, type ListAnswer, type Row } from '../entities/api';
import { useFieldLabel, useTimeZone } from '../entities/display';
import { entityConfigs, recordTitle } from '../entities/registry';
import { useCoreText } from '../i18n/core-text';
import { useLiveVehicles } from '../live/use-live-vehicles';
import { useNow } from '../live/use-now';
import { useServices, useSession } from '../state/app-context';

/** Reference filters of the vehicle list: query parameter -> the entity whose records are the options. */
const referenceFilters = [
  ['branch_uuid', 'branches'],
  ['station_uuid', 'stations'],
  ['school_uuid', 'schools'],
  ['driver_uuid', 'drivers'],
] as const satisfies readonly (readonly [string, CrudEntity])[];

/** Options of a reference filter: the first 500 active records by name (the API's largest page). */
function useReferenceOptions(entity: CrudEntity) {
  const { api } = useServices();
  const { company } = useSession();
  const group = entityConfigs[entity].group;
  return useQuery({
    queryKey: ['filter-options', group, company?.uuid],
    queryFn: ({ signal }) =>
      requestByName<ListAnswer>(api, `${group}.list`, { query: { limit: 500, status: 'active' }, signal }),
    staleTime: 5 * 60_000,
    select: (answer) =>
      answer.data
        .map((row) => ({ value: row.uuid, label: recordTitle(row) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
  });
}

/** The filter names the vehicle list adds to status and type (all read by GET /v1/vehicles). */
export const vehicleExtraFilterNames = [
  ...referenceFilters.map(([name]) => name),
  'live_status',
  'last_seen',
];

/**
 * The vehicle list's additions to the generic list page: filters by branch, station, school, driver,
 * live status and last seen (all applied by the server), and live-status and last-seen columns read
 * from the live cache the socket keeps current (so the list shows what the map shows, without a reload).
 */
export function useVehicleListExtras(): { filters: FilterDef[]; columns: ColumnDef<Row, unknown>[] } {
  const { t, i18n } = useTranslation('vehicles');
  const core = useCoreText();
  const label = useFieldLabel();
  const timeZone = useTimeZone();
  const live = useLiveVehicles();
  const now = useNow();
  const branches = useReferenceOptions('branches');
  const stations = useReferenceOptions('stations');
  const schools = useReferenceOptions('schools');
  const drivers = useReferenceOptions('drivers');
  const options = {
    branch_uuid: branches,
    station_uuid: stations,
    school_uuid: schools,
    driver_uuid: drivers,
  };
  const byUuid = new Map((live.data?.data ?? []).map((v) => [v.uuid, v]));

  const filters: FilterDef[] = [
    ...referenceFilters.map(([name]) => ({
      name,
      label: label(name),
      options: options[name].data ?? [],
    })),
    {
      name: 'live_status',
      label: t('list.liveStatus'),
      options: vehicleLiveStatuses.map((s) => ({ value: s, label: core(`status.${s}` as MessageKey) })),
    },
    {
      name: 'last_seen',
      label: t('overview.lastSeen'),
      options: lastSeenRanges.map((r) => ({ value: r, label: t(`list.lastSeenRange.${r}`) })),
    },
  ];

  const columns: ColumnDef<Row, unknown>[] = [
    {
      id: 'live_status',
      header: t('list.liveStatus'),
      enableSorting: false,
      meta: { label: t('list.liveStatus') },
      cell: ({ row: { original } }) => {
        const vehicle = byUuid.get(original.uuid);
        const status = vehicleStatus(vehicle?.location ?? null, now);
        return (
          <span data-testid="vehicle-live-status" data-status={status}>
            <DetailStatusBadge tone={statusTone(status)}>
              {core(`status.${status}` as MessageKey)}
            </DetailStatusBadge>
          </span>
        );
      },
    },
    {
      id: 'last_seen',
      // An accessor makes the column sortable (the server sorts: GET /v1/vehicles?sort=last_seen).
      accessorFn: (row: Row) => byUuid.get(row.uuid)?.location?.created_at ?? null,
      header: t('overview.lastSeen'),
      enableSorting: true,
      meta: { label: t('overview.lastSeen') },
      cell: ({ row: { original } }) => {
        const at = byUuid.get(original.uuid)?.location?.created_at;
        if (!at) return <span className="text-foreground-muted">{t('list.never')}</span>;
        return (
          <bdi dir="ltr" data-testid="vehicle-last-seen">
            {formatDate(at, 'long', { locale: i18n.language, timeZone })}
          </bdi>
        );
      },
    },
  ];
  return { filters, columns };
}
