import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CloudOffIcon, Button } from '../../components/kit';
import { Card } from '../../components/local-ui';
import { useCoreText } from '../../i18n/core-text';
import { usePageReady } from '../../state/use-page-ready';
import { nextCountdown, probeApi, RETRY_SECONDS, safeReturnPath } from './server-probe';

/**
 * server-unreachable: the spec's text and an automatic retry countdown in seconds. Each time the
 * countdown reaches zero the API is probed; when it answers the user goes back where they were.
 */
export default function ServerUnreachablePage() {
  const { t } = useTranslation('auth');
  const core = useCoreText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [countdown, setCountdown] = useState(RETRY_SECONDS);
  const [checking, setChecking] = useState(false);
  usePageReady(true);
  const back = safeReturnPath(params.get('from'));

  const check = useCallback(async () => {
    setChecking(true);
    const ok = await probeApi(fetch);
    setChecking(false);
    if (ok) navigate(back, { replace: true });
    else setCountdown(RETRY_SECONDS);
  }, [navigate, back]);

  useEffect(() => {
    if (checking) return;
    const id = setTimeout(() => {
      const next = nextCountdown(countdown);
      if (next === 0) void check();
      else setCountdown(next);
    }, 1000);
    return () => clearTimeout(id);
  }, [countdown, checking, check]);

  return (
    <Card className="text-center">
      <CloudOffIcon className="mx-auto size-12 text-foreground-muted" aria-hidden="true" />
      <h1 className="mt-3 text-xl font-semibold text-foreground">{t('serverUnreachable.title')}</h1>
      <p className="mt-2 text-foreground">{core('error.serverUnreachable')}</p>
      <p className="mt-2 text-sm text-foreground-muted" role="status" data-testid="retry-countdown">
        {core('error.retryingIn', { countdown })}
      </p>
      <Button className="mt-4" variant="outline" loading={checking} onClick={() => void check()}>
        {t('serverUnreachable.retryNow')}
      </Button>
    </Card>
  );
}
