import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useServices, useSession } from '../state/app-context';
import { VehiclePlate } from './vehicle-plate';

/**
 * A record's `vehicle_uuid` (devices, drivers) as its vehicle: the plate card, linked to the vehicle's
 * details. Until the vehicle is loaded, or when the user may not see it, the uuid itself is shown.
 */
export function VehicleRef({ uuid }: { uuid: string }) {
  const { api } = useServices();
  const { company } = useSession();
  const vehicle = useQuery({
    queryKey: ['vehicles', 'ref', company?.uuid, uuid],
    queryFn: ({ signal }) => api.request('vehicles.show', { params: { uuid }, signal }),
    staleTime: 60_000,
    retry: false,
  });
  const v = vehicle.data?.data;
  if (!v)
    return (
      <bdi dir="ltr" className="break-all">
        {uuid}
      </bdi>
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
