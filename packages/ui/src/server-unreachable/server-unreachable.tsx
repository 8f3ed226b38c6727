import { Button } from '../button';
import { format } from '../i18n';
import { CloudOffIcon, RefreshIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';
import type { CountdownTimers } from './countdown';
import { useCountdown } from './use-countdown';

export interface ServerUnreachableProps {
  /** Seconds until the automatic retry. */
  seconds: number;
  /** Called when the countdown reaches zero and when the Retry button is pressed. */
  onRetry: () => void;
  /**
   * Change it (e.g. the attempt number) to start the countdown again after a failed retry.
   * While `retrying` is true the countdown is paused and the button shows a spinner.
   */
  attempt?: number;
  retrying?: boolean;
  /** Hide the manual Retry button (the spec only shows the automatic retry). */
  hideRetryButton?: boolean;
  timers?: CountdownTimers;
  labels?: { serverUnreachable?: string; serverRetrying?: string; retry?: string };
  className?: string;
}

/**
 * The server-unreachable panel: the spec's 'Our servers are currently unreachable. We're working
 * on it!' and 'Automatically retrying in {countdown} seconds...'. The countdown sits in a polite,
 * atomic live region so screen readers hear the current value without the panel being re-read.
 */
export function ServerUnreachable({
  seconds,
  onRetry,
  attempt = 0,
  retrying = false,
  hideRetryButton = false,
  timers,
  labels,
  className,
}: ServerUnreachableProps) {
  const l = useLabels(['serverUnreachable', 'serverRetrying', 'retry'], labels);
  const remaining = useCountdown(seconds, {
    onComplete: onRetry,
    running: !retrying,
    restartKey: attempt,
    timers,
  });
  return (
    <section
      data-slot="server-unreachable"
      className={cn('mx-auto flex max-w-lg flex-col items-center gap-4 px-6 py-16 text-center', className)}
    >
      <span
        aria-hidden="true"
        className="flex size-16 items-center justify-center rounded-full bg-warning-soft text-warning"
      >
        <CloudOffIcon size={32} />
      </span>
      <h1 className="text-xl font-semibold text-foreground">{l.serverUnreachable}</h1>
      <p
        data-slot="server-unreachable-countdown"
        aria-live="polite"
        aria-atomic="true"
        className="text-sm text-foreground-muted"
      >
        {retrying ? null : format(l.serverRetrying, { countdown: remaining })}
      </p>
      {hideRetryButton ? null : (
        <Button variant="outline" startIcon={<RefreshIcon />} loading={retrying} onClick={onRetry}>
          {l.retry}
        </Button>
      )}
    </section>
  );
}
