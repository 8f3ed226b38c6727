import { quickRanges as allQuickRanges, type DateInput, type DateRange, type QuickRange } from '@fleet/core';
import * as Popover from '@radix-ui/react-popover';
import { cva } from 'class-variance-authority';
import { useId, useState } from 'react';
import { Button, focusRing } from '../button';
import { FormField } from '../form-field';
import type { UiMessages } from '../i18n';
import { CalendarIcon, ChevronDownIcon } from '../icons';
import { Input } from '../input';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';
import {
  dayRange,
  isDayString,
  matchQuickRange,
  quickRangeValue,
  validateDays,
  type DateRangeValue,
} from './date-range-logic';
import { ar } from './messages.ar';
import { en } from './messages.en';

const kitKeys = [
  'dateRange',
  'dateFrom',
  'dateTo',
  'rangeToday',
  'rangeYesterday',
  'rangeLast7',
  'rangeLast30',
  'rangeLast90',
  'rangeCustom',
  'apply',
] as const;
type KitKey = (typeof kitKeys)[number];

export type DateRangePickerLabels = Partial<Record<KitKey | keyof typeof en, string>>;

const quickLabelKey: Record<QuickRange, KitKey> = {
  today: 'rangeToday',
  yesterday: 'rangeYesterday',
  last7Days: 'rangeLast7',
  last30Days: 'rangeLast30',
  last90Days: 'rangeLast90',
};

export const dateRangePresentations = ['popover', 'inline'] as const;
export type DateRangePresentation = (typeof dateRangePresentations)[number];

export const quickRangeItemRecipe = cva(
  ['rounded-md px-3 py-1.5 text-sm text-start transition-colors', focusRing],
  {
    variants: {
      selected: {
        true: 'bg-primary text-primary-foreground',
        false: 'text-foreground hover:bg-surface-sunken',
      },
    },
  },
);

export interface DateRangePanelProps {
  value: DateRangeValue | null;
  /** Called with the chosen days and their instants in `timeZone`. */
  onChange: (value: DateRangeValue, range: DateRange) => void;
  /** IANA zone the days are counted in (the user's zone). */
  timeZone: string;
  /** The current instant (inject it in tests and stories; default: now at render). */
  now?: DateInput;
  /** Quick ranges offered, in order (default all five of the spec). */
  quickRanges?: readonly QuickRange[];
  labels?: DateRangePickerLabels;
  className?: string;
}

function useText(labels?: DateRangePickerLabels) {
  const { locale } = useUi();
  const kit = useLabels(kitKeys, labels as Partial<Pick<UiMessages, KitKey>>);
  return { ...kit, ...(locale === 'ar' ? ar : en), ...stripKit(labels) };
}

function stripKit(labels?: DateRangePickerLabels): Partial<Record<keyof typeof en, string>> {
  const out: Partial<Record<keyof typeof en, string>> = {};
  if (!labels) return out;
  for (const key of Object.keys(en) as (keyof typeof en)[])
    if (labels[key] !== undefined) out[key] = labels[key];
  return out;
}

/**
 * The picker's body: quick ranges (computed with @fleet/core's quickRange in the zone; one click
 * applies) and two native date inputs for a custom range, checked (from <= to) on Apply.
 */
export function DateRangePanel({
  value,
  onChange,
  timeZone,
  now,
  quickRanges = allQuickRanges,
  labels,
  className,
}: DateRangePanelProps) {
  const text = useText(labels);
  const [current] = useState(() => now ?? Date.now());
  const at = now ?? current;
  const [from, setFrom] = useState(value?.from ?? '');
  const [to, setTo] = useState(value?.to ?? '');
  const [error, setError] = useState<keyof typeof en | null>(null);
  const groupId = useId();

  // A new value from the caller resets the draft (adjusting state during render, not in an effect).
  const valueKey = `${value?.from ?? ''}|${value?.to ?? ''}`;
  const [seenKey, setSeenKey] = useState(valueKey);
  if (seenKey !== valueKey) {
    setSeenKey(valueKey);
    setFrom(value?.from ?? '');
    setTo(value?.to ?? '');
    setError(null);
  }

  // Which field shows the problem: a missing or malformed day on its own field; the order on "to".
  const fromError = error && error !== 'rangeOrder' && !isDayString(from) ? error : null;
  const toError = error === 'rangeOrder' || (error && !isDayString(to)) ? error : null;

  const pickQuick = (name: QuickRange) => {
    const next = quickRangeValue(name, at, timeZone);
    setError(null);
    onChange(next, dayRange(next.from, next.to, timeZone));
  };

  const apply = (event: React.FormEvent) => {
    event.preventDefault();
    const problem = validateDays(from, to);
    setError(problem);
    if (problem) return;
    const quick = matchQuickRange(from, to, at, timeZone, quickRanges);
    onChange({ from, to, quick }, dayRange(from, to, timeZone));
  };

  return (
    <div data-slot="date-range-panel" className={cn('flex flex-col gap-4 sm:flex-row', className)}>
      <div role="group" aria-labelledby={groupId} className="flex flex-col gap-1 sm:min-w-40">
        <span id={groupId} className="sr-only">
          {text.dateRange}
        </span>
        {quickRanges.map((name) => {
          const selected = value?.quick === name;
          return (
            <button
              key={name}
              type="button"
              data-slot="quick-range"
              data-variant={name}
              aria-pressed={selected}
              className={quickRangeItemRecipe({ selected })}
              onClick={() => pickQuick(name)}
            >
              {text[quickLabelKey[name]]}
            </button>
          );
        })}
      </div>
      <form
        noValidate
        onSubmit={apply}
        aria-label={text.rangeCustom}
        className="flex flex-col gap-3 border-border sm:border-s sm:ps-4"
      >
        <p className="text-sm font-medium text-foreground">{text.rangeCustom}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label={text.dateFrom} error={fromError ? text[fromError] : undefined}>
            <Input
              kind="date"
              name="from"
              value={from}
              max={to || undefined}
              onChange={(e) => {
                setFrom(e.target.value);
                setError(null);
              }}
            />
          </FormField>
          <FormField label={text.dateTo} error={toError ? text[toError] : undefined}>
            <Input
              kind="date"
              name="to"
              value={to}
              min={from || undefined}
              onChange={(e) => {
                setTo(e.target.value);
                setError(null);
              }}
            />
          </FormField>
        </div>
        <div className="flex justify-end">
          <Button type="submit" size="sm">
            {text.apply}
          </Button>
        </div>
      </form>
    </div>
  );
}

export interface DateRangePickerProps extends DateRangePanelProps {
  /** 'popover' (default): a trigger button opening the panel; 'inline': the panel in place. */
  presentation?: DateRangePresentation;
  /** Controlled open state of the popover. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  disabled?: boolean;
}

/**
 * Date range with the spec's quick ranges (today, yesterday, last 7, 30 and 90 days) and a custom
 * from/to. The popover is Radix Popover (focus moves in, Escape and outside click close, focus
 * returns to the trigger); choosing a range closes it. The trigger shows the quick range's name or
 * the two days, isolated LTR.
 */
export function DateRangePicker({
  presentation = 'popover',
  open,
  onOpenChange,
  disabled,
  className,
  ...panel
}: DateRangePickerProps) {
  const text = useText(panel.labels);
  const [innerOpen, setInnerOpen] = useState(false);
  const isOpen = open ?? innerOpen;
  const setOpen = (next: boolean) => {
    if (open === undefined) setInnerOpen(next);
    onOpenChange?.(next);
  };

  if (presentation === 'inline') {
    return (
      <section
        data-slot="date-range-picker"
        data-variant="inline"
        aria-label={text.dateRange}
        className={cn('rounded-lg border border-border bg-surface p-4', className)}
      >
        <DateRangePanel {...panel} />
      </section>
    );
  }

  const { value } = panel;
  const summary = value ? (
    value.quick ? (
      text[quickLabelKey[value.quick]]
    ) : (
      <bdi dir="ltr">
        {value.from} – {value.to}
      </bdi>
    )
  ) : (
    text.rangeChoose
  );

  return (
    <Popover.Root open={isOpen} onOpenChange={setOpen}>
      <Popover.Trigger asChild disabled={disabled}>
        <Button
          variant="outline"
          data-slot="date-range-trigger"
          data-variant="popover"
          startIcon={<CalendarIcon />}
          endIcon={<ChevronDownIcon />}
          className={cn('justify-between', className)}
        >
          <span className="sr-only">{text.dateRange}: </span>
          {summary}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          aria-label={text.dateRange}
          data-slot="date-range-popover"
          className="z-50 max-w-[calc(100vw-2rem)] rounded-lg border border-border bg-surface-raised p-4 text-foreground shadow-lg"
        >
          <DateRangePanel
            {...panel}
            onChange={(next, range) => {
              panel.onChange(next, range);
              setOpen(false);
            }}
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
