/**
 * DataTable composes the parts beside it, one file each as in shadcn's tasks table:
 * - data-table-primitives.tsx: recipes, column options, messages hook (the styled vocabulary)
 * - data-table-toolbar.tsx: search, "More filters" panel, column menu slot, caller's toolbar
 * - data-table-column-header.tsx / data-table-column-menu.tsx: sortable headers, the "Columns" menu
 * - data-table-row.tsx / data-table-row-actions.tsx: memoised body rows and cells, the row menu
 * - data-table-virtual-rows.tsx: row virtualisation for long lists
 * - data-table-pagination.tsx: the pager
 * - use-row-focus.ts: the rows' roving focus
 * - data-table-sorting.ts, data-table-logic.ts: pure sorting, paging and search rules
 * This file owns the state (sorting, search, paging, visibility) and the TanStack table.
 */
import {
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type Row,
  type SortingFn,
  type SortingState,
  type Table,
  type VisibilityState,
} from '@tanstack/react-table';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { focusRing } from '../button/button';
import { format } from '../i18n/locale';
import { cn } from '../lib/cn';
import { useUi } from '../provider';
import {
  compareCells,
  matchesSearch,
  pageInfoFromIndex,
  pageInfoFromMeta,
  type ListMeta,
} from './data-table-logic';
import { DataTableHeader } from './data-table-column-header';
import { Pager } from './data-table-pagination';
import {
  ACTIONS_ID,
  dataTablePageSizes,
  dataTableVariants,
  useTableMessages,
  type DataTableDensity,
  type DataTableRowAction,
} from './data-table-primitives';
import { MemoRow, type RowHandlers } from './data-table-row';
import { RowActionsMenu } from './data-table-row-actions';
import { fastSortedRowModel } from './data-table-sorting';
import { DataTableToolbar } from './data-table-toolbar';
import { VirtualRows, type VirtualRowsApi } from './data-table-virtual-rows';
import type { DataTableMessages } from './messages.en';
import { useRowFocus } from './use-row-focus';
import { DataTableCards } from './data-table-cards';
import { usePhone } from '../lib/use-media-query';

export const dataTableLayouts = ['auto', 'table', 'cards'] as const;
export type DataTableLayout = (typeof dataTableLayouts)[number];

export {
  dataTableDensities,
  dataTablePageSizes,
  dataTableVariants,
  type DataTableDensity,
  type DataTableRowAction,
} from './data-table-primitives';

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

  /**
   * A request is under way. Skeleton rows stand in only while there is nothing to show yet; a refetch
   * over rows already on screen (a background refresh, the next page or sort with the previous answer
   * kept) leaves those rows in place, marked busy. Swapping them for skeletons unmounted the row under
   * a user's pointer mid-click, so the click did nothing (seen as "clicking a vehicle row sometimes
   * does not open it").
   */
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

  /**
   * 'auto' (default): a card per row on a phone-width viewport (767 px and under, lib/use-media-query), a
   * table otherwise; 'table' / 'cards' force one. Virtualised lists always stay a table.
   */
  layout?: DataTableLayout;

  density?: DataTableDensity;
  labels?: Partial<DataTableMessages>;
  className?: string;
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
  layout = 'auto',
  density = 'comfortable',
  labels,
  className,
}: DataTableProps<T>) {
  const { localeTag } = useUi();
  const messages = useTableMessages(labels);
  const server = !!pagination;
  const virtual = virtualize && !server;
  const phone = usePhone();
  const cards = !virtual && (layout === 'cards' || (layout === 'auto' && phone));

  const [sortingState, setSortingState] = useState<SortingState>([]);
  const sorting = controlledSorting ?? sortingState;
  const [visibilityState, setVisibilityState] = useState<VisibilityState>({});
  const columnVisibility = controlledVisibility ?? visibilityState;
  const [searchState, setSearchState] = useState(controlledSearch ?? '');
  const [paginationState, setPaginationState] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: initialPageSize,
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  // Also kept as state: the virtualised rows mount before the parent's ref is attached, so they
  // need a re-render once the viewport element exists.
  const [scrollElement, setScrollElement] = useState<HTMLDivElement | null>(null);
  const attachViewport = useCallback((el: HTMLDivElement | null) => {
    scrollRef.current = el;
    setScrollElement(el);
  }, []);

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

  const { activeRow, setActiveRow, bodyRef, flushPendingFocus, onRowKeyDown } = useRowFocus<T>({
    rowCount: rows.length,
    virtual,
    rowHeight: estimate,
    viewport: scrollRef,
    virtualApi,
    onRowClick,
  });

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
      columns={columns}
      handlers={rowHandlers}
      table={table as Table<unknown>}
      onFocusRow={setActiveRow}
    />
  );

  const searchValue = searchState;
  const isEmpty = !loading && rows.length === 0;
  const skeleton = loading && rows.length === 0;
  const emptyContent =
    empty ?? (searchValue ? format(messages.emptySearch, { query: searchValue }) : messages.empty);

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
      <DataTableHeader table={table} messages={messages} loading={loading} sticky={virtual} />
      <tbody ref={bodyRef} data-slot="data-table-body" className="bg-surface">
        {skeleton ? (
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
              {emptyContent}
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
      data-layout={cards ? 'cards' : 'table'}
      data-loading={loading || undefined}
      className={cn(dataTableVariants({ density }), className)}
    >
      <DataTableToolbar
        table={table}
        messages={messages}
        searchable={searchable}
        search={searchValue}
        onSearch={changeSearch}
        filters={filters}
        activeFilterCount={activeFilterCount}
        columnMenu={columnMenu}
        toolbar={toolbar}
      />
      {cards ? (
        <DataTableCards
          table={table}
          rows={rows}
          caption={caption}
          messages={messages}
          loading={skeleton}
          skeletonRows={skeletonRows}
          emptyContent={emptyContent}
          {...(rowLabel ? { rowLabel } : {})}
        />
      ) : (
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
      )}
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
