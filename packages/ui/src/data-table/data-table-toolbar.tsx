/**
 * The bar above the table: the search box (with its clear button), the "More filters" toggle and its
 * panel, the column menu and the caller's own content at the inline end (an "Add" button). The
 * search value is owned by the table (it filters the rows); the filter panel's open state is owned
 * here (shadcn's toolbar).
 */
import type { Table } from '@tanstack/react-table';
import { useId, useState, type ReactNode } from 'react';
import { buttonRecipe, focusRing } from '../button/button';
import { format } from '../i18n/locale';
import { CloseIcon, SearchIcon, SettingsIcon } from '../icons';
import { cn } from '../lib/cn';
import { ColumnMenu } from './data-table-column-menu';
import type { DataTableMessages } from './messages.en';

export interface DataTableToolbarProps<T> {
  table: Table<T>;
  messages: DataTableMessages;
  searchable: boolean;
  search: string;
  onSearch: (value: string) => void;
  filters?: ReactNode;
  activeFilterCount: number;
  columnMenu: boolean;
  toolbar?: ReactNode;
}

export function DataTableToolbar<T>({
  table,
  messages,
  searchable,
  search,
  onSearch,
  filters,
  activeFilterCount,
  columnMenu,
  toolbar,
}: DataTableToolbarProps<T>) {
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const searchId = useId();
  return (
    <>
      {searchable || filters || columnMenu || toolbar ? (
        <div data-slot="data-table-toolbar" className="flex flex-wrap items-center gap-2">
          {searchable ? (
            <div className="relative min-w-48 flex-1 sm:max-w-80">
              <label htmlFor={searchId} className="sr-only">
                {messages.search}
              </label>
              <SearchIcon className="pointer-events-none absolute start-3 top-1/2 -translate-y-1/2 text-foreground-muted" />
              <input
                id={searchId}
                type="search"
                data-slot="data-table-search"
                value={search}
                placeholder={messages.searchPlaceholder}
                onChange={(e) => onSearch(e.target.value)}
                className={cn(
                  'h-9 w-full rounded-md border border-border-strong bg-surface ps-9 pe-9 text-sm text-foreground placeholder:text-foreground-muted [&::-webkit-search-cancel-button]:hidden',
                  focusRing,
                )}
              />
              {search ? (
                <button
                  type="button"
                  aria-label={messages.clearSearch}
                  onClick={() => onSearch('')}
                  className={cn(
                    'absolute end-1.5 top-1/2 inline-flex size-6 -translate-y-1/2 items-center justify-center rounded-sm text-foreground-muted hover:text-foreground',
                    focusRing,
                  )}
                >
                  <CloseIcon size={14} />
                </button>
              ) : null}
            </div>
          ) : null}
          {filters ? (
            <button
              type="button"
              data-slot="data-table-filters-toggle"
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((o) => !o)}
              className={buttonRecipe({ variant: filtersOpen ? 'secondary' : 'outline', size: 'sm' })}
            >
              <SettingsIcon />
              {messages.moreFilters}
              {activeFilterCount > 0 ? (
                <span className="rounded-full bg-primary px-1.5 text-xs text-primary-foreground tabular-nums">
                  <span aria-hidden="true">{activeFilterCount}</span>
                  <span className="sr-only">
                    {format(messages.activeFilters, { count: activeFilterCount })}
                  </span>
                </span>
              ) : null}
            </button>
          ) : null}
          {columnMenu ? <ColumnMenu table={table} messages={messages} /> : null}
          {toolbar ? <div className="ms-auto flex items-center gap-2">{toolbar}</div> : null}
        </div>
      ) : null}
      {filters ? (
        <div
          id={filtersId}
          data-slot="data-table-filters"
          hidden={!filtersOpen}
          className="rounded-lg border border-border bg-surface p-3"
        >
          {filters}
        </div>
      ) : null}
    </>
  );
}
