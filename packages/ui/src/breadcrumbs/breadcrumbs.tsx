import type { ReactNode } from 'react';
import { shellKeys, type AppShellLabels } from '../app-shell/app-shell-labels';
import { focusRing } from '../button';
import { ChevronEndIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export interface BreadcrumbItem {
  id?: string;
  label: ReactNode;
  href?: string;
}

export interface BreadcrumbsProps {
  /** From the root to the current page (the last item is the current page, not a link). */
  items: readonly BreadcrumbItem[];
  onNavigate?: (item: BreadcrumbItem, event: React.MouseEvent<HTMLAnchorElement>) => void;
  labels?: AppShellLabels;
  className?: string;
}

/** Breadcrumb trail; the separators are the kit's directional chevron (points the reading way). */
export function Breadcrumbs({ items, onNavigate, labels, className }: BreadcrumbsProps) {
  const l = useLabels(shellKeys, labels);
  return (
    <nav aria-label={l.breadcrumbs} data-slot="breadcrumbs" className={className}>
      <ol className="flex flex-wrap items-center gap-1.5 text-sm text-foreground-muted">
        {items.map((item, index) => {
          const last = index === items.length - 1;
          return (
            <li key={item.id ?? index} className="flex items-center gap-1.5">
              {last || !item.href ? (
                <span
                  aria-current={last ? 'page' : undefined}
                  className={cn(last && 'font-medium text-foreground')}
                >
                  {item.label}
                </span>
              ) : (
                <a
                  href={item.href}
                  onClick={(event) => onNavigate?.(item, event)}
                  className={cn('rounded hover:text-foreground hover:underline', focusRing)}
                >
                  {item.label}
                </a>
              )}
              {last ? null : <ChevronEndIcon size={14} data-slot="breadcrumb-separator" />}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
