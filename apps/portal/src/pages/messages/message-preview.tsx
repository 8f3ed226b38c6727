import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@fleet/core';
import { Button, DescriptionList, DetailSection, InlineAlert, LoadingState } from '@fleet/ui';
import { useTimeZone } from '../../entities/display';
import { useServices } from '../../state/app-context';

/** Links open in a new tab, outside the sandbox; nothing else of the message may run or reach the portal. */
const BASE = '<base target="_blank">';

/** Splits plain text into text and http(s) links, so a link in a mail can be followed from here. */
function linkify(text: string) {
  return text.split(/(https?:\/\/[^\s<>"]+)/g).map((part, i) =>
    /^https?:\/\//.test(part) ? (
      <a
        key={i}
        href={part}
        className="break-all text-primary underline"
        dir="ltr"
        data-testid="message-link"
      >
        {part}
      </a>
    ) : (
      <span key={i}>{part}</span>
    ),
  );
}

/**
 * One message: who, when, how it went; and for a message kept in the local mailbox its HTML in a
 * sandboxed frame (`sandbox` without allow-scripts or allow-same-origin: the message cannot run code or
 * read the portal's storage) and its plain text with working links.
 */
export function MessagePreview({ uuid, onClose }: { uuid: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('messages');
  const { api } = useServices();
  const timeZone = useTimeZone();
  const one = useQuery({
    queryKey: ['record', 'messages', uuid],
    queryFn: ({ signal }) => api.request('messages.show', { params: { uuid }, signal }),
  });
  if (one.isPending) return <LoadingState label={t('common:state.loading')} />;
  if (one.isError) return <InlineAlert>{one.error.message}</InlineAlert>;
  const m = one.data.data;
  const when = (value: string | null) =>
    value ? <bdi dir="ltr">{formatDate(value, 'long', { locale: i18n.language, timeZone })}</bdi> : '—';
  return (
    <section className="flex min-w-0 flex-col gap-3" data-testid="message-preview" aria-label={m.subject}>
      <DetailSection title={m.subject}>
        <DescriptionList
          columns={2}
          items={[
            { id: 'to', label: t('details.to'), value: <bdi dir="ltr">{m.recipient}</bdi> },
            { id: 'status', label: t('list.filter'), value: t(`status.${m.status}`) },
            { id: 'created', label: t('details.created'), value: when(m.created_at) },
            { id: 'sent', label: t('details.sent'), value: when(m.sent_at) },
            {
              id: 'via',
              label: t('details.via'),
              value: m.transport ? t(`transport.${m.transport}`, { defaultValue: m.transport }) : '—',
            },
            { id: 'attempts', label: t('details.attempts'), value: <bdi dir="ltr">{m.attempts}</bdi> },
            {
              id: 'language',
              label: t('details.language'),
              value: m.locale === 'ar' ? 'العربية' : 'English',
            },
            ...(m.last_error ? [{ id: 'error', label: t('details.error'), value: m.last_error }] : []),
          ]}
        />
        <div className="mt-3">
          <Button size="sm" variant="ghost" onClick={onClose}>
            {t('list.close')}
          </Button>
        </div>
      </DetailSection>
      {m.body_html ? (
        <DetailSection title={t('details.preview')}>
          <iframe
            title={t('details.frame')}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            referrerPolicy="no-referrer"
            srcDoc={BASE + m.body_html}
            className="h-[28rem] w-full rounded border border-border bg-white"
            data-testid="message-frame"
          />
        </DetailSection>
      ) : null}
      {m.body_text ? (
        <DetailSection title={t('details.text')}>
          <pre
            className="whitespace-pre-wrap break-words font-sans text-sm text-foreground"
            dir={m.locale === 'ar' ? 'rtl' : 'ltr'}
            data-testid="message-text"
          >
            {linkify(m.body_text)}
          </pre>
        </DetailSection>
      ) : null}
      {!m.body_html && !m.body_text ? (
        <p className="text-sm text-foreground-muted">{t('details.noContent')}</p>
      ) : null}
    </section>
  );
}
