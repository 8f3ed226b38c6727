import { useTranslation } from 'react-i18next';
import { DetailSection } from '@fleet/ui';

/** Default gateway ports (apps/server gateway config: GATEWAY_OSMAND_PORT, MQTT_TOPIC). */
export const OSMAND_DEFAULT_PORT = 5055;

/**
 * What to enter in the phone app for a device of type `osmand` (server address, port, device
 * identifier) or what to publish for `mqtt`. The address is the portal's host: the gateway runs on the
 * same server unless the operator says otherwise.
 */
export function ConnectHelp({ type, imei }: { type: string; imei: string }) {
  const { t } = useTranslation('devices');
  if (type !== 'osmand' && type !== 'mqtt') return null;
  const host = typeof window === 'undefined' ? '' : window.location.hostname;
  const rows: [string, string][] =
    type === 'osmand'
      ? [
          [t('connect.server'), `http://${host}:${OSMAND_DEFAULT_PORT}`],
          [t('connect.port'), String(OSMAND_DEFAULT_PORT)],
          [t('connect.deviceId'), imei],
        ]
      : [
          [t('connect.topic'), `fleet/${imei}/location`],
          [t('connect.deviceId'), imei],
        ];
  return (
    <DetailSection title={t('connect.title')}>
      <div data-testid="connect-help" className="flex flex-col gap-2 text-sm">
        <p>{type === 'osmand' ? t('connect.osmand') : t('connect.mqtt')}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-foreground-muted">{k}</dt>
              <dd>
                <bdi dir="ltr" className="font-mono">
                  {v}
                </bdi>
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </DetailSection>
  );
}
