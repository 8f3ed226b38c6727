import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths, type CrudEntity } from '../app/paths';
import { useServices, useSession } from '../state/app-context';
import { requestByName, type Row } from './api';
import { entityConfigs, recordTitle } from './registry';

/**
 * Reference fields (`branch_uuid`, `station_uuid`, `driver_uuid` ...) and the entity they point to.
 * `vehicle_uuid` has its own plate card (VehicleRef).
 */
export const referenceEntities: Readonly<Record<string, CrudEntity>> = {
  branch_uuid: 'branches',
  station_uuid: 'stations',
  school_uuid: 'schools',
  driver_uuid: 'drivers',
  device_uuid: 'devices',
  geofence_uuid: 'geofences',
  guardian_uuid: 'guardians',
  supervisor_uuid: 'supervisors',
  passenger_uuid: 'passengers',
  user_uuid: 'users',
  scheduled_trip_uuid: 'scheduled-trips',
};

/** The entity a `*_uuid` field points to, or null when it is not a reference the portal can name. */
export function referenceEntity(field: string): CrudEntity | null {
  return referenceEntities[field] ?? null;
}

/** The query of one referenced record (shared by every place that names it; cached for a minute). */
export function useReferencedRecord(entity: CrudEntity, uuid: string) {
  const { api } = useServices();
  const { company } = useSession();
  const group = entityConfigs[entity].group;
  return useQuery({
    queryKey: ['record', group, uuid, company?.uuid],
    queryFn: ({ signal }) => requestByName<{ data: Row }>(api, `${group}.show`, { params: { uuid }, signal }),
    staleTime: 60_000,
    retry: false,
    enabled: Boolean(uuid),
  });
}

/**
 * A reference as the referenced record's name, linked to its details. A person never reads a raw
 * UUID: while loading the cell shows a placeholder, and a record the user may not see (or one that was
 * deleted) reads "Not available" (the UUID stays in the tooltip for support).
 */
export function RecordRef({ entity, uuid }: { entity: CrudEntity; uuid: string }) {
  const { t } = useTranslation('common');
  const record = useReferencedRecord(entity, uuid);
  if (record.isPending)
    return (
      <span className="text-foreground-muted" aria-busy="true" data-testid="record-ref-loading">
        …
      </span>
    );
  const item = record.data?.data;
  if (!item)
    return (
      <span className="text-foreground-muted" title={uuid} data-testid="record-ref-unavailable">
        {t('field.unavailable')}
      </span>
    );
  return (
    <Link
      to={paths.details(entity, uuid)}
      className="text-primary underline-offset-2 hover:underline"
      data-testid="record-ref"
      data-entity={entity}
    >
      {recordTitle(item)}
    </Link>
  );
}
