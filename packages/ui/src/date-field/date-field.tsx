import { intlLocale } from '@fleet/core';
import * as Popover from '@radix-ui/react-popover';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { focusRing, IconButton } from '../button';
import { useFieldControlProps } from '../form-field';
import { CalendarIcon, ChevronEndIcon, ChevronStartIcon } from '../icons';
import { controlRecipe, type ControlSize } from '../input';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import {
  addMonths,
  clampDay,
  dayToUtc,
  isDay,
  monthGrid,
  monthOf,
  moveByKey,
  outOfRange,
  utcToDay,
  weekStartOf,
  type Weekday,
} from './calendar-logic';
import { ar } from './messages.ar';
import { en } from './messages.en';

export type DateFieldLabels = Partial<Record<keyof typeof en, string>>;

export interface DateFieldProps {
  /** The chosen day, 'YYYY-MM-DD', or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** Earliest and latest day that can be chosen ('YYYY-MM-DD'). */
  min?: string;
  max?: string;
  /** The day the calendar opens on when there is no value (default: the browser's today, clamped). */
  today?: string;
  /** First column of the calendar; default from the language (Sunday in English, Saturday in Arabic). */
  weekStartsOn?: Weekday;
  id?: string;
  /** Submits the value ('YYYY-MM-DD') with a surrounding form under this name. */
  name?: string;
  disabled?: boolean;
  invalid?: boolean;
  required?: boolean;
  'aria-describedby'?: string;
  size?: ControlSize;
  labels?: DateFieldLabels;
  className?: string;
  'data-testid'?: string;
}

function browserToday(): string {
  const now = new Date();
  return utcToDay(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
}

/** Intl formatters of one language, all with the product's numbering (Latin digits in Arabic too). */
function useFormats(localeTag: string) {
  return useMemo(() => {
    const tag = intlLocale(localeTag);
    const utc = { timeZone: 'UTC' } as const;
    return {
      date: new Intl.DateTimeFormat(tag, { ...utc, day: 'numeric', month: 'long', year: 'numeric' }),
      full: new Intl.DateTimeFormat(tag, {
        ...utc,
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }),
      month: new Intl.DateTimeFormat(tag, { ...utc, month: 'long', year: 'numeric' }),
      // Arabic's short weekday names are the long ones ("الأربعاء"): seven of them do not fit a 19rem
      // calendar, so its column heads are the narrow letters; the full name stays in each `abbr`.
      weekday: new Intl.DateTimeFormat(tag, { ...utc, weekday: tag.startsWith('ar') ? 'narrow' : 'short' }),
      weekdayLong: new Intl.DateTimeFormat(tag, { ...utc, weekday: 'long' }),
      number: new Intl.NumberFormat(tag, { useGrouping: false }),
    };
  }, [localeTag]);
}

/**
 * A day field: a button showing the chosen day written in the reader's language (month names in
 * Arabic or English, digits as everywhere else in the product: @fleet/core `intlLocale`) that opens a
 * calendar. Why not `<input type="date">`: the browser draws that one in its own UI language and
 * order (mm/dd/yyyy in an English Chromium), whatever the page's language, and it cannot be styled or
 * translated; a page in Arabic then shows one English date field among Arabic ones.
 *
 * The calendar is a Radix Popover (focus moves in on the chosen day, Escape and an outside click
 * close it, focus returns to the field) holding an ARIA grid with one roving tab stop: arrows move by
 * day in the reading direction (ArrowLeft is the next day in Arabic) and by week up and down, Home/End
 * go to the week's first and last day, PageUp/PageDown by month (with Shift by year), Enter or Space
 * chooses. Days outside `min`..`max` are shown but disabled and the keys never land on them.
 */
export function DateField({
  value,
  onChange,
  min,
  max,
  today,
  weekStartsOn,
  id,
  name,
  disabled,
  invalid,
  required,
  size = 'md',
  labels,
  className,
  'data-testid': testId,
  ...aria
}: DateFieldProps) {
  const { locale, localeTag, dir } = useUi();
  const text = useMemo(() => ({ ...(locale === 'ar' ? ar : en), ...labels }), [locale, labels]);
  const field = useFieldControlProps({ id, invalid, required, 'aria-describedby': aria['aria-describedby'] });
  const formats = useFormats(localeTag);
  const firstDay = weekStartsOn ?? weekStartOf(locale);
  const [open, setOpen] = useState(false);
  const valueId = useId();
  const titleId = useId();
  const chosen = isDay(value) ? value : '';
  const opening = clampDay(chosen || today || browserToday(), min, max);
  const [focused, setFocused] = useState(opening);
  const gridRef = useRef<HTMLTableElement>(null);
  const focusDay = useRef(false);

  const show = (next: boolean) => {
    if (next) setFocused(opening);
    setOpen(next);
  };
  const moveTo = useCallback(
    (day: string) => {
      setFocused(clampDay(day, min, max));
      focusDay.current = true;
    },
    [min, max],
  );
  // After a key or a month change, the new roving stop gets the focus (once it is rendered).
  useEffect(() => {
    if (!focusDay.current) return;
    focusDay.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }, [focused]);

  const label = (day: string) => formats.date.format(dayToUtc(day)!);
  const weeks = monthGrid(focused, firstDay);
  const month = monthOf(focused);
  const prevMonth = addMonths(focused, -1);
  const nextMonth = addMonths(focused, 1);
  const prevDisabled = Boolean(min && isDay(min) && monthOf(prevMonth) < monthOf(min));
  const nextDisabled = Boolean(max && isDay(max) && monthOf(nextMonth) > monthOf(max));

  return (
    <Popover.Root open={open} onOpenChange={show}>
      <Popover.Trigger asChild disabled={disabled}>
        <button
          type="button"
          data-slot="date-field"
          data-size={size}
          data-value={chosen}
          data-testid={testId}
          id={field.id}
          aria-haspopup="dialog"
          aria-describedby={[valueId, field['aria-describedby']].filter(Boolean).join(' ')}
          // A button takes no aria-invalid or aria-required: the error reaches it as its description
          // (FormField's ids above) and the border shows it.
          data-invalid={field.invalid || undefined}
          className={cn(
            controlRecipe({ size }),
            field.invalid && 'border-danger',
            'inline-flex items-center justify-between gap-2 text-start',
            !chosen && 'text-foreground-muted',
            className,
          )}
        >
          <span data-slot="date-field-value" className="truncate">
            {chosen ? label(chosen) : text.chooseDate}
          </span>
          <CalendarIcon className="text-foreground-muted" />
        </button>
      </Popover.Trigger>
      {/* The value as the field's description, outside the button so its text is only the day. */}
      <span id={valueId} className="sr-only">
        {chosen ? text.selectedDate.replace('{date}', label(chosen)) : text.chooseDate}
      </span>
      {name ? <input type="hidden" name={name} value={chosen} /> : null}
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={6}
          aria-label={text.calendar}
          data-slot="date-field-calendar"
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            gridRef.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
          }}
          className="z-50 w-[19rem] max-w-[calc(100vw-2rem)] rounded-lg border border-border bg-surface-raised p-3 text-foreground shadow-lg"
        >
          <div className="mb-2 flex items-center justify-between gap-2">
            <IconButton
              size="sm"
              label={text.previousMonth}
              icon={<ChevronStartIcon />}
              disabled={prevDisabled}
              onClick={() => moveTo(prevMonth)}
              data-slot="date-field-previous"
            />
            <h2
              id={titleId}
              aria-live="polite"
              className="text-sm font-semibold"
              data-slot="date-field-month"
            >
              {formats.month.format(dayToUtc(`${month}-01`)!)}
            </h2>
            <IconButton
              size="sm"
              label={text.nextMonth}
              icon={<ChevronEndIcon />}
              disabled={nextDisabled}
              onClick={() => moveTo(nextMonth)}
              data-slot="date-field-next"
            />
          </div>
          <table
            ref={gridRef}
            role="grid"
            aria-labelledby={titleId}
            className="w-full border-collapse text-center text-sm"
            onKeyDown={(e) => {
              const next = moveByKey(focused, e.key, { dir, weekStartsOn: firstDay, shiftKey: e.shiftKey });
              if (next === null) return;
              e.preventDefault();
              moveTo(next);
            }}
          >
            <thead>
              <tr>
                {weeks[0]!.map((day) => {
                  const at = dayToUtc(day)!;
                  return (
                    <th
                      key={day}
                      scope="col"
                      abbr={formats.weekdayLong.format(at)}
                      className="pb-1 text-xs font-medium text-foreground-muted"
                    >
                      {formats.weekday.format(at)}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week[0]}>
                  {week.map((day) => {
                    const outside = monthOf(day) !== month;
                    const blocked = outOfRange(day, min, max);
                    const selected = day === chosen;
                    return (
                      <td key={day} role="gridcell" aria-selected={selected} className="p-0.5">
                        <button
                          type="button"
                          tabIndex={day === focused ? 0 : -1}
                          disabled={blocked}
                          data-day={day}
                          aria-label={formats.full.format(dayToUtc(day)!)}
                          onClick={() => {
                            onChange(day);
                            setOpen(false);
                          }}
                          onFocus={() => {
                            if (day !== focused) setFocused(day);
                          }}
                          className={cn(
                            'size-9 rounded-md tabular-nums transition-colors disabled:cursor-not-allowed disabled:opacity-40',
                            focusRing,
                            selected
                              ? 'bg-primary text-primary-foreground'
                              : outside
                                ? 'text-foreground-muted hover:bg-surface-sunken'
                                : 'text-foreground hover:bg-surface-sunken',
                          )}
                        >
                          {formats.number.format(Number(day.slice(8)))}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
