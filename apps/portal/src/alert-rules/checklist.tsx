import { useId, useMemo, useState } from 'react';
import { Button, Checkbox, Input, filterOptions, type ComboboxOption } from '@fleet/ui';

/**
 * A searchable list of checkboxes for choosing several records (vehicles, zones, recipients) of a
 * company: a few hundred rows fit, the search narrows them, "clear" empties the choice. Chosen rows stay
 * listed first so the choice is visible without scrolling.
 */
export function Checklist({
  label,
  hint,
  options,
  value,
  onChange,
  error,
  labels,
  testId,
}: {
  label: string;
  hint?: string;
  options: readonly ComboboxOption[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  error?: string;
  labels: { search: string; selected: string; clear: string; none: string };
  testId?: string;
}) {
  const [query, setQuery] = useState('');
  const id = useId();
  const chosen = useMemo(() => new Set(value), [value]);
  const shown = useMemo(() => {
    const list = filterOptions(options, query);
    return [...list.filter((o) => chosen.has(o.value)), ...list.filter((o) => !chosen.has(o.value))];
  }, [options, query, chosen]);
  return (
    <fieldset className="flex min-w-0 flex-col gap-2" data-testid={testId} aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium text-foreground">{label}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-foreground-muted">
          {hint}
        </p>
      ) : null}
      <div className="flex items-center gap-2">
        <Input
          kind="search"
          size="sm"
          aria-label={`${labels.search}: ${label}`}
          placeholder={labels.search}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="min-w-0 flex-1"
        />
        <span className="shrink-0 text-xs text-foreground-muted" aria-live="polite">
          {labels.selected}
        </span>
        {value.length ? (
          <Button type="button" size="sm" variant="ghost" onClick={() => onChange([])}>
            {labels.clear}
          </Button>
        ) : null}
      </div>
      <div className="max-h-44 overflow-y-auto rounded-md border border-border p-2">
        {shown.length === 0 ? (
          <p className="p-1 text-sm text-foreground-muted">{labels.none}</p>
        ) : (
          <ul className="flex flex-col gap-1.5">
            {shown.map((o) => (
              <li key={o.value}>
                <Checkbox
                  label={<bdi>{o.label}</bdi>}
                  checked={chosen.has(o.value)}
                  onCheckedChange={(on) =>
                    onChange(on === true ? [...value, o.value] : value.filter((v) => v !== o.value))
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
