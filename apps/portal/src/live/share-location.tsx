import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../state/app-context';
import { mailtoUrl, mapsUrl } from './share';
import { Button, buttonRecipe, ExternalLinkIcon } from '@fleet/ui';

/** Share location: creates a share link (server), then copy / e-mail / open in a maps service. */
export function ShareLocation({
  vehicleUuid,
  plate,
  latitude,
  longitude,
}: {
  vehicleUuid: string;
  plate: string;
  latitude: number | null;
  longitude: number | null;
}) {
  const { t } = useTranslation('live');
  const { api, toasts } = useServices();
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const ensureLink = async (): Promise<string | null> => {
    if (link) return link;
    setBusy(true);
    try {
      const answer = await api.request('vehicles.share', { params: { uuid: vehicleUuid }, body: {} });
      setLink(answer.data.url);
      return answer.data.url;
    } catch (error) {
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      return null;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap gap-2" data-testid="share-location">
      <Button
        size="sm"
        variant="outline"
        loading={busy}
        data-testid="share-copy"
        onClick={async () => {
          const url = await ensureLink();
          if (!url) return;
          try {
            await navigator.clipboard.writeText(url);
          } catch {
            // Clipboard may be refused (permissions); the link is still shown below to copy by hand.
          }
          toasts.show({ kind: 'success', message: t('share.copied') });
        }}
      >
        {t('share.copyLink')}
      </Button>
      <Button
        size="sm"
        variant="outline"
        data-testid="share-email"
        onClick={async () => {
          const url = await ensureLink();
          if (!url) return;
          window.location.href = mailtoUrl(
            t('share.emailSubject', { plate }),
            t('share.emailBody', { plate, link: url }),
          );
        }}
      >
        {t('share.email')}
      </Button>
      {latitude !== null && longitude !== null ? (
        <a
          className={buttonRecipe({ variant: 'outline', size: 'sm' })}
          href={mapsUrl(latitude, longitude)}
          target="_blank"
          rel="noreferrer"
          data-testid="share-maps"
        >
          {t('share.openMaps')}
          <ExternalLinkIcon className="size-4" aria-hidden="true" />
        </a>
      ) : null}
      {link ? (
        <bdi dir="ltr" data-testid="share-link" className="w-full break-all text-xs text-foreground-muted">
          {link}
        </bdi>
      ) : null}
    </div>
  );
}
