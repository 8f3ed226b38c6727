import { Button } from '@fleet/ui';

/**
 * A one-of-few choice (home's week / month / year, notifications' all / unread / read) as a group of
 * the kit's Buttons with `aria-pressed`. The kit's StatusTabs only takes the vehicle statuses and the
 * kit has no generic tabs or segmented control, so this composes Buttons rather than copying tabs.
 */
export function SegmentedFilter<V extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
  testId?: string;
}) {
  return (
    <div role="group" aria-label={label} data-testid={testId} className="flex flex-wrap gap-1">
      {options.map((option) => (
        <Button
          key={option.value}
          size="sm"
          variant={option.value === value ? 'primary' : 'ghost'}
          aria-pressed={option.value === value}
          data-value={option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </Button>
      ))}
    </div>
  );
}
