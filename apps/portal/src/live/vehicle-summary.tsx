import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  formatDate,
  formatIdleLabel,
  idleSecondsSince,
  vehicleStatus,
  type MessageKey,
  intlLocale,
} from '@fleet/core';
import type { LiveVehicle } from '@fleet/api-client';
import { useSmallScreen } from '../app/guards';
import { VehiclePlate } from '../entities/vehicle-plate';
import { useCoreText } from '../i18n/core-text';
import { useTimeZone } from '../entities/display';
import { ShareLocation } from './share-location';
import { useAddress } from '../map/address';

/** The selected vehicle's card (map popup and vehicle page): plate, status, speed, last update, actions. */
export function VehicleSummary({
  vehicle,
  now,
  compact = false,
  showOpen = true,
}: {
  vehicle: LiveVehicle;
  now: number;
  compact?: boolean;
  /** The "Open vehicle" link; off on the vehicle's own page (it would link to itself). */
  showOpen?: boolean;
}) {
  const { t, i18n } = useTranslation('live');
  const small = useSmallScreen();
  const core = useCoreText();
  const timeZone = useTimeZone();
  const location = vehicle.location;
  const status = vehicleStatus(location, now);
  const address = useAddress(location?.latitude, location?.longitude);
  return (
    <div
      data-testid="vehicle-summary"
      data-status={status}
      className="flex min-w-56 flex-col gap-2 text-sm text-foreground"
    >
      <div className="flex items-center justify-between gap-2">
        <VehiclePlate vehicle={vehicle} />
        <span className="text-xs font-medium">{core(`status.${status}` as MessageKey)}</span>
      </div>
      {!location ? (
        <p className="text-foreground-muted">{core('empty.noLocation')}</p>
      ) : (
        <dl className="grid grid-cols-2 gap-x-3 gap-y-1">
          <dt className="text-foreground-muted">{t('vehicle.speed')}</dt>
          <dd>
            {/* Direction from the text (not pinned LTR): "34 كم/س" reads number first in Arabic. */}
            <bdi>
              {t('vehicle.speedValue', {
                speed: Math.round(location.speed).toLocaleString(intlLocale(i18n.language)),
              })}
            </bdi>
          </dd>
          <dt className="text-foreground-muted">{t('vehicle.ignition')}</dt>
          <dd>{location.ignition === 1 ? t('vehicle.ignitionOn') : t('vehicle.ignitionOff')}</dd>
          {address ? (
            <>
              <dt className="text-foreground-muted">{t('vehicle.address')}</dt>
              <dd data-testid="vehicle-address" className="col-span-1 break-words">
                {address}
              </dd>
            </>
          ) : null}
          {location.latitude !== null && location.longitude !== null ? (
            <>
              <dt className="text-foreground-muted">{t('vehicle.coordinates')}</dt>
              <dd>
                <bdi dir="ltr" className="tabular-nums" data-testid="vehicle-coordinates">
                  {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)}
                </bdi>
              </dd>
            </>
          ) : null}
          <dt className="text-foreground-muted">{t('vehicle.lastUpdate')}</dt>
          <dd>
            <bdi dir="ltr">
              {formatDate(location.created_at, 'long', { locale: i18n.language, timeZone })}
            </bdi>
          </dd>
          {status === 'idle' ? (
            <>
              <dt className="text-foreground-muted">{core('status.idle')}</dt>
              <dd>
                {formatIdleLabel(idleSecondsSince(Date.parse(location.created_at), now), i18n.language)}
              </dd>
            </>
          ) : null}
          {vehicle.driver ? (
            <>
              <dt className="text-foreground-muted">{t('vehicle.driver')}</dt>
              <dd>{vehicle.driver.name}</dd>
            </>
          ) : null}
        </dl>
      )}
      {status === 'inactive' ? <p className="text-warning">{core('status.inactiveMessage')}</p> : null}
      {!compact ? null : (
        <div className="flex flex-wrap gap-3">
          {/* Details fall back to the list on small screens, and the vehicle's own page needs no link to itself. */}
          {showOpen && !small ? (
            <Link className="text-primary underline" to={`/dashboard/vehicles/details/${vehicle.uuid}`}>
              {t('vehicle.open')}
            </Link>
          ) : null}
          <Link
            className="text-primary underline"
            to={`/dashboard/live/route-history?vehicle=${vehicle.uuid}`}
          >
            {t('vehicle.history')}
          </Link>
        </div>
      )}
      <ShareLocation
        vehicleUuid={vehicle.uuid}
        plate={vehicle.license_plate_number}
        latitude={location?.latitude ?? null}
        longitude={location?.longitude ?? null}
      />
    </div>
  );
}
