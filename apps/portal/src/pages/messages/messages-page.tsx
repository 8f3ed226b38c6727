import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { formatDate } from '@fleet/core';
import type { OutboundMessage } from '@fleet/api-client';
import { Button, cn, PageHeader } from '@fleet/ui';
import { SegmentedFilter } from '../../components/segmented-filter';
import { useTimeZone } from '../../entities/display';
import { useServices } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { MessagePreview } from './message-preview';

const statuses = ['all', 'queued', 'sent', 'failed'] as const;
type StatusFilter = (typeof statuses)[number];

const tone: Record<OutboundMessage['status'], string> = {
  queued: 'bg-warning-soft text-foreground',
  sent: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
};

/**
 * messages: every e-mail and SMS the product sent (the message outbox), newest first, with its status
 * and, on failure, the reason. For super admins it is also the local mailbox of the demo: a message
 * kept there opens in a sandboxed preview (no scripts, no access to the portal), so a newcomer can read
 * an invitation and follow its link. Lists and preview stack on a phone.
 */
export default function MessagesPage() {
  const { t, i18n } = useTranslation('messages');
  const { api } = useServices();
  const timeZone = useTimeZone();
  const [params, setParams] = useSearchParams();
  const status = (statuses as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as StatusFilter)
    : 'all';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const open = params.get('open');
  const query = { page, limit: 20, ...(status === 'all' ? {} : { status }) };
  const list = useQuery({
    queryKey: ['list', 'messages', query],
    queryFn: ({ signal }) => api.request('messages.list', { query, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
  usePageReady(list.isSuccess && !list.isPlaceholderData);
  const set = (key: string, value: string | null) =>
    setParams(
      (p) => {
        if (value === null) p.delete(key);
        else p.set(key, value);
        if (key !== 'page' && key !== 'open') p.delete('page');
        return p;
      },
      { replace: key === 'open' ? false : true },
    );
  const rows = list.data?.data ?? [];
  const when = (value: string) => (
    <bdi dir="ltr">{formatDate(value, 'long', { locale: i18n.language, timeZone })}</bdi>
  );
  return (
    <div data-testid="messages" className="flex flex-col gap-3">
      <PageHeader title={t('list.title')} />
      <p className="text-sm text-foreground-muted">{t('list.intro')}</p>
      <SegmentedFilter
        label={t('list.filter')}
        value={status}
        onChange={(v) => set('status', v === 'all' ? null : v)}
        testId="message-status-filter"
        options={statuses.map((s) => ({ value: s, label: s === 'all' ? t('list.all') : t(`status.${s}`) }))}
      />
      <div className={cn('grid gap-3', open ? 'lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]' : '')}>
        <ul className="flex min-w-0 flex-col gap-2" aria-label={t('list.title')}>
          {rows.length === 0 && list.isSuccess ? (
            <li className="p-6 text-center text-foreground-muted">{t('list.empty')}</li>
          ) : null}
          {rows.map((m) => (
            <li
              key={m.uuid}
              data-testid="message-item"
              data-uuid={m.uuid}
              data-status={m.status}
              className={cn(
                'flex min-w-0 flex-col gap-1 rounded-lg border p-3',
                m.uuid === open ? 'border-primary bg-primary-soft' : 'border-border bg-surface',
              )}
            >
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <span className={cn('rounded px-2 py-0.5 text-xs font-medium', tone[m.status])}>
                  {t(`status.${m.status}`)}
                </span>
                <span className="text-xs text-foreground-muted">{t(`channel.${m.channel}`)}</span>
                <bdi dir="ltr" className="min-w-0 truncate text-sm text-foreground">
                  {m.recipient}
                </bdi>
              </div>
              <p className="min-w-0 break-words font-medium text-foreground" data-testid="message-subject">
                {m.subject}
              </p>
              <div className="flex flex-wrap items-center gap-2 text-xs text-foreground-muted">
                {when(m.created_at)}
                {m.transport ? (
                  <span>· {t(`transport.${m.transport}`, { defaultValue: m.transport })}</span>
                ) : null}
              </div>
              {m.last_error ? (
                <p className="break-words text-xs text-danger" data-testid="message-error">
                  {m.last_error}
                </p>
              ) : null}
              <div>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => set('open', m.uuid === open ? null : m.uuid)}
                  data-testid="message-open"
                  aria-expanded={m.uuid === open}
                >
                  {m.uuid === open ? t('list.close') : t('list.open')}
                </Button>
              </div>
            </li>
          ))}
        </ul>
        {open ? <MessagePreview uuid={open} onClose={() => set('open', null)} /> : null}
      </div>
      {list.data && list.data.last_page > 1 ? (
        <div className="flex justify-center gap-2">
          <Button
            size="sm"
            variant="outline"
            disabled={page <= 1}
            onClick={() => set('page', String(page - 1))}
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
            onClick={() => set('page', String(page + 1))}
          >
            {t('common:table.next')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
