import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDate } from '@fleet/core';
import type { Notification } from '@fleet/api-client';
import { useSmallScreen } from '../../app/guards';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { SegmentedFilter } from '../../components/segmented-filter';
import { useTimeZone } from '../../entities/display';
import { unreadKey } from '../../live/use-notifications';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { BellIcon, Button, cn, PageHeader } from '@fleet/ui';

/** notifications: the list with read state filter, mark one / all as read; new ones arrive live. */
export default function NotificationsPage() {
  const { t, i18n } = useTranslation('notifications');
  const small = useSmallScreen();
  const { api } = useServices();
  const { company } = useSession();
  const queryClient = useQueryClient();
  const timeZone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const read = params.get('read');
  const filter = read === 'read' || read === 'unread' ? read : 'all';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = { page, limit: 20, ...(filter === 'all' ? {} : { read: filter === 'read' }) };
  const list = useQuery({
    queryKey: ['list', 'notifications', company?.uuid, query],
    queryFn: ({ signal }) => api.request('notifications.list', { query, signal }),
    placeholderData: keepPreviousData,
  });
  usePageReady(list.isSuccess && !list.isPlaceholderData);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['list', 'notifications'] });
    await queryClient.invalidateQueries({ queryKey: unreadKey(company?.uuid) });
  };
  const markRead = useMutation({
    mutationFn: (uuid: string) => api.request('notifications.read', { params: { uuid } }),
    onSuccess: refresh,
  });
  const markAll = useMutation({ mutationFn: () => api.request('notifications.readAll'), onSuccess: refresh });

  const setFilter = (value: string) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (value === 'all') next.delete('read');
    else next.set('read', value);
    setParams(next, { replace: true });
  };
  const rows: Notification[] = list.data?.data ?? [];
  return (
    <div data-testid="notifications">
      <PageHeader
        className="mb-4"
        title={t('list.title')}
        actions={
          <Button
            variant="outline"
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
            data-testid="mark-all-read"
          >
            {t('list.markAllRead')}
          </Button>
        }
      />
      <SegmentedFilter
        label={t('list.filter')}
        value={filter}
        onChange={setFilter}
        testId="read-filter"
        options={[
          { value: 'all', label: t('list.all') },
          { value: 'unread', label: t('list.unread') },
          { value: 'read', label: t('list.read') },
        ]}
      />
      <ul className="mt-3 flex flex-col gap-2">
        {rows.length === 0 && list.isSuccess ? (
          <li className="p-6 text-center text-foreground-muted">{t('list.empty')}</li>
        ) : null}
        {rows.map((n) => (
          <li
            key={n.uuid}
            data-testid="notification-item"
            data-uuid={n.uuid}
            data-read={n.read}
            className={cn(
              // The title link stretches over the whole card (its ::after), so the card opens from anywhere;
              // the mark-as-read button sits above that layer.
              'relative flex items-start gap-3 rounded-lg border p-3 hover:shadow-sm',
              n.read ? 'border-border bg-surface' : 'border-primary bg-primary-soft',
            )}
          >
            {n.icon ? (
              <img src={n.icon} alt="" className="size-8" />
            ) : (
              <BellIcon className="size-8 text-primary" aria-hidden="true" />
            )}
            <div className="min-w-0 flex-1">
              {small ? (
                // Details fall back to this list on small screens; the card already shows it all.
                <p className="font-medium text-foreground" data-testid="notification-title">
                  {n.title}
                </p>
              ) : (
                <Link
                  to={`/dashboard/notifications/details/${n.uuid}`}
                  className="font-medium text-foreground after:absolute after:inset-0 after:rounded-lg hover:underline"
                  data-testid="notification-title"
                >
                  {n.title}
                </Link>
              )}
              <p className="text-sm text-foreground">{n.message}</p>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-foreground-muted">
                <bdi dir="ltr">{formatDate(n.created_at, 'long', { locale: i18n.language, timeZone })}</bdi>
                {n.vehicle ? <VehiclePlate vehicle={n.vehicle} /> : null}
              </div>
            </div>
            {!n.read ? (
              <Button
                size="sm"
                variant="ghost"
                className="relative z-10"
                onClick={() => markRead.mutate(n.uuid)}
                data-testid="mark-read"
              >
                {t('list.markRead')}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {list.data && list.data.last_page > 1 ? (
        <div className="mt-3 flex justify-center gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={page <= 1}
            onClick={() =>
              setParams((p) => {
                p.set('page', String(page - 1));
                return p;
              })
            }
          >
            {t('common:table.previous')}
          </Button>
          <span className="text-sm text-foreground-muted">
            {t('common:table.page', { page, pages: list.data.last_page })}
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= list.data.last_page}
            onClick={() =>
              setParams((p) => {
                p.set('page', String(page + 1));
                return p;
              })
            }
          >
            {t('common:table.next')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
