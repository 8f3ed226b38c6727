import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useServices, useSession } from '../state/app-context';
import { VehiclePlate } from './vehicle-plate';

/**
 * A record's `vehicle_uuid` (devices, drivers) as its vehicle: the plate card, linked to the vehicle's
 * details. Never the raw uuid: a placeholder while loading, "Not available" when the user may not see
 * the vehicle (the uuid stays in the tooltip).
 */
export function VehicleRef({ uuid }: { uuid: string }) {
  const { t } = useTranslation('common');
  const { api } = useServices();
  const { company } = useSession();
  const vehicle = useQuery({
    queryKey: ['vehicles', 'ref', company?.uuid, uuid],
    queryFn: ({ signal }) => api.request('vehicles.show', { params: { uuid }, signal }),
    staleTime: 60_000,
    retry: false,
  });
  const v = vehicle.data?.data;
  if (vehicle.isPending) return <span className="text-foreground-muted">…</span>;
  if (!v)
    return (
      <span className="text-foreground-muted" title={uuid}>
        {t('field.unavailable')}
      </span>
    );
  return (
    <Link
      to={`/dashboard/vehicles/details/${uuid}`}
      aria-label={v.license_plate_number}
      className="inline-block"
      data-testid="vehicle-ref"
    >
      <VehiclePlate vehicle={v} />
    </Link>
  );
}
