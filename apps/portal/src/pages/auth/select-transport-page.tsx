import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useServices, useSession } from '../../state/app-context';
import { usePageReady } from '../../state/use-page-ready';
import { Button, Card, cn, InlineAlert } from '@fleet/ui';

/** select-transport: the company picker (requires sign-in only). */
export default function SelectTransportPage() {
  const { t, i18n } = useTranslation('auth');
  const { session, queryClient } = useServices();
  const { companies, company } = useSession();
  const navigate = useNavigate();
  const [choice, setChoice] = useState<string | null>(company?.uuid ?? null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  usePageReady(true);
  const ar = i18n.language === 'ar';

  return (
    <Card>
      <h1 className="text-2xl font-semibold text-foreground">{t('selectTransport.title')}</h1>
      <p className="mb-4 text-sm text-foreground-muted">{t('selectTransport.subtitle')}</p>
      {companies.length === 0 ? (
        <p className="text-foreground">{t('selectTransport.empty')}</p>
      ) : (
        <div role="radiogroup" aria-label={t('selectTransport.title')} className="flex flex-col gap-2">
          {companies.map((c) => (
            <button
              key={c.uuid}
              type="button"
              role="radio"
              aria-checked={choice === c.uuid}
              data-testid="company-option"
              onClick={() => setChoice(c.uuid)}
              className={cn(
                'rounded-md border p-3 text-start text-foreground hover:bg-surface-sunken',
                choice === c.uuid ? 'border-primary bg-primary-soft' : 'border-border',
              )}
            >
              <span className="font-medium">{ar && c.name_ar ? c.name_ar : c.name}</span>
              <span className="ms-2 text-xs text-foreground-muted">{c.country_code}</span>
            </button>
          ))}
        </div>
      )}
      {error ? (
        <div className="mt-3">
          <InlineAlert>{error}</InlineAlert>
        </div>
      ) : null}
      <Button
        className="mt-4 w-full"
        disabled={!choice}
        loading={busy}
        onClick={() => {
          if (!choice) return;
          setBusy(true);
          setError(null);
          session
            .selectCompany(choice)
            .then(() => {
              queryClient.clear();
              navigate('/dashboard', { replace: true });
            })
            .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
            .finally(() => setBusy(false));
        }}
      >
        {t('selectTransport.choose')}
      </Button>
    </Card>
  );
}
