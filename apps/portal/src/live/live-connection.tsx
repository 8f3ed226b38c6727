import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  RealtimeClient,
  realtimeKey,
  type LiveVehiclesResponse,
  type WebSocketLike,
} from '@fleet/api-client';
import { shouldShowEmergencyAlert, storageKeys, intlLocale } from '@fleet/core';
import { Button, Dialog, PlateCard } from '@fleet/ui';
import { useServices, useSession } from '../state/app-context';
import { useCoreText } from '../i18n/core-text';
import { applyLiveUpdates } from './merge';
import { RealtimeContext, type PortalRealtimeMessage } from './realtime-context';
import { UpdateBatcher } from './update-batcher';
import { LiveResync } from './resync';
import { liveVehiclesKey, useLiveVehicleIds } from './use-live-vehicles';
import { unreadKey } from './use-notifications';

const LOCATION_EVENTS = ['device-location', 'generic-device-location'] as const;

interface Emergency {
  vehicleUuid: string;
  plate: string;
  stateCode: string | null;
  category: string | null;
  at: string;
}

/**
 * The real-time connection of spec §4, started when a company is selected: merges live locations into
 * the cached vehicles (batched per burst of updates), raises the emergency alert dialog, shows live
 * notifications as a toast and bumps the unread badge. Pages reach the client through context
 * (command responses).
 */
export function LiveConnection({ children }: { children?: ReactNode }) {
  const { queryClient, toasts, storage } = useServices();
  const { company, user } = useSession();
  const [emergency, setEmergency] = useState<Emergency | null>(null);
  const token = storage.getItem(storageKeys.accessToken);
  const companyUuid = company?.uuid;
  const userUuid = user?.uuid;
  // The server words alert notifications in the socket's language: a language switch reconnects.
  const locale = useTranslation().i18n.language === 'ar' ? 'ar' : 'en';

  // One client per company, user, token and language; constructing it connects nothing (the effect does).
  const client = useMemo(() => {
    if (!companyUuid || !userUuid || typeof WebSocket === 'undefined') return null;
    return new RealtimeClient({
      baseUrl: window.location.origin,
      firstId: companyUuid,
      secondId: userUuid,
      token,
      locale,
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
      logger: console,
    });
  }, [companyUuid, userUuid, token, locale]);

  useEffect(() => {
    if (!client) return;
    client.connect();
    return () => client.close();
  }, [client]);

  // Catching up after a gap (see resync.ts): the live list and the unread count are fetched again on
  // every reconnect, when the browser is back online and when the page becomes visible; live batches
  // wait for the answer and are then applied on top of it.
  const resync = useMemo(() => {
    if (!client) return null;
    const key = liveVehiclesKey(companyUuid);
    return new LiveResync({
      refetch: () =>
        Promise.all([
          queryClient.refetchQueries({ queryKey: key, exact: true }, { throwOnError: true }),
          queryClient.invalidateQueries({ queryKey: unreadKey(companyUuid) }),
          queryClient.invalidateQueries({ queryKey: ['list', 'notifications'] }),
        ]),
      apply: (batch, onlyNewer) =>
        queryClient.setQueryData<LiveVehiclesResponse>(key, (cache) =>
          applyLiveUpdates(cache, batch, onlyNewer),
        ),
    });
  }, [client, companyUuid, queryClient]);

  useEffect(() => {
    if (!client || !resync) return;
    let opened = client.state === 'open';
    const offState = client.onStateChange((state) => {
      if (state !== 'open') return;
      // The first open follows the first fetch; every later one ends a gap.
      if (opened) void resync.resync();
      opened = true;
    });
    const wake = () => {
      client.reconnectNow();
      void resync.resync();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') wake();
    };
    window.addEventListener('online', wake);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      offState();
      window.removeEventListener('online', wake);
      document.removeEventListener('visibilitychange', onVisibility);
      resync.dispose();
    };
  }, [client, resync]);

  // Subscriptions follow the set of vehicles, not their positions: this component re-renders when a
  // vehicle is added or removed, not on every live update.
  const idsKey = useLiveVehicleIds();
  const vehicleIds = useMemo(() => (idsKey ? idsKey.split(',') : []), [idsKey]);

  useEffect(() => {
    if (!client || !resync || vehicleIds.length === 0) return;
    const key = liveVehiclesKey(companyUuid);
    // Location updates are applied per burst (see UpdateBatcher): one cache write, so one render of
    // the map and list and one canvas paint, for the ~1,000 updates of a second; held while a resync
    // fetches the list.
    const batcher = new UpdateBatcher((batch) => resync.offer(batch));
    const onUpdate = (uuid: string) => (_data: unknown, message: PortalRealtimeMessage) => {
      if (message.event !== 'device-location' && message.event !== 'generic-device-location') return;
      const update = message.data;
      batcher.push(uuid, update);
      if (shouldShowEmergencyAlert(update, company)) {
        const vehicle = queryClient
          .getQueryData<LiveVehiclesResponse>(key)
          ?.data.find((v) => v.uuid === uuid);
        setEmergency({
          vehicleUuid: uuid,
          plate: vehicle?.license_plate_number ?? uuid,
          stateCode: vehicle?.license_plate_state_code ?? null,
          category: vehicle?.license_plate_category ?? null,
          at: update.created_at ?? new Date().toISOString(),
        });
      }
    };
    const offs = vehicleIds.flatMap((uuid) =>
      LOCATION_EVENTS.map((event) => client.on(realtimeKey(event, uuid), onUpdate(uuid))),
    );
    return () => {
      for (const off of offs) off();
      batcher.dispose();
    };
  }, [client, resync, vehicleIds, companyUuid, queryClient, company]);

  const { t } = useTranslation('notifications');
  useEffect(() => {
    if (!client || !userUuid) return;
    return client.on(realtimeKey('notification', userUuid), (_data, message) => {
      if (message.event !== 'notification') return;
      const notification = message.data;
      toasts.show({
        kind: 'warning',
        message: notification.title || t('toast.received'),
        ...(notification.message ? { caption: notification.message } : {}),
      });
      queryClient.setQueryData<number>(unreadKey(companyUuid), (count) => (count ?? 0) + 1);
      void queryClient.invalidateQueries({ queryKey: ['list', 'notifications'] });
    });
  }, [client, userUuid, companyUuid, queryClient, toasts, t]);

  return (
    <RealtimeContext.Provider value={client}>
      {children}
      {emergency ? <EmergencyDialog emergency={emergency} onClose={() => setEmergency(null)} /> : null}
    </RealtimeContext.Provider>
  );
}

function EmergencyDialog({ emergency, onClose }: { emergency: Emergency; onClose: () => void }) {
  const { t, i18n } = useTranslation('live');
  const core = useCoreText();
  const navigate = useNavigate();
  const time = new Date(emergency.at).toLocaleString(intlLocale(i18n.language));
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={<span className="text-danger">{core('emergency.title')}</span>}
      footer={
        <>
          <Button variant="danger" onClick={onClose} data-testid="emergency-acknowledge">
            {t('emergency.acknowledge')}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              onClose();
              navigate(`/dashboard/live?vehicle=${encodeURIComponent(emergency.vehicleUuid)}`);
            }}
          >
            {t('emergency.showOnMap')}
          </Button>
        </>
      }
    >
      <div className="mb-3">
        <PlateCard
          number={emergency.plate}
          stateCode={emergency.stateCode ?? ''}
          category={emergency.category ?? null}
        />
      </div>
      <p className="text-foreground">{core('emergency.message', { plate: emergency.plate })}</p>
      <p className="mt-1 text-sm text-foreground-muted">{t('emergency.at', { time })}</p>
    </Dialog>
  );
}
