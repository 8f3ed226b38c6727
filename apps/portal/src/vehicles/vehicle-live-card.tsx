import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeIoElements, formatIoReading, type IoReading } from '@fleet/core';
import { DetailSection, FollowVehicle, toVehicleMarker, VehicleLayer } from '@fleet/ui';
import type { LiveVehicle } from '@fleet/api-client';
import { MapView } from '../map/map-view';
import { useLiveVehicles } from '../live/use-live-vehicles';
import { useNow } from '../live/use-now';
import { VehicleSummary } from '../live/vehicle-summary';

/** Latest fuel and supply readings, most specific first (the device reports one or several of them). */
const FUEL_KEYS = ['fuelLevel', 'fuelLitres'] as const;
const VOLTAGE_KEYS = ['externalVoltage', 'batteryVoltage'] as const;

function firstReading(readings: readonly IoReading[], keys: readonly string[]): IoReading | undefined {
  for (const key of keys) {
    const hit = readings.find((r) => r.key === key && r.kind === 'number');
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The vehicle page's live card: a small map with the vehicle's marker (opened centred on it; the
 * marker moves as the socket reports) beside its latest values: status, speed, ignition, last seen, fuel, supply
 * voltage, driver, address. The values come from the live cache the socket keeps current, so the card
 * moves without reloading the page. No "Open vehicle" link here: this is the vehicle's own page.
 */
export function VehicleLiveCard({ vehicleUuid }: { vehicleUuid: string }) {
  const { t } = useTranslation('vehicles');
  const live = useLiveVehicles();
  const now = useNow();
  const vehicle = live.data?.data.find((v) => v.uuid === vehicleUuid);
  if (!vehicle) return null;
  return (
    <DetailSection title={t('overview.live')}>
      <div
        className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]"
        data-testid="vehicle-live-card"
      >
        <VehicleMiniMap vehicle={vehicle} now={now} />
        <div className="flex min-w-0 flex-col gap-3">
          <VehicleSummary vehicle={vehicle} now={now} compact showOpen={false} />
          <VehicleReadings vehicle={vehicle} />
        </div>
      </div>
    </DetailSection>
  );
}

function VehicleMiniMap({ vehicle, now }: { vehicle: LiveVehicle; now: number }) {
  const { t } = useTranslation('vehicles');
  const location = vehicle.location;
  const marker = useMemo(
    () =>
      toVehicleMarker(
        {
          id: vehicle.uuid,
          type: vehicle.type,
          latest: location,
          heading: location?.heading ?? null,
          label: vehicle.license_plate_number,
        },
        now,
      ),
    [vehicle.uuid, vehicle.type, vehicle.license_plate_number, location, now],
  );
  if (!marker || location?.latitude == null || location.longitude == null)
    return (
      <p
        className="flex h-56 items-center justify-center rounded-md border border-border p-4 text-center text-sm text-foreground-muted"
        data-testid="vehicle-mini-map-empty"
      >
        {t('overview.noLocation')}
      </p>
    );
  return (
    <div
      className="h-56 min-w-0 overflow-hidden rounded-md border border-border lg:h-64"
      data-testid="vehicle-mini-map"
    >
      {/* The map opens centred on the vehicle; the layer moves the marker as live updates arrive and
          FollowVehicle pans to each fix until the user drags the map; its "Follow" toggle (bottom-end
          corner) turns following back on and recentres. */}
      <MapView center={[location.latitude, location.longitude]} zoom={15} className="h-full">
        <VehicleLayer vehicles={[marker]} selectedId={null} clusterMaxZoom={-1} />
        <FollowVehicle
          position={{ lat: location.latitude, lng: location.longitude }}
          name={vehicle.license_plate_number}
          data-testid="mini-map-follow"
        />
      </MapView>
    </div>
  );
}

function VehicleReadings({ vehicle }: { vehicle: LiveVehicle }) {
  const { t, i18n } = useTranslation('vehicles');
  const readings = useMemo(() => decodeIoElements(vehicle.location?.io_elements), [vehicle.location]);
  const fuel = firstReading(readings, FUEL_KEYS);
  const voltage = firstReading(readings, VOLTAGE_KEYS);
  if (!fuel && !voltage) return null;
  return (
    <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm" data-testid="vehicle-readings">
      {fuel ? (
        <>
          <dt className="text-foreground-muted">{t('overview.fuel')}</dt>
          <dd data-testid="vehicle-fuel">
            <bdi dir="ltr">{formatIoReading(fuel, i18n.language)}</bdi>
          </dd>
        </>
      ) : null}
      {voltage ? (
        <>
          <dt className="text-foreground-muted">{t('overview.voltage')}</dt>
          <dd data-testid="vehicle-voltage">
            <bdi dir="ltr">{formatIoReading(voltage, i18n.language)}</bdi>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
