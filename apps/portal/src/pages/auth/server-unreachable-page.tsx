import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Card, ServerUnreachable } from '@fleet/ui';
import { useCoreText } from '../../i18n/core-text';
import { usePageReady } from '../../state/use-page-ready';
import { probeApi, RETRY_SECONDS, safeReturnPath } from './server-probe';

/**
 * server-unreachable: the kit's panel (the spec's text and an automatic retry countdown in seconds,
 * worded by core). Each time the countdown reaches zero the API is probed; when it answers the user
 * goes back where they were, otherwise the countdown starts again.
 */
export default function ServerUnreachablePage() {
  const { t } = useTranslation('auth');
  const core = useCoreText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [attempt, setAttempt] = useState(0);
  const [checking, setChecking] = useState(false);
  usePageReady(true);
  const back = safeReturnPath(params.get('from'));

  const check = useCallback(async () => {
    setChecking(true);
    const ok = await probeApi(fetch);
    setChecking(false);
    if (ok) navigate(back, { replace: true });
    else setAttempt((n) => n + 1);
  }, [navigate, back]);

  return (
    // The test id names what the e2e reads in it: the countdown sentence.
    <Card padding="none" data-testid="retry-countdown">
      <ServerUnreachable
        seconds={RETRY_SECONDS}
        attempt={attempt}
        retrying={checking}
        onRetry={() => void check()}
        labels={{
          serverUnreachable: core('error.serverUnreachable'),
          // The kit fills {countdown} itself; core gives the sentence in the page's language.
          serverRetrying: core('error.retryingIn', { countdown: '{countdown}' }),
          retry: t('serverUnreachable.retryNow'),
        }}
      />
    </Card>
  );
}
