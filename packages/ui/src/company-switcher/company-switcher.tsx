import { useId } from 'react';
import { shellKeys, type AppShellLabels } from '../app-shell/app-shell-labels';
import { focusRing } from '../button';
import { BuildingIcon, ChevronDownIcon } from '../icons';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export interface Company {
  id: string;
  name: string;
}

export interface CompanySwitcherProps {
  companies: readonly Company[];
  /** Id of the selected company. */
  value: string | null;
  onValueChange: (id: string) => void;
  labels?: AppShellLabels;
  className?: string;
}

/**
 * The transport-company switcher. A native <select> (reliable keyboard and screen-reader
 * behaviour, the platform's own picker on phones); with a single company it shows the name only,
 * as the spec selects it automatically.
 */
export function CompanySwitcher({
  companies,
  value,
  onValueChange,
  labels,
  className,
}: CompanySwitcherProps) {
  const l = useLabels(shellKeys, labels);
  const id = useId();
  const current = companies.find((c) => c.id === value);
  if (companies.length <= 1) {
    return (
      <p
        data-slot="company-switcher"
        className={cn('flex min-w-0 items-center gap-2 text-sm text-foreground', className)}
      >
        <BuildingIcon className="text-foreground-muted" />
        <span className="sr-only">{l.company}: </span>
        <span className="truncate font-medium">{current?.name ?? companies[0]?.name}</span>
      </p>
    );
  }
  return (
    <div data-slot="company-switcher" className={cn('relative flex min-w-0 items-center', className)}>
      <label htmlFor={id} className="sr-only">
        {l.switchCompany}
      </label>
      <BuildingIcon className="pointer-events-none absolute start-2.5 text-foreground-muted" />
      <select
        id={id}
        value={value ?? ''}
        onChange={(e) => onValueChange(e.target.value)}
        className={cn(
          'h-9 max-w-56 min-w-0 appearance-none truncate rounded-md border border-border bg-surface ps-8 pe-8 text-sm font-medium text-foreground',
          focusRing,
        )}
      >
        {value === null ? (
          <option value="" disabled>
            {l.company}
          </option>
        ) : null}
        {companies.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute end-2.5 text-foreground-muted" />
    </div>
  );
}
