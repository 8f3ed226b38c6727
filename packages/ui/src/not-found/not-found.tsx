import { useId, type ReactNode } from 'react';
import { Button } from '../button';
import { ArrowStartIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export interface NotFoundProps {
  /** Where the default action goes (rendered as a link styled as a button). */
  homeHref?: string;
  /** Called when the default action is used (for client-side routing call preventDefault yourself). */
  onHome?: (event: React.MouseEvent<HTMLAnchorElement>) => void;
  /** Replaces the default action entirely (e.g. a router Link). */
  action?: ReactNode;
  /** The code shown large above the title (default 404). */
  code?: ReactNode;
  labels?: { notFoundTitle?: string; notFoundMessage?: string; notFoundAction?: string };
  className?: string;
}

/**
 * The not-found page body. The spec does not show its wording; the kit's defaults are a title, a
 * sentence and a 'Go to dashboard' action, all overridable.
 */
export function NotFound({
  homeHref = '/dashboard',
  onHome,
  action,
  code = '404',
  labels,
  className,
}: NotFoundProps) {
  const l = useLabels(['notFoundTitle', 'notFoundMessage', 'notFoundAction'], labels);
  const titleId = useId();
  return (
    <section
      data-slot="not-found"
      aria-labelledby={titleId}
      className={cn('mx-auto flex max-w-lg flex-col items-center gap-3 px-6 py-16 text-center', className)}
    >
      <p aria-hidden="true" className="text-6xl font-bold text-primary tabular-nums">
        <bdi>{code}</bdi>
      </p>
      <h1 id={titleId} className="text-2xl font-semibold text-foreground">
        {l.notFoundTitle}
      </h1>
      <p className="text-sm text-foreground-muted">{l.notFoundMessage}</p>
      <div className="mt-2">
        {action ?? (
          <Button asChild>
            <a href={homeHref} onClick={onHome}>
              <ArrowStartIcon />
              {l.notFoundAction}
            </a>
          </Button>
        )}
      </div>
    </section>
  );
}
