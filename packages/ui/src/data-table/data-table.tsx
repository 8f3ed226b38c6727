import * as Popover from '@radix-ui/react-popover';
import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  useReactTable,
  type Cell,
  type CellContext,
  type Column,
  type ColumnDef,
  type Header,
  type PaginationState,
  type Row,
  type RowData,
  type RowModel,
  type SortingFn,
  type SortingState,
  type Table,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { cva } from 'class-variance-authority';
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { buttonRecipe, focusRing } from '../button/button';
import { format } from '../i18n/locale';
import {
  ChevronDownIcon,
  ChevronEndIcon,
  ChevronStartIcon,
  ChevronUpIcon,
  CloseIcon,
  MoreIcon,
  SearchIcon,
  SettingsIcon,
} from '../icons';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import {
  compareCells,
  matchesSearch,
  pageInfoFromIndex,
  pageInfoFromMeta,
  createSortKeyCache,
  pageWindow,
  sortRows,
  type ListMeta,
} from './data-table-logic';
import { dataTableMessagesAr } from './messages.ar';
import { dataTableMessagesEn, type DataTableMessages } from './messages.en';

declare module '@tanstack/react-table' {
  // Column options the DataTable reads (module augmentation is TanStack's documented way).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Numbers: end-aligned with tabular digits. */
    numeric?: boolean;
    /** Left-to-right data (plates, IMEIs, phones, coordinates): isolated in `<bdi dir="ltr">`. */
    ltr?: boolean;
    /** Name in the column menu and the sort button label (defaults to a string header, then the id). */
    label?: string;
    /** Extra classes for the header and body cells of this column. */
    className?: string;
    /**
     * Width of the column when rows are virtualised (a CSS length such as '11rem'); columns without
     * one share the remaining width. Give it to columns whose values must not be cut (IMEIs, times).
     */
    width?: string;
  }
}

export const dataTableDensities = ['comfortable', 'compact'] as const;
export type DataTableDensity = (typeof dataTableDensities)[number];

export const dataTableVariants = cva('flex flex-col gap-3 text-sm text-foreground', {
  variants: {
    density: {
      comfortable: '[&_[data-slot=data-table-cell]]:py-3 [&_[data-slot=data-table-head]]:py-2.5',
      compact: '[&_[data-slot=data-table-cell]]:py-1.5 [&_[data-slot=data-table-head]]:py-1.5',
    } satisfies Record<DataTableDensity, string>,
  },
  defaultVariants: { density: 'comfortable' },
});

const cellRecipe = cva('px-3 align-middle', {
  variants: {
    numeric: { true: 'text-end tabular-nums', false: 'text-start' },
  },
  defaultVariants: { numeric: false },
});

/** One entry of a row's action menu. */
export interface DataTableRowAction {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  /** 'danger' for destructive actions (delete). */
  tone?: 'default' | 'danger';
  disabled?: boolean;
}

export const dataTablePageSizes = [10, 25, 50, 100] as const;

export interface DataTableProps<T> {
  // Columns are typed by TanStack per accessor value; `any` here is TanStack's documented usage.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  /** Rows to show: the whole list (client mode) or the current page (server mode). */
  data: readonly T[];
  getRowId?: (row: T, index: number) => string;
  /** Accessible name of the table. */
  caption: string;
  /** Show the caption visibly above the table (default: screen readers only). */
  showCaption?: boolean;

  /**
   * Server mode: the list envelope's paging fields (`total, current_page, last_page, per_page`).
   * Paging, sorting and search are then delegated to the callbacks; `data` is the current page.
   */
  pagination?: ListMeta | null;
  /** 1-based page requested (server mode). */
  onPageChange?: (page: number) => void;
  onPerPageChange?: (perPage: number) => void;

  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  search?: string;
  onSearchChange?: (search: string) => void;
  /** Debounce of onSearchChange in server mode (ms, default 300). */
  searchDebounceMs?: number;
  /** Show the search box (default true). */
  searchable?: boolean;

  /** Content of the "more filters" panel; the toggle button shows only when given. */
  filters?: ReactNode;
  /** Number of active extra filters, shown on the toggle. */
  activeFilterCount?: number;
  /** Extra toolbar content at the end (e.g. an "Add" button). */
  toolbar?: ReactNode;

  rowActions?: (row: T) => DataTableRowAction[];
  /** Row activation (click, Enter or Space on a focused row). */
  onRowClick?: (row: T) => void;
  /** Label of a row for its actions menu (default: the row id). */
  rowLabel?: (row: T) => string;

  loading?: boolean;
  skeletonRows?: number;
  /** Replaces the default empty message. */
  empty?: ReactNode;

  /** Client mode page size (default 10) and the choices offered. */
  pageSize?: number;
  pageSizeOptions?: readonly number[];

  /**
   * Render every row in a scrolling viewport with row virtualisation instead of pages (long lists
   * such as 10,000 vehicles). Ignored in server mode.
   */
  virtualize?: boolean;
  /** Viewport height when virtualised (CSS length or px, default 480). */
  height?: number | string;
  /** Estimated row height for virtualisation (px, default 44 comfortable / 34 compact). */
  rowHeight?: number;

  columnVisibility?: VisibilityState;
  onColumnVisibilityChange?: (visibility: VisibilityState) => void;
  /** Show the column menu (default true). */
  columnMenu?: boolean;

  density?: DataTableDensity;
  labels?: Partial<DataTableMessages>;
  className?: string;
}

function useTableMessages(labels?: Partial<DataTableMessages>): DataTableMessages {
  const { locale } = useUi();
  return useMemo(
    () => ({ ...(locale === 'ar' ? dataTableMessagesAr : dataTableMessagesEn), ...labels }),
    [locale, labels],
  );
}

function columnLabel<T>(column: Column<T, unknown>): string {
  const meta = column.columnDef.meta;
  if (meta?.label) return meta.label;
  const header = column.columnDef.header;
  return typeof header === 'string' ? header : column.id;
}

const ACTIONS_ID = '__actions';

/**
 * Sorted row model for flat lists, replacing TanStack's generic one: keys are read once per column
 * and compared as typed arrays / ASCII keys ({@link sortRows}), which keeps 10,000-row sorts well
 * inside a frame budget. A column with its own `sortingFn` falls back to that comparator.
 */
function fastSortedRowModel<T>(locale: string): (table: Table<T>) => () => RowModel<T> {
  return (table) => {
    let lastSorting: SortingState | undefined;
    let lastInput: RowModel<T> | undefined;
    let lastOutput: RowModel<T> | undefined;
    const keyCache = createSortKeyCache();
    return () => {
      const sorting = table.getState().sorting;
      const input = table.getPreSortedRowModel();
      if (sorting === lastSorting && input === lastInput && lastOutput) return lastOutput;
      lastSorting = sorting;
      lastInput = input;
      const active = (sorting ?? []).filter((s) => table.getColumn(s.id)?.getCanSort());
      if (active.length === 0 || input.rows.length < 2) {
        lastOutput = input;
        return input;
      }
      const custom = active.some((s) => {
        const fn = table.getColumn(s.id)?.columnDef.sortingFn;
        return fn !== undefined && fn !== 'auto';
      });
      let rows: Row<T>[];
      if (custom) {
        rows = [...input.rows].sort((a, b) => {
          for (const s of active) {
            const column = table.getColumn(s.id)!;
            const r = column.getSortingFn()(a, b, s.id);
            if (r !== 0) return s.desc ? -r : r;
          }
          return a.index - b.index;
        });
      } else {
        rows = sortRows(
          input.rows,
          active.map((s) => ({ value: cellReader<T>(table, s.id), desc: s.desc, cacheKey: s.id })),
          locale,
          keyCache,
        );
      }
      lastOutput = { rows, flatRows: rows, rowsById: input.rowsById };
      return lastOutput;
    };
  };
}

/**
 * Reads a column's value straight from the accessor. `row.getValue` would do the same but also
 * store it in a per-row cache object, which for a 10,000-row sort means 10,000 object writes (and
 * the garbage) just to read each value once into the prepared sort keys.
 */
function cellReader<T>(table: Table<T>, columnId: string): (row: Row<T>) => unknown {
  const accessor = table.getColumn(columnId)?.accessorFn;
  if (!accessor) return (row) => row.getValue(columnId);
  return (row) => accessor(row.original, row.index);
}

/**
 * A data grid on TanStack Table: search, a "more filters" panel, sorting, paging that follows the
 * API's list envelope (server mode) or pages locally (client mode), a column menu, row actions, a
 * loading skeleton, an empty state and row virtualisation for long lists. Alignment is logical
 * (text-start / text-end), numeric columns use tabular digits, LTR data is isolated in `<bdi>`.
 * Keyboard: headers are buttons; with `onRowClick`, rows are a roving tab stop (Up/Down/Home/End
 * move, Enter/Space activate).
 */
export function DataTable<T>({
  columns,
  data,
  getRowId,
  caption,
  showCaption = false,
  pagination,
  onPageChange,
  onPerPageChange,
  sorting: controlledSorting,
  onSortingChange,
  search: controlledSearch,
  onSearchChange,
  searchDebounceMs = 300,
  searchable = true,
  filters,
  activeFilterCount = 0,
  toolbar,
  rowActions,
  onRowClick,
  rowLabel,
  loading = false,
  skeletonRows = 5,
  empty,
  pageSize: initialPageSize = 10,
  pageSizeOptions = dataTablePageSizes,
  virtualize = false,
  height = 480,
  rowHeight,
  columnVisibility: controlledVisibility,
  onColumnVisibilityChange,
  columnMenu = true,
  density = 'comfortable',
  labels,
  className,
}: DataTableProps<T>) {
  const { localeTag } = useUi();
  const messages = useTableMessages(labels);
  const server = !!pagination;
  const virtual = virtualize && !server;

  const [sortingState, setSortingState] = useState<SortingState>([]);
  const sorting = controlledSorting ?? sortingState;
  const [visibilityState, setVisibilityState] = useState<VisibilityState>({});
  const columnVisibility = controlledVisibility ?? visibilityState;
  const [searchState, setSearchState] = useState(controlledSearch ?? '');
  const [paginationState, setPaginationState] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: initialPageSize,
  });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Also kept as state: the virtualised rows mount before the parent's ref is attached, so they
  // need a re-render once the viewport element exists.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attachViewport = useCallback((el: HTMLDivElement | null) => {
    scrollRef.current = el;
    setScrollElement(el);
  }, []);
  // Roving tab stop among rows (index into the current row model).
  const [activeRow, setActiveRow] = useState(0);
  const filtersId = useId();
  const searchId = useId();

  // Keep the box in sync when the parent changes the controlled search.
  const [lastControlledSearch, setLastControlledSearch] = useState(controlledSearch);
  if (controlledSearch !== lastControlledSearch) {
    setLastControlledSearch(controlledSearch);
    if (controlledSearch !== undefined) setSearchState(controlledSearch);
  }

  // Server-mode search is debounced; client mode filters as you type.
  const searchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(searchTimer.current), []);
  const changeSearch = (value: string) => {
    setSearchState(value);
    if (!server) {
      setPaginationState((p) => ({ ...p, pageIndex: 0 }));
      onSearchChange?.(value);
      return;
    }
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => onSearchChange?.(value), searchDebounceMs);
  };

  const sortedRowModel = useMemo(() => fastSortedRowModel<T>(localeTag), [localeTag]);
  const localeSort = useMemo<SortingFn<T>>(
    () => (a, b, id) => compareCells(a.getValue(id), b.getValue(id), localeTag),
    [localeTag],
  );

  const allColumns = useMemo(() => {
    if (!rowActions) return columns;
    const actionsColumn: ColumnDef<T> = {
      id: ACTIONS_ID,
      header: () => <span className="sr-only">{messages.actions}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { label: messages.actions, className: 'w-px text-end' },
      cell: ({ row }) => (
        <RowActionsMenu
          actions={rowActions(row.original)}
          label={format(messages.rowActions, { row: rowLabel ? rowLabel(row.original) : row.id })}
        />
      ),
    };
    return [...columns, actionsColumn];
  }, [columns, rowActions, rowLabel, messages.actions, messages.rowActions]);

  // TanStack Table returns new functions every render by design; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<T>({
    data: data as T[],
    columns: allColumns,
    ...(getRowId ? { getRowId } : {}),
    // Ascending first for every column (TanStack would start numbers descending). The order itself
    // comes from fastSortedRowModel (compareCells semantics); `localeSort` serves columns that ask
    // for a TanStack comparator by name.
    defaultColumn: { sortDescFirst: false },
    sortingFns: { locale: localeSort },
    state: {
      sorting,
      columnVisibility,
      globalFilter: server ? '' : searchState,
      ...(server
        ? {
            pagination: {
              pageIndex: pageInfoFromMeta(pagination).page - 1,
              pageSize: pageInfoFromMeta(pagination).perPage,
            },
          }
        : { pagination: paginationState }),
    },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (controlledSorting === undefined) setSortingState(next);
      if (!server) setPaginationState((p) => ({ ...p, pageIndex: 0 }));
      // A new order starts from the top of a virtualised list.
      if (virtual && scrollRef.current) scrollRef.current.scrollTop = 0;
      setActiveRow(0);
      onSortingChange?.(next);
    },
    onColumnVisibilityChange: (updater) => {
      const next = typeof updater === 'function' ? updater(columnVisibility) : updater;
      if (controlledVisibility === undefined) setVisibilityState(next);
      onColumnVisibilityChange?.(next);
    },
    onPaginationChange: (updater) => {
      if (server) return;
      setPaginationState((p) => (typeof updater === 'function' ? updater(p) : updater));
    },
    globalFilterFn: (row, _id, query: string) =>
      matchesSearch(
        row.getAllCells().map((c) => c.getValue()),
        query,
      ),
    getCoreRowModel: getCoreRowModel(),
    ...(server
      ? {
          manualPagination: true,
          manualSorting: true,
          manualFiltering: true,
          pageCount: pageInfoFromMeta(pagination).pageCount,
        }
      : {
          getSortedRowModel: sortedRowModel,
          getFilteredRowModel: getFilteredRowModel(),
          ...(virtual ? {} : { getPaginationRowModel: getPaginationRowModel() }),
        }),
  });

  const rows = table.getRowModel().rows;
  const filteredCount = server ? pagination.total : table.getFilteredRowModel().rows.length;
  const info = server
    ? pageInfoFromMeta(pagination, data.length)
    : pageInfoFromIndex(filteredCount, paginationState.pageIndex, paginationState.pageSize);
  const visibleColumns = table.getVisibleLeafColumns();
  const colCount = visibleColumns.length;

  const goToPage = (page: number) => {
    const target = Math.min(info.pageCount, Math.max(1, page));
    if (server) onPageChange?.(target);
    else setPaginationState((p) => ({ ...p, pageIndex: target - 1 }));
  };
  const changePageSize = (size: number) => {
    if (server) onPerPageChange?.(size);
    else setPaginationState({ pageIndex: 0, pageSize: size });
  };

  // Virtualisation.
  const estimate = rowHeight ?? (density === 'compact' ? 34 : 44);
  // The virtualizer lives in VirtualRows, so scrolling re-renders only the body, not the table.
  const virtualApi = useRef<VirtualRowsApi | null>(null);

  // Roving focus among rows.
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  // The row to focus once it is in the DOM. A virtualised row far away (End, PageDown) is rendered
  // only after the scroll it causes has been handled, which can take more than the next frame, so
  // the focus waits for it: tried after the next frame and after every render of the virtual rows.
  // A request not met within a second is dropped, so a row scrolled into view much later never
  // takes the focus from wherever the user has gone meanwhile.
  const pendingFocus = useRef<{ index: number; until: number } | null>(null);
  const flushPendingFocus = useCallback(() => {
    const pending = pendingFocus.current;
    if (pending === null) return;
    if (performance.now() > pending.until) {
      pendingFocus.current = null;
      return;
    }
    const el = bodyRef.current?.querySelector<HTMLElement>(`[data-row-index="${pending.index}"]`);
    if (!el) return;
    pendingFocus.current = null;
    el.focus();
  }, []);
  const focusRow = useCallback(
    (index: number) => {
      const clamped = Math.max(0, Math.min(rows.length - 1, index));
      setActiveRow(clamped);
      pendingFocus.current = { index: clamped, until: performance.now() + 1000 };
      if (virtual) virtualApi.current?.scrollToIndex(clamped);
      requestAnimationFrame(flushPendingFocus);
    },
    [rows.length, virtual, flushPendingFocus],
  );
  const onRowKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: Row<T>) => {
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / estimate) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: rows.length - 1,
      PageDown: index + page,
      PageUp: index - page,
    };
    if (e.key in moves) {
      e.preventDefault();
      focusRow(moves[e.key]!);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onRowClick?.(row.original);
    }
  };

  // Row handlers go through a ref so memoised rows do not re-render when the callbacks change.
  const rowHandlers = useRef<RowHandlers>({ onRowKeyDown: () => {} });
  useLayoutEffect(() => {
    rowHandlers.current = {
      onRowClick: onRowClick as RowHandlers['onRowClick'],
      onRowKeyDown: onRowKeyDown as RowHandlers['onRowKeyDown'],
    };
  });
  const visibleKey = visibleColumns.map((c) => c.id).join('|');
  const renderRow = (row: Row<T>, index: number) => (
    <MemoRow
      key={row.id}
      row={row as Row<unknown>}
      index={index}
      ariaRowIndex={index + 2 + (server || virtual ? 0 : info.from > 0 ? info.from - 1 : 0)}
      interactive={!!onRowClick}
      tabbable={index === Math.min(activeRow, rows.length - 1)}
      virtual={virtual}
      visibleKey={visibleKey}
      handlers={rowHandlers}
      table={table as Table<unknown>}
      onFocusRow={setActiveRow}
    />
  );

  const sortedLabel = (header: Header<T, unknown>) =>
    format(messages.sortBy, { column: columnLabel(header.column) });
  const searchValue = searchState;
  const isEmpty = !loading && rows.length === 0;

  const tableElement = (
    <table
      data-slot="data-table-table"
      aria-rowcount={(server ? info.total : filteredCount) + 1}
      aria-busy={loading || undefined}
      // Virtualised: fixed column widths (shared equally; the actions column a button wide), so
      // rows entering while scrolling never re-measure every column nor shift the ones on screen.
      className={cn('w-full border-collapse', virtual && 'table-fixed')}
    >
      <caption className={cn(showCaption ? 'pb-2 text-start text-base font-semibold' : 'sr-only')}>
        {caption}
      </caption>
      {virtual ? (
        <colgroup>
          {visibleColumns.map((column) => (
            <col
              key={column.id}
              style={
                column.id === ACTIONS_ID
                  ? { width: '3.5rem' }
                  : column.columnDef.meta?.width
                    ? { width: column.columnDef.meta.width }
                    : undefined
              }
            />
          ))}
        </colgroup>
      ) : null}
      <thead
        data-slot="data-table-header"
        className={cn('bg-surface-sunken text-foreground-muted', virtual && 'sticky top-0 z-10')}
      >
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id} aria-rowindex={1}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const sort = header.column.getIsSorted();
              const canSort = header.column.getCanSort() && !loading;
              return (
                <th
                  key={header.id}
                  scope="col"
                  data-slot="data-table-head"
                  data-column={header.column.id}
                  aria-sort={sort === 'asc' ? 'ascending' : sort === 'desc' ? 'descending' : undefined}
                  className={cn(
                    cellRecipe({ numeric: !!meta?.numeric }),
                    'border-b border-border text-xs font-semibold whitespace-nowrap',
                    meta?.className,
                  )}
                >
                  {header.isPlaceholder ? null : canSort ? (
                    <button
                      type="button"
                      data-slot="data-table-sort"
                      aria-label={sortedLabel(header)}
                      onClick={header.column.getToggleSortingHandler()}
                      className={cn(
                        'inline-flex items-center gap-1 rounded-sm font-semibold hover:text-foreground',
                        meta?.numeric && 'flex-row-reverse',
                        focusRing,
                      )}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <SortIndicator direction={sort} />
                    </button>
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody ref={bodyRef} data-slot="data-table-body" className="bg-surface">
        {loading ? (
          Array.from({ length: skeletonRows }, (_, i) => (
            <tr
              key={`skeleton-${i}`}
              data-slot="data-table-skeleton"
              className="border-b border-border last:border-b-0"
            >
              {visibleColumns.map((column) => (
                <td key={column.id} data-slot="data-table-cell" className="px-3">
                  <div
                    aria-hidden="true"
                    className={cn(
                      'h-4 animate-pulse rounded bg-surface-sunken motion-reduce:animate-none',
                      column.columnDef.meta?.numeric ? 'ms-auto w-12' : 'w-3/4',
                    )}
                  />
                </td>
              ))}
            </tr>
          ))
        ) : isEmpty ? (
          <tr data-slot="data-table-empty">
            <td colSpan={colCount} className="px-3 py-10 text-center text-foreground-muted">
              {empty ?? (searchValue ? format(messages.emptySearch, { query: searchValue }) : messages.empty)}
            </td>
          </tr>
        ) : virtual ? (
          <VirtualRows
            count={rows.length}
            scrollElement={scrollElement}
            estimate={estimate}
            colCount={colCount}
            renderRow={(index) => renderRow(rows[index]!, index)}
            apiRef={virtualApi}
            onRendered={flushPendingFocus}
          />
        ) : (
          rows.map((row, i) => renderRow(row, i))
        )}
      </tbody>
    </table>
  );

  return (
    <div
      data-slot="data-table"
      data-density={density}
      data-mode={server ? 'server' : virtual ? 'virtual' : 'client'}
      data-loading={loading || undefined}
      className={cn(dataTableVariants({ density }), className)}
    >
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
                value={searchValue}
                placeholder={messages.searchPlaceholder}
                onChange={(e) => changeSearch(e.target.value)}
                className={cn(
                  'h-9 w-full rounded-md border border-border-strong bg-surface ps-9 pe-9 text-sm text-foreground placeholder:text-foreground-muted [&::-webkit-search-cancel-button]:hidden',
                  focusRing,
                )}
              />
              {searchValue ? (
                <button
                  type="button"
                  aria-label={messages.clearSearch}
                  onClick={() => changeSearch('')}
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
      <div
        ref={attachViewport}
        data-slot="data-table-viewport"
        // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
        tabIndex={virtual && !onRowClick ? 0 : undefined}
        role={virtual ? 'region' : undefined}
        aria-label={virtual ? caption : undefined}
        style={
          virtual
            ? ({
                height: typeof height === 'number' ? `${height}px` : height,
                '--row-h': `${estimate}px`,
              } as React.CSSProperties)
            : undefined
        }
        className={cn(
          'rounded-lg border border-border bg-surface',
          virtual ? cn('overflow-auto', focusRing) : 'overflow-x-auto',
        )}
      >
        {tableElement}
      </div>
      <p role="status" className="sr-only">
        {loading
          ? messages.loading
          : format(messages.rowCount, { count: server ? info.total : filteredCount })}
      </p>
      {!virtual ? (
        <Pager
          info={info}
          messages={messages}
          pageSize={server ? info.perPage : paginationState.pageSize}
          pageSizeOptions={pageSizeOptions}
          disabled={loading}
          onPage={goToPage}
          onPageSize={server && !onPerPageChange ? undefined : changePageSize}
        />
      ) : null}
    </div>
  );
}

interface VirtualRowsApi {
  scrollToIndex(index: number): void;
}

/**
 * The virtualised part of the body. It owns the virtualizer, so a scroll re-renders this component
 * (spacers plus the rows entering the viewport) and not the whole DataTable.
 */
function VirtualRows({
  count,
  scrollElement,
  estimate,
  colCount,
  renderRow,
  apiRef,
  onRendered,
}: {
  count: number;
  scrollElement: HTMLDivElement | null;
  estimate: number;
  colCount: number;
  renderRow: (index: number) => ReactNode;
  apiRef: React.RefObject<VirtualRowsApi | null>;
  /** Called after every commit of the rows (a pending row focus can then find its row). */
  onRendered: () => void;
}) {
  // TanStack Virtual returns fresh functions by design; the React Compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollElement,
    estimateSize: () => estimate,
    overscan: 4,
  });
  useImperativeHandle(
    apiRef,
    () => ({ scrollToIndex: (i) => virtualizer.scrollToIndex(i, { align: 'auto' }) }),
    [virtualizer],
  );
  useLayoutEffect(onRendered);
  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0]!.start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <>
      {padTop > 0 ? (
        <tr aria-hidden="true" data-slot="data-table-spacer">
          <td colSpan={colCount} style={{ height: padTop, padding: 0 }} />
        </tr>
      ) : null}
      {items.map((item) => renderRow(item.index))}
      {padBottom > 0 ? (
        <tr aria-hidden="true" data-slot="data-table-spacer">
          <td colSpan={colCount} style={{ height: padBottom, padding: 0 }} />
        </tr>
      ) : null}
    </>
  );
}

interface RowHandlers {
  onRowClick?: (row: unknown) => void;
  onRowKeyDown: (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: Row<unknown>) => void;
}

interface MemoRowProps {
  row: Row<unknown>;
  index: number;
  ariaRowIndex: number;
  interactive: boolean;
  tabbable: boolean;
  virtual: boolean;
  /** Changes when the visible columns change, so cached rows re-render then. */
  visibleKey: string;
  handlers: React.RefObject<RowHandlers>;
  /** Stable state setter of the roving tab stop. */
  onFocusRow: (index: number) => void;
  table: Table<unknown>;
}

/**
 * One body row. Memoised on its row object and position: while scrolling a virtualised list only
 * the rows entering the viewport render; the others are skipped by React.
 */
const MemoRow = memo(function MemoRow({
  row,
  index,
  ariaRowIndex,
  interactive,
  tabbable,
  virtual,
  handlers,
  onFocusRow,
  table,
}: MemoRowProps) {
  return (
    <tr
      data-slot="data-table-row"
      data-row-index={index}
      aria-rowindex={ariaRowIndex}
      tabIndex={interactive ? (tabbable ? 0 : -1) : undefined}
      onClick={interactive ? () => handlers.current.onRowClick?.(row.original) : undefined}
      onKeyDown={interactive ? (e) => handlers.current.onRowKeyDown(e, index, row) : undefined}
      onFocus={interactive ? () => onFocusRow(index) : undefined}
      className={cn(
        'border-b border-border last:border-b-0',
        virtual && 'h-[var(--row-h)]',
        interactive && cn('cursor-pointer hover:bg-surface-sunken', focusRing, '-outline-offset-2'),
      )}
    >
      {(virtual ? transientCells(table, row) : row.getVisibleCells()).map((cell) => (
        <BodyCell key={cell.id} cell={cell} virtual={virtual} />
      ))}
    </tr>
  );
});

/**
 * Cells of a virtualised row, built for this render only. TanStack's `row.getVisibleCells()` creates
 * them once per row and keeps them on the row, so scrolling through 10,000 rows left thousands
 * of cell objects alive (8 per row visited), and the young-generation collections that had to copy
 * them took a whole frame. These die young instead (a row renders when it enters the viewport).
 */
function transientCells(table: Table<unknown>, row: Row<unknown>): Cell<unknown, unknown>[] {
  return table.getVisibleLeafColumns().map((column) => lightCell(table, row, column));
}

/**
 * A cell with what column renderers use (the context's table, row, column, cell, getValue and
 * renderValue; the cell's id, row, column, getValue, renderValue, getContext): TanStack's
 * createCell also attaches every feature's methods (grouping, aggregation...) as fresh closures per
 * cell, which the DataTable does not use, and while scrolling fast that garbage made the young
 * generation collect in the middle of a frame. Values come from the row's own cache.
 */
function lightCell(table: Table<unknown>, row: Row<unknown>, column: Column<unknown, unknown>) {
  const getValue = () => row.getValue(column.id);
  const renderValue = () => row.renderValue(column.id);
  const cell = {
    id: `${row.id}_${column.id}`,
    row,
    column,
    getValue,
    renderValue,
    getContext: () => context,
  } as unknown as Cell<unknown, unknown>;
  const context = { table, row, column, cell, getValue, renderValue } as unknown as CellContext<
    unknown,
    unknown
  >;
  return cell;
}

/** Class names of a body cell per column definition and mode (computed once, not per cell render). */
const cellClassCache = new WeakMap<object, [string | undefined, string | undefined]>();
function bodyCellClass(def: ColumnDef<unknown, unknown>, virtual: boolean): string {
  let entry = cellClassCache.get(def);
  if (!entry) {
    entry = [undefined, undefined];
    cellClassCache.set(def, entry);
  }
  const slot = virtual ? 1 : 0;
  let cls = entry[slot];
  if (cls === undefined) {
    const meta = def.meta;
    // Virtualised rows keep one line (stable row height): long text is cut with an ellipsis.
    cls = cn(cellRecipe({ numeric: !!meta?.numeric }), virtual && 'truncate', meta?.className);
    entry[slot] = cls;
  }
  return cls;
}

function BodyCell<T>({ cell, virtual }: { cell: Cell<T, unknown>; virtual: boolean }) {
  const def = cell.column.columnDef;
  const content = flexRender(def.cell, cell.getContext());
  return (
    <td
      data-slot="data-table-cell"
      data-column={cell.column.id}
      className={bodyCellClass(def as ColumnDef<unknown, unknown>, virtual)}
    >
      {def.meta?.ltr ? (
        // Cut on one line, an isolated LTR value loses its end, not its start, in both directions:
        // the <bdi> itself is the truncating box (LTR, so the ellipsis follows the last character
        // shown), an inline block the cell still aligns to its start or end.
        <bdi dir="ltr" className={virtual ? 'inline-block max-w-full truncate align-top' : undefined}>
          {content}
        </bdi>
      ) : (
        content
      )}
    </td>
  );
}

function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ChevronUpIcon size={14} data-sort="asc" />;
  if (direction === 'desc') return <ChevronDownIcon size={14} data-sort="desc" />;
  return <ChevronDownIcon size={14} className="opacity-30" data-sort="none" />;
}

function RowActionsMenu({ actions, label }: { actions: DataTableRowAction[]; label: string }) {
  const [open, setOpen] = useState(false);
  if (actions.length === 0) return null;
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          data-slot="data-table-row-actions"
          aria-label={label}
          onClick={(e) => e.stopPropagation()}
          onKeyDown={(e) => e.stopPropagation()}
          className={cn(buttonRecipe({ variant: 'ghost', size: 'sm' }), 'size-8 px-0')}
        >
          <MoreIcon />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={4}
          data-slot="data-table-row-actions-menu"
          aria-label={label}
          onClick={(e) => e.stopPropagation()}
          className="z-50 flex min-w-40 flex-col rounded-md border border-border bg-surface-raised p-1 text-sm text-foreground shadow-lg"
        >
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              disabled={action.disabled}
              onClick={() => {
                setOpen(false);
                action.onSelect();
              }}
              className={cn(
                'flex items-center gap-2 rounded-sm px-2 py-1.5 text-start hover:bg-surface-sunken disabled:opacity-50',
                action.tone === 'danger' && 'text-danger',
                focusRing,
              )}
            >
              {action.icon}
              {action.label}
            </button>
          ))}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function ColumnMenu<T>({
  table,
  messages,
}: {
  table: ReturnType<typeof useReactTable<T>>;
  messages: DataTableMessages;
}) {
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());
  if (hideable.length === 0) return null;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          data-slot="data-table-columns"
          aria-label={messages.columnsMenu}
          className={buttonRecipe({ variant: 'outline', size: 'sm' })}
        >
          {messages.columns}
          <ChevronDownIcon />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={4}
          aria-label={messages.columnsMenu}
          data-slot="data-table-columns-menu"
          className="z-50 flex min-w-48 flex-col gap-1 rounded-md border border-border bg-surface-raised p-2 text-sm text-foreground shadow-lg"
        >
          {hideable.map((column) => (
            <label
              key={column.id}
              className="flex items-center gap-2 rounded-sm px-1 py-1 hover:bg-surface-sunken"
            >
              <input
                type="checkbox"
                checked={column.getIsVisible()}
                // Keep at least one column visible.
                disabled={column.getIsVisible() && table.getVisibleLeafColumns().length <= 1}
                onChange={column.getToggleVisibilityHandler()}
                className="size-4 accent-primary"
              />
              {columnLabel(column as Column<T, unknown>)}
            </label>
          ))}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function Pager({
  info,
  messages,
  pageSize,
  pageSizeOptions,
  disabled,
  onPage,
  onPageSize,
}: {
  info: ReturnType<typeof pageInfoFromMeta>;
  messages: DataTableMessages;
  pageSize: number;
  pageSizeOptions: readonly number[];
  disabled: boolean;
  onPage: (page: number) => void;
  onPageSize: ((size: number) => void) | undefined;
}) {
  const sizeId = useId();
  const options = pageSizeOptions.includes(pageSize)
    ? pageSizeOptions
    : [...pageSizeOptions, pageSize].sort((a, b) => a - b);
  const nav = cn(buttonRecipe({ variant: 'ghost', size: 'sm' }), 'size-8 px-0');
  return (
    <div
      data-slot="data-table-pagination"
      className="flex flex-wrap items-center justify-between gap-3 text-foreground-muted"
    >
      <div className="flex items-center gap-2">
        {onPageSize ? (
          <>
            <label htmlFor={sizeId}>{messages.rowsPerPage}</label>
            <select
              id={sizeId}
              value={pageSize}
              disabled={disabled}
              onChange={(e) => onPageSize(Number(e.target.value))}
              className={cn(
                'h-8 rounded-md border border-border-strong bg-surface px-2 text-foreground',
                focusRing,
              )}
            >
              {options.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </>
        ) : null}
        <span data-slot="data-table-range" className="tabular-nums">
          {format(messages.pageRange, { from: info.from, to: info.to, total: info.total })}
        </span>
      </div>
      <nav aria-label={messages.pagination} className="flex items-center gap-1">
        <button
          type="button"
          className={nav}
          aria-label={messages.firstPage}
          disabled={disabled || !info.hasPrevious}
          onClick={() => onPage(1)}
        >
          <ChevronStartIcon />
          <ChevronStartIcon className="-ms-3" />
        </button>
        <button
          type="button"
          className={nav}
          aria-label={messages.previousPage}
          disabled={disabled || !info.hasPrevious}
          onClick={() => onPage(info.page - 1)}
        >
          <ChevronStartIcon />
        </button>
        {pageWindow(info.page, info.pageCount).map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              data-slot="data-table-page"
              aria-label={format(messages.page, { page: item })}
              aria-current={item === info.page ? 'page' : undefined}
              disabled={disabled}
              onClick={() => onPage(item)}
              className={cn(
                buttonRecipe({ variant: item === info.page ? 'secondary' : 'ghost', size: 'sm' }),
                'min-w-8 px-2 tabular-nums',
              )}
            >
              {item}
            </button>
          ) : (
            <span key={item} aria-hidden="true" className="px-1">
              …
            </span>
          ),
        )}
        <button
          type="button"
          className={nav}
          aria-label={messages.nextPage}
          disabled={disabled || !info.hasNext}
          onClick={() => onPage(info.page + 1)}
        >
          <ChevronEndIcon />
        </button>
        <button
          type="button"
          className={nav}
          aria-label={messages.lastPage}
          disabled={disabled || !info.hasNext}
          onClick={() => onPage(info.pageCount)}
        >
          <ChevronEndIcon />
          <ChevronEndIcon className="-ms-3" />
        </button>
      </nav>
    </div>
  );
}
