import type { StatusTone } from '@fleet/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { cva } from 'class-variance-authority';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { filterOptions } from '../combobox';
import { Input } from '../input';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import { ar } from './messages.ar';
import { en } from './messages.en';

export type FleetListLabels = Partial<Record<keyof typeof en, string>>;

export interface FleetListItem {
  id: string;
  /** Plate text: shown (unless `plate` is given), searched, and the option's accessible name. */
  plateText: string;
  /** Rich plate (e.g. a PlateCard) drawn instead of the text. */
  plate?: ReactNode;
  driver?: string | null;
  speedKmh?: number | null;
  /** Already formatted last-seen text ("2 min ago", a date). */
  lastSeen?: string | null;
  tone: StatusTone;
  statusLabel: string;
}

export interface FleetListProps {
  items: readonly FleetListItem[];
  selectedId?: string | null;
  onSelect?: (id: string) => void;
  /** Row height in pixels (fixed: the list is virtualised). */
  rowHeight?: number;
  labels?: FleetListLabels;
  className?: string;
}

export const fleetListDotRecipe = cva('size-2.5 shrink-0 rounded-full', {
  variants: {
    tone: {
      live: 'bg-tone-live',
      idle: 'bg-tone-idle',
      offline: 'bg-tone-offline',
      inactive: 'bg-tone-inactive',
      noData: 'bg-tone-no-data',
      neutral: 'bg-tone-neutral',
    } satisfies Record<StatusTone, string>,
  },
  defaultVariants: { tone: 'neutral' },
});

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (_m, k: string) => String(values[k] ?? ''));

/**
 * The vehicle list beside the live map: a search box (plate or driver) over a virtualised listbox of
 * rows (status dot, plate, driver, speed, last seen). Only the rows in view are in the DOM, so 10,000
 * vehicles cost the same as 50. Arrow keys, Home and End move the active row (the list scrolls to it),
 * Enter or a click selects; a selection made elsewhere (a marker on the map) scrolls into view.
 */
export function FleetList({
  items,
  selectedId = null,
  onSelect,
  rowHeight = 60,
  labels,
  className,
}: FleetListProps) {
  const { locale } = useUi();
  const text = { ...(locale === 'ar' ? ar : en), ...labels };
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const options = items.map((item) => ({
      value: item.id,
      label: item.plateText,
      keywords: item.driver ?? '',
      item,
    }));
    return filterOptions(options, query).map((o) => o.item);
  }, [items, query]);
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- as in DataTable: the rows read it each render
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const baseId = useId();
  const [active, setActive] = useState(-1);
  const selectedIndex = useMemo(() => shown.findIndex((i) => i.id === selectedId), [shown, selectedId]);

  // A selection from outside (the map) brings its row into view once.
  useEffect(() => {
    if (selectedIndex >= 0) {
      setActive(selectedIndex);
      virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the selection moves
  }, [selectedId]);

  const move = (index: number) => {
    if (shown.length === 0) return;
    const next = Math.max(0, Math.min(shown.length - 1, index));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(active + 1),
      ArrowUp: () => move(active - 1),
      Home: () => move(0),
      End: () => move(shown.length - 1),
      PageDown: () => move(active + 10),
      PageUp: () => move(active - 10),
      Enter: () => {
        const item = shown[active];
        if (item) onSelect?.(item.id);
      },
    };
    const run = keys[e.key === ' ' ? 'Enter' : e.key];
    if (!run) return;
    e.preventDefault();
    run();
  };
  // Only a rendered row may be the active descendant: right after a jump (End, PageDown) the
  // virtualiser renders the row on its next frame, and an id pointing at nothing is invalid ARIA.
  const activeItem = virtualizer.getVirtualItems().some((row) => row.index === active)
    ? shown[active]
    : undefined;

  return (
    <div data-slot="fleet-list" className={cn('flex min-h-0 flex-col gap-2', className)}>
      <div className="flex items-center gap-2">
        <Input
          kind="search"
          size="sm"
          aria-label={text.search}
          placeholder={text.search}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(-1);
            scrollRef.current?.scrollTo({ top: 0 });
          }}
          className="min-w-0 flex-1"
        />
        <span
          data-slot="fleet-list-count"
          className="shrink-0 text-xs text-foreground-muted"
          aria-live="polite"
        >
          {fill(text.count, { count: shown.length })}
        </span>
      </div>
      {shown.length === 0 ? (
        <p
          role="status"
          className="flex-1 rounded-md border border-border bg-surface p-4 text-sm text-foreground-muted"
        >
          {text.noResults}
        </p>
      ) : (
        <div
          ref={scrollRef}
          role="listbox"
          tabIndex={0}
          aria-label={text.label}
          aria-activedescendant={activeItem ? `${baseId}-${activeItem.id}` : undefined}
          onKeyDown={onKeyDown}
          className="relative min-h-0 flex-1 overflow-y-auto rounded-md border border-border bg-surface focus-visible:outline-2 focus-visible:outline-focus-ring"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = shown[row.index]!;
              const selected = item.id === selectedId;
              return (
                // Keyboard selection is handled by the listbox (aria-activedescendant pattern).
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                <div
                  key={item.id}
                  tabIndex={-1}
                  id={`${baseId}-${item.id}`}
                  role="option"
                  aria-selected={selected}
                  data-slot="fleet-list-row"
                  data-active={row.index === active ? '' : undefined}
                  data-tone={item.tone}
                  onClick={() => {
                    setActive(row.index);
                    onSelect?.(item.id);
                  }}
                  className={cn(
                    'absolute inset-x-0 flex cursor-pointer items-center gap-3 border-b border-border px-3 text-sm',
                    'hover:bg-surface-sunken data-[active]:bg-surface-sunken',
                    selected && 'bg-primary-soft hover:bg-primary-soft data-[active]:bg-primary-soft',
                  )}
                  style={{ top: row.start, height: row.size }}
                >
                  <span aria-hidden="true" className={fleetListDotRecipe({ tone: item.tone })} />
                  <span className="sr-only">{item.statusLabel}</span>
                  <div className="flex min-w-0 flex-1 flex-col">
                    <span data-slot="fleet-list-plate" className="truncate font-medium text-foreground">
                      {item.plate ?? <bdi dir="ltr">{item.plateText}</bdi>}
                    </span>
                    <span className="truncate text-xs text-foreground-muted">
                      {item.driver || text.noDriver}
                    </span>
                  </div>
                  <div className="flex shrink-0 flex-col items-end text-xs">
                    <span className="text-foreground tabular-nums">
                      {item.speedKmh == null ? (
                        <bdi>{item.statusLabel}</bdi>
                      ) : (
                        <bdi>{fill(text.speed, { speed: Math.round(item.speedKmh) })}</bdi>
                      )}
                    </span>
                    {item.lastSeen ? <bdi className="text-foreground-muted">{item.lastSeen}</bdi> : null}
                  </div>
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
