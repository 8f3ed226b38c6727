import * as Popover from '@radix-ui/react-popover';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { focusRing } from '../button';
import { useFieldControlProps } from '../form-field';
import { CheckIcon, ChevronDownIcon, SearchIcon } from '../icons';
import { controlRecipe, type ControlSize } from '../input';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels } from '../provider';

export interface ComboboxOption {
  value: string;
  label: string;
  /** Extra text searched but not shown (e.g. an Arabic name or a code). */
  keywords?: string;
  disabled?: boolean;
}

/** Case- and accent-insensitive "contains" match on label and keywords. */
export function filterOptions<T extends ComboboxOption>(options: readonly T[], query: string): T[] {
  const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const q = norm(query.trim());
  if (!q) return [...options];
  return options.filter((o) => norm(`${o.label} ${o.keywords ?? ''}`).includes(q));
}

export interface ComboboxProps {
  options: readonly ComboboxOption[];
  value?: string | null;
  onValueChange?: (value: string) => void;
  placeholder?: string;
  size?: ControlSize;
  disabled?: boolean;
  invalid?: boolean;
  required?: boolean;
  id?: string;
  'aria-label'?: string;
  className?: string;
  /** Start open (stories and tests). */
  defaultOpen?: boolean;
  labels?: Partial<Pick<UiMessages, 'search' | 'noResults' | 'selectPlaceholder'>>;
}

/**
 * A searchable single-choice picker: a trigger button opening a popover with a search box
 * (role combobox) driving a listbox; arrows move, Enter picks, Escape closes.
 */
export function Combobox({
  options,
  value,
  onValueChange,
  placeholder,
  size = 'md',
  disabled,
  invalid,
  required,
  id,
  'aria-label': ariaLabel,
  className,
  defaultOpen = false,
  labels,
}: ComboboxProps) {
  const field = useFieldControlProps({ id, invalid, required });
  const text = useLabels(['search', 'noResults', 'selectPlaceholder'], labels);
  const [open, setOpen] = useState(defaultOpen);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const filtered = useMemo(() => filterOptions(options, query), [options, query]);
  const selected = options.find((o) => o.value === value);

  function choose(option: ComboboxOption | undefined) {
    if (!option || option.disabled) return;
    onValueChange?.(option.value);
    setOpen(false);
    setQuery('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (filtered.length ? (i + step + filtered.length) % filtered.length : 0));
    } else if (event.key === 'Home') {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      setActive(Math.max(0, filtered.length - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(filtered[active]);
    }
  }

  const optionId = (i: number) => `${listId}-option-${i}`;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          const index = filtered.findIndex((o) => o.value === value);
          setActive(index >= 0 ? index : 0);
        } else setQuery('');
      }}
    >
      <Popover.Trigger
        id={field.id}
        disabled={disabled}
        aria-label={ariaLabel}
        aria-describedby={field['aria-describedby']}
        aria-invalid={field['aria-invalid']}
        aria-haspopup="listbox"
        data-slot="combobox-trigger"
        data-size={size}
        className={cn(
          controlRecipe({ size }),
          'flex items-center justify-between gap-2 text-start',
          !selected && 'text-foreground-muted',
          className,
        )}
      >
        <span className="truncate">{selected?.label ?? placeholder ?? text.selectPlaceholder}</span>
        <ChevronDownIcon className="text-foreground-muted" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          data-slot="combobox-content"
          aria-label={ariaLabel ?? text.search}
          sideOffset={4}
          align="start"
          className="z-50 w-(--radix-popover-trigger-width) min-w-56 rounded-md border border-border bg-surface-raised p-1 text-foreground shadow-lg"
        >
          <div className="relative mb-1">
            <SearchIcon className="pointer-events-none absolute start-2.5 top-1/2 -translate-y-1/2 text-foreground-muted" />
            <input
              data-slot="combobox-input"
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-label={text.search}
              aria-activedescendant={filtered[active] ? optionId(active) : undefined}
              placeholder={text.search}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              className={cn(controlRecipe({ size: 'sm' }), 'ps-8')}
            />
          </div>
          {filtered.length === 0 ? (
            <p id={listId} role="status" className="px-3 py-2 text-sm text-foreground-muted">
              {text.noResults}
            </p>
          ) : (
            <ul
              id={listId}
              ref={listRef}
              role="listbox"
              aria-label={ariaLabel ?? text.search}
              className="max-h-64 overflow-auto"
            >
              {filtered.map((option, i) => (
                // Keyboard selection is handled by the combobox input (aria-activedescendant pattern).
                // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                <li
                  key={option.value}
                  id={optionId(i)}
                  role="option"
                  aria-selected={option.value === value}
                  aria-disabled={option.disabled || undefined}
                  data-slot="combobox-option"
                  data-active={i === active ? '' : undefined}
                  onMouseMove={() => setActive(i)}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => choose(option)}
                  className={cn(
                    'relative flex cursor-default items-center rounded-sm py-2 ps-8 pe-3 text-sm select-none',
                    'aria-disabled:opacity-50 data-active:bg-primary-soft',
                    focusRing,
                  )}
                >
                  {option.value === value ? <CheckIcon className="absolute start-2" /> : null}
                  {option.label}
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
