import { useTranslation } from 'react-i18next';
import { formatDate, type ExpiryState, type StatusTone, intlLocale } from '@fleet/core';
import { DetailStatusBadge } from '@fleet/ui';
import type { DocumentRow } from './document-rows';

const stateTone: Record<ExpiryState, StatusTone> = {
  valid: 'live',
  dueSoon: 'idle',
  dueThisWeek: 'idle',
  expiresToday: 'offline',
  expired: 'offline',
};

/** Documents tab: every document with its expiry date, days left and state (expired, this week ...). */
export function VehicleDocuments({ rows }: { rows: readonly DocumentRow[] }) {
  const { t, i18n } = useTranslation('vehicles');
  const numbers = new Intl.NumberFormat(intlLocale(i18n.language));
  if (rows.every((r) => r.expiresOn === null))
    return <p className="text-sm text-foreground-muted">{t('documents.empty')}</p>;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <div className="min-w-0 overflow-x-auto">
        <table className="w-full text-sm" data-testid="vehicle-documents">
          <thead className="text-foreground-muted">
            <tr className="border-b border-border">
              <th className="px-2 py-1 text-start font-medium">{t('documents.document')}</th>
              <th className="px-2 py-1 text-start font-medium">{t('documents.owner')}</th>
              <th className="px-2 py-1 text-start font-medium">{t('documents.expires')}</th>
              <th className="px-2 py-1 text-start font-medium">{t('documents.state')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.kind}
                className="border-b border-border last:border-0"
                data-testid={`document-${r.kind}`}
                data-state={r.state ?? 'none'}
              >
                <td className="px-2 py-1.5">{t(`documents.kind.${r.kind}`)}</td>
                <td className="px-2 py-1.5">
                  <bdi>{r.owner}</bdi>
                </td>
                <td className="px-2 py-1.5">
                  {r.expiresOn ? (
                    <bdi dir="ltr" className="tabular-nums">
                      {formatDate(r.expiresOn, 'short', { locale: i18n.language, timeZone: 'UTC' })}
                    </bdi>
                  ) : (
                    <span className="text-foreground-muted">{t('documents.noDate')}</span>
                  )}
                </td>
                <td className="px-2 py-1.5">
                  {r.state && r.days !== null ? (
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <DetailStatusBadge tone={stateTone[r.state]}>
                        {t(`documents.stateLabel.${r.state}`)}
                      </DetailStatusBadge>
                      {r.days > 0 && r.state !== 'valid' ? (
                        <span className="text-xs text-foreground-muted">
                          {t('documents.days', { days: numbers.format(r.days) })}
                        </span>
                      ) : null}
                      {r.days < 0 ? (
                        <span className="text-xs text-foreground-muted">
                          {t('documents.daysAgo', { days: numbers.format(-r.days) })}
                        </span>
                      ) : null}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-foreground-muted">{t('documents.reminders')}</p>
    </div>
  );
}
