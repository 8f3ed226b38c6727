/**
 * The DataTable's phone layout: one card per row instead of a table row (a table of six columns
 * cannot fit 360-430 px without panning sideways). A card shows the row's first column (its name:
 * plate, school, driver) and, folded, the second one; its disclosure button unfolds the card in
 * place into a read-only list of every visible column, label then value. This replaces the details
 * page on small screens, where the spec sends details routes back to the list. Row actions keep
 * their menu at the card's end. Sorting has no header to live in here; the order stays the one
 * chosen before (or the server's).
 */
import type { Cell, Row, Table } from '@tanstack/react-table';
import { renderCell } from './data-table-row';
import { useId, useState, type ReactNode } from 'react';
import { buttonRecipe } from '../button/button';
import { format } from '../i18n/locale';
import { ChevronDownIcon } from '../icons';
import { cn } from '../lib/cn';
import { ACTIONS_ID, columnLabel } from './data-table-primitives';
import type { DataTableMessages } from './messages.en';

export interface DataTableCardsProps<T> {
  table: Table<T>;
  rows: Row<T>[];
  caption: string;
  messages: DataTableMessages;
  loading: boolean;
  skeletonRows: number;
  /** What an empty list shows (already resolved by the table: custom, search or default). */
  emptyContent: ReactNode;
  rowLabel?: (row: T) => string;
}

export function DataTableCards<T>({
  table,
  rows,
  caption,
  messages,
  loading,
  skeletonRows,
  emptyContent,
  rowLabel,
}: DataTableCardsProps<T>) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  if (loading) {
    return (
      <ul data-slot="data-table-cards" aria-label={caption} aria-busy="true" className="flex flex-col gap-2">
        {Array.from({ length: skeletonRows }, (_, i) => (
          <li
            key={i}
            data-slot="data-table-skeleton"
            className="flex flex-col gap-2 rounded-lg border border-border bg-surface p-3"
          >
            <div
              aria-hidden="true"
              className="h-4 w-1/2 animate-pulse rounded bg-surface-sunken motion-reduce:animate-none"
            />
            <div
              aria-hidden="true"
              className="h-3 w-1/3 animate-pulse rounded bg-surface-sunken motion-reduce:animate-none"
            />
          </li>
        ))}
      </ul>
    );
  }
  if (rows.length === 0) {
    return (
      <p
        data-slot="data-table-empty"
        className="rounded-lg border border-border bg-surface px-3 py-10 text-center text-foreground-muted"
      >
        {emptyContent}
      </p>
    );
  }
  return (
    <ul data-slot="data-table-cards" aria-label={caption} className="flex flex-col gap-2">
      {rows.map((row) => (
        <RowCard
          key={row.id}
          table={table}
          row={row}
          messages={messages}
          open={open.has(row.id)}
          onToggle={() => toggle(row.id)}
          label={rowLabel?.(row.original)}
        />
      ))}
    </ul>
  );
}

function CellValue<T>({ cell }: { cell: Cell<T, unknown> }) {
  const def = cell.column.columnDef;
  const content = renderCell(cell as Cell<unknown, unknown>);
  return def.meta?.ltr ? <bdi dir="ltr">{content}</bdi> : <>{content}</>;
}

function RowCard<T>({
  row,
  messages,
  open,
  onToggle,
  label,
}: {
  table: Table<T>;
  row: Row<T>;
  messages: DataTableMessages;
  open: boolean;
  onToggle: () => void;
  label: string | undefined;
}) {
  const id = useId();
  const cells = row.getVisibleCells();
  const actions = cells.find((c) => c.column.id === ACTIONS_ID);
  const fields = cells.filter((c) => c.column.id !== ACTIONS_ID);
  const [primary, secondary] = fields;
  const primaryValue = primary ? row.getValue<unknown>(primary.column.id) : undefined;
  const name =
    label ??
    (typeof primaryValue === 'string' || typeof primaryValue === 'number' ? String(primaryValue) : undefined);
  const panelId = `${id}-panel`;
  const primaryId = `${id}-primary`;
  const prefixId = `${id}-prefix`;
  return (
    <li
      data-slot="data-table-card"
      data-row-id={row.id}
      data-state={open ? 'open' : 'closed'}
      className="rounded-lg border border-border bg-surface"
    >
      <div className="flex items-center gap-2 p-3">
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          {primary ? (
            <div id={primaryId} data-slot="data-table-card-title" className="min-w-0 font-medium break-words">
              <CellValue cell={primary} />
            </div>
          ) : null}
          {secondary && !open ? (
            <div className="min-w-0 text-xs break-words text-foreground-muted">
              <CellValue cell={secondary} />
            </div>
          ) : null}
        </div>
        {actions ? <CellValue cell={actions} /> : null}
        <button
          type="button"
          data-slot="data-table-card-toggle"
          aria-expanded={open}
          aria-controls={panelId}
          // Named after the row: "Details of A 12345". Without a plain-text name the row's title
          // element completes the label (both languages put the name last).
          {...(name
            ? { 'aria-label': format(messages.showDetails, { row: name }) }
            : { 'aria-labelledby': `${prefixId} ${primaryId}` })}
          onClick={onToggle}
          className={cn(buttonRecipe({ variant: 'ghost', size: 'sm' }), 'size-8 shrink-0 px-0')}
        >
          {name ? null : (
            <span id={prefixId} hidden>
              {format(messages.showDetails, { row: '' }).trim()}
            </span>
          )}
          <ChevronDownIcon
            className={cn('transition-transform motion-reduce:transition-none', open && 'rotate-180')}
          />
        </button>
      </div>
      <dl
        id={panelId}
        data-slot="data-table-card-details"
        hidden={!open}
        className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-2 border-t border-border px-3 py-3"
      >
        {fields.slice(1).map((cell) => (
          <div key={cell.id} className="contents">
            <dt className="text-xs text-foreground-muted">{columnLabel(cell.column)}</dt>
            <dd
              data-column={cell.column.id}
              className={cn('min-w-0 break-words', cell.column.columnDef.meta?.numeric && 'tabular-nums')}
            >
              <CellValue cell={cell} />
            </dd>
          </div>
        ))}
      </dl>
    </li>
  );
}
