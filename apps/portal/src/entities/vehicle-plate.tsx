import { PlateCard, type PlateCardSize } from '@fleet/ui';

/** The plate fields every vehicle-bearing API record carries (state code and category may be null). */
export interface PlateFields {
  license_plate_number: string;
  license_plate_state_code?: string | null | undefined;
  license_plate_category?: string | null | undefined;
}

/**
 * A vehicle's plate as the kit's PlateCard. The API sends a missing state code as null while the kit
 * wants a string (an empty top bar is how the spec's card shows "no state"), so this maps the
 * record's nullable fields once instead of at every call site.
 */
export function VehiclePlate({
  vehicle,
  size = 'sm',
  className,
}: {
  vehicle: PlateFields;
  size?: PlateCardSize;
  className?: string;
}) {
  return (
    <PlateCard
      number={vehicle.license_plate_number}
      stateCode={vehicle.license_plate_state_code ?? ''}
      category={vehicle.license_plate_category ?? null}
      size={size}
      {...(className ? { className } : {})}
    />
  );
}
