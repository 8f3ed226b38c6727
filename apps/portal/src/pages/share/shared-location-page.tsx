import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatDate } from '@fleet/core';
import { LoadingState, MapView, NativeSelect, VehicleLayer, toVehicleMarker } from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { useLanguageSelect } from '../../i18n/use-language-select';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';

/**
 * share/{token}: the public page of a share-location link (copy link, share by e-mail). No sign-in;
 * only that vehicle's plate and latest position, refreshed every 15 s, until the link expires. A
 * forged, expired or revoked link shows one plain "not available" page, whatever the reason, so the
 * page reveals nothing about which links exist.
 */
/** The visitor's own time zone: the page is public, with no company setting to follow. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export default function SharedLocationPage() {
  const { token = '' } = useParams();
  const { t, i18n } = useTranslation('messages');
  const { api } = useServices();
  const languageSelect = useLanguageSelect();
  const shared = useQuery({
    queryKey: ['share', token],
    queryFn: ({ signal }) => api.request('share.show', { params: { token }, signal }),
    refetchInterval: (q) => (q.state.status === 'error' ? false : 15_000),
    retry: false,
  });
  usePageReady(shared.isSuccess || shared.isError);
  const data = shared.data?.data;
  const marker =
    data?.location &&
    toVehicleMarker(
      {
        id: 'shared',
        type: data.vehicle.type,
        latest: data.location,
        heading: data.location.heading ?? null,
        label: data.vehicle.license_plate_number,
      },
      shared.dataUpdatedAt,
    );
  return (
    <div className="flex min-h-dvh flex-col bg-background text-foreground" data-testid="shared-location">
      <header className="flex items-center justify-between gap-2 p-4">
        <div className="flex items-center gap-2">
          <img src="/icons/icon.svg" alt="" className="size-8" />
          <span className="text-lg font-semibold">{t('common:app.name')}</span>
        </div>
        <NativeSelect {...languageSelect} />
      </header>
      <main className="flex flex-1 flex-col gap-3 p-4">
        {shared.isPending ? <LoadingState label={t('common:state.loading')} /> : null}
        {shared.isError ? (
          <div className="mx-auto mt-16 max-w-md text-center" data-testid="share-invalid">
            <p className="text-5xl font-bold text-primary">404</p>
            <h1 className="mt-3 text-xl font-semibold">{t('share.invalidTitle')}</h1>
            <p className="mt-2 text-foreground-muted">{t('share.invalid')}</p>
          </div>
        ) : null}
        {data ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-xl font-semibold">{t('share.title')}</h1>
              <VehiclePlate vehicle={data.vehicle} />
            </div>
            <p className="text-sm text-foreground-muted">
              {data.location
                ? t('share.updated', {
                    time: formatDate(data.location.created_at, 'long', { locale: i18n.language, timeZone }),
                  })
                : t('share.noPosition')}{' '}
              ·{' '}
              {t('share.expires', {
                time: formatDate(data.expires_at, 'long', { locale: i18n.language, timeZone }),
              })}
            </p>
            <div className="h-[65vh] min-h-72 overflow-hidden rounded-lg border border-border">
              {marker ? (
                <MapView center={[marker.lat, marker.lng]} zoom={15} className="h-full">
                  <VehicleLayer vehicles={[marker]} clusterMaxZoom={-1} />
                </MapView>
              ) : null}
            </div>
          </>
        ) : null}
      </main>
    </div>
  );
}
