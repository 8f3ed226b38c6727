import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { formatDate } from '@fleet/core';
import { DescriptionList, DetailLayout, DetailSection, LoadingState } from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { useTimeZone } from '../../entities/display';
import { unreadKey } from '../../live/use-notifications';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { RecordError } from '../../components/record-error';

/** notifications/details/{uuid}; opening an unread notification marks it read. */
export default function NotificationDetailsPage() {
  const { uuid = '' } = useParams();
  const { t, i18n } = useTranslation('notifications');
  const { api } = useServices();
  const { company } = useSession();
  const queryClient = useQueryClient();
  const timeZone = useTimeZone();
  const record = useQuery({
    queryKey: ['record', 'notifications', uuid, company?.uuid],
    queryFn: ({ signal }) => api.request('notifications.show', { params: { uuid }, signal }),
  });
  usePageReady(record.isSuccess);
  const unread = record.data?.data.read === false;
  useEffect(() => {
    if (!unread) return;
    void api.request('notifications.read', { params: { uuid } }).then(() => {
      void queryClient.invalidateQueries({ queryKey: unreadKey(company?.uuid) });
      void queryClient.invalidateQueries({ queryKey: ['list', 'notifications'] });
    });
  }, [unread, api, uuid, queryClient, company?.uuid]);
  if (record.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (record.isError) return <RecordError error={record.error} listPath="/dashboard/notifications" />;
  const n = record.data.data;
  const when = (value: string | null) =>
    value ? <bdi dir="ltr">{formatDate(value, 'long', { locale: i18n.language, timeZone })}</bdi> : '—';
  return (
    <DetailLayout
      title={<span data-testid="details-title">{n.title}</span>}
      actions={
        <Link className="text-sm text-primary underline" to="/dashboard/notifications">
          {t('list.title')}
        </Link>
      }
    >
      <DetailSection title={t('details.title')}>
        <p className="mb-4 text-foreground">{n.message}</p>
        <DescriptionList
          columns={3}
          items={[
            { id: 'time', label: t('details.time'), value: when(n.created_at) },
            {
              id: 'device_time',
              label: t('fields:label.device_created_at'),
              value: when(n.device_created_at),
            },
            {
              id: 'vehicle',
              label: t('details.vehicle'),
              value: n.vehicle ? <VehiclePlate vehicle={n.vehicle} /> : '—',
            },
            {
              id: 'violation',
              label: t('details.violation'),
              value: n.violation_value === null ? '—' : <bdi dir="ltr">{String(n.violation_value)}</bdi>,
            },
          ]}
        />
      </DetailSection>
    </DetailLayout>
  );
}
