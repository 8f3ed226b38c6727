import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatDate, storageKeys } from '@fleet/core';
import {
  GeofenceLayer,
  LoadingState,
  MapView,
  NativeSelect,
  VehicleLayer,
  toVehicleMarker,
  type GeofenceShape,
} from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { changeLanguage } from '../../i18n/i18n';
import { useLanguageSelect } from '../../i18n/use-language-select';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { PublicLinkInvalid, PublicPageHeader } from './public-page';

/**
 * track/{token}: the public page of a guardian message's tracking link (issue 14). No sign-in; only the
 * bus of that passenger's trip, its latest position (refreshed every 15 s) and the guardian's stop with
 * the ETA. The first view is in the guardian's saved language unless this browser already chose one.
 * A forged, expired or revoked link, and one whose trip has ended, show the same plain "not available"
 * page, so the page reveals nothing about which links exist (the approach of share/{token}).
 */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The stop's circle: the pipeline's stop radius (a stop is reached within 150 m). */
const STOP_RADIUS_M = 150;

export default function TrackedTripPage() {
  const { token = '' } = useParams();
  const { t, i18n } = useTranslation('messages');
  const { api, storage } = useServices();
  const languageSelect = useLanguageSelect();
  const tracked = useQuery({
    queryKey: ['track', token],
    queryFn: ({ signal }) => api.request('track.show', { params: { token }, signal }),
    refetchInterval: (q) => (q.state.status === 'error' ? false : 15_000),
    retry: false,
  });
  usePageReady(tracked.isSuccess || tracked.isError);
  const data = tracked.data?.data;
  const languageApplied = useRef(false);
  useEffect(() => {
    if (!data || languageApplied.current) return;
    languageApplied.current = true;
    const wanted = data.language === 'ar' ? 'ar' : 'en-US';
    if (!storage.getItem(storageKeys.locale) && i18n.language !== wanted) void changeLanguage(i18n, wanted);
  }, [data, i18n, storage]);

  const marker =
    data?.location &&
    toVehicleMarker(
      {
        id: 'tracked',
        type: data.vehicle.type,
        latest: data.location,
        heading: data.location.heading ?? null,
        label: data.vehicle.license_plate_number,
      },
      tracked.dataUpdatedAt,
    );
  const stopShape: GeofenceShape[] = data
    ? [
        {
          id: 'stop',
          name: data.stop.name,
          geometry: {
            type: 'Circle',
            center: [data.stop.longitude, data.stop.latitude],
            radius: STOP_RADIUS_M,
          },
        },
      ]
    : [];
  const passenger =
    data && i18n.language === 'ar' && data.passenger.first_name_ar
      ? data.passenger.first_name_ar
      : data?.passenger.first_name;
  const when = (iso: string) => formatDate(iso, 'long', { locale: i18n.language, timeZone });
  const eta = !data
    ? ''
    : data.stop.reached || data.eta_minutes === 0
      ? t('track.atStop')
      : data.eta_minutes === null
        ? t('track.noPosition')
        : t('track.eta', { minutes: data.eta_minutes });
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground" data-testid="tracked-trip">
      <PublicPageHeader title={t('common:app.name')}>
        <NativeSelect {...languageSelect} />
      </PublicPageHeader>
      <main className="flex flex-1 flex-col gap-3 p-4">
        {tracked.isPending ? <LoadingState label={t('common:state.loading')} /> : null}
        {tracked.isError ? (
          <PublicLinkInvalid
            title={t('track.invalidTitle')}
            text={t('track.invalid')}
            testId="track-invalid"
          />
        ) : null}
        {data ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-xl font-semibold">{t('track.title')}</h1>
              <VehiclePlate vehicle={data.vehicle} />
              <span className="rounded-full bg-muted px-2 py-0.5 text-sm" data-testid="track-status">
                {t(`track.status.${data.trip.status}`)}
              </span>
            </div>
            <p className="text-lg font-medium" data-testid="track-eta">
              {eta}
              {data.distance_m !== null && data.distance_m > 0 && !data.stop.reached ? (
                <span className="ms-2 text-sm text-foreground-muted">
                  {t('track.distance', { km: (data.distance_m / 1000).toFixed(1) })}
                </span>
              ) : null}
            </p>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-foreground-muted">
              <li>{t('track.trip', { name: data.trip.name })}</li>
              <li>{t('track.passenger', { name: passenger })}</li>
              <li data-testid="track-stop">{t('track.stop', { name: data.stop.name })}</li>
            </ul>
            <p className="text-sm text-foreground-muted">
              {data.location ? t('track.updated', { time: when(data.location.created_at) }) : null} ·{' '}
              {t('track.expires', { time: when(data.expires_at) })}
            </p>
            <div className="h-[60vh] min-h-72 overflow-hidden rounded-lg border border-border">
              <MapView
                center={marker ? [marker.lat, marker.lng] : [data.stop.latitude, data.stop.longitude]}
                zoom={14}
                className="h-full"
              >
                <GeofenceLayer shapes={stopShape} />
                {marker ? <VehicleLayer vehicles={[marker]} clusterMaxZoom={-1} /> : null}
              </MapView>
            </div>
          </>
        ) : null}
      </main>
    </div>
  );
}
