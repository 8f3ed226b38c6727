/**
 * A body row and its cells. Rows are memoised and read their handlers through a ref, so a table
 * re-render (or a virtualised scroll) renders only rows whose data or position changed. Virtualised
 * rows build light, short-lived cell objects instead of TanStack's cached ones (see lightCell).
 */
import {
  flexRender,
  type Cell,
  type CellContext,
  type Column,
  type ColumnDef,
  type Row,
  type Table,
} from '@tanstack/react-table';
import { memo, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { focusRing } from '../button/button';
import { cn } from '../lib/cn';
import { cellRecipe } from './data-table-primitives';

export interface RowHandlers {
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
  /**
   * The column definitions: a page whose cells read live data through closures (the vehicle list's
   * live status and last seen) passes new definitions when that data changes, and its rows must
   * render them (they were frozen until the list refetched); a list with memoised columns keeps its
   * rows cached.
   */
  columns: unknown;
  handlers: React.RefObject<RowHandlers>;
  /** Stable state setter of the roving tab stop. */
  onFocusRow: (index: number) => void;
  table: Table<unknown>;
}

/**
 * One body row. Memoised on its row object and position: while scrolling a virtualised list only
 * the rows entering the viewport render; the others are skipped by React.
 */
export const MemoRow = memo(function MemoRow({
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
      onClick={interactive ? (e) => activateOnClick(e, handlers.current.onRowClick, row.original) : undefined}
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

/** Elements of a cell that act on their own: a click on them is theirs, not the row's. */
const OWN_ACTION =
  'a[href], button, input, select, textarea, label, summary, [role="button"], [role="menuitem"], [role="checkbox"], [role="link"]';

/**
 * Row activation by a click. Not when the click belongs to a control inside the row (a link to a
 * referenced record, the actions menu): the row's own navigation ran after the link's and pushed a
 * second history entry, so the link's target flashed and Back skipped it. Not when the user was
 * selecting text in the row (a drag that ends in a click), nor with a modifier key (the browser's
 * own "open in a new tab" of a link is left alone).
 */
function activateOnClick(
  e: MouseEvent<HTMLTableRowElement>,
  onRowClick: ((row: unknown) => void) | undefined,
  original: unknown,
) {
  if (!onRowClick || e.defaultPrevented || e.button !== 0) return;
  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const target = e.target as Element | null;
  const control = target?.closest?.(OWN_ACTION);
  if (control && e.currentTarget.contains(control) && control !== e.currentTarget) return;
  const selection = e.currentTarget.ownerDocument.getSelection?.();
  if (selection && !selection.isCollapsed && e.currentTarget.contains(selection.anchorNode)) return;
  onRowClick(original);
}

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

/**
 * A column's cell function rendered inside a component of stable identity. TanStack's flexRender
 * renders a function as a component (`<def.cell />`), and pages build their column definitions on
 * every render (the vehicle list does, on each live update and clock tick), so every re-render of the
 * table gave each cell a component type React had never seen: it unmounted and remounted the cell's
 * contents, links included, several times a second. A click whose press and release straddled one of
 * those remounts lost its target. Called from here, a new closure of the same cell function updates
 * the DOM in place (its hooks, if any, belong to this component, in the same order each render).
 * Component objects (memo, forwardRef, classes) still go through flexRender.
 */
function CellRender({
  render,
  context,
}: {
  render: (context: CellContext<unknown, unknown>) => ReactNode;
  context: CellContext<unknown, unknown>;
}) {
  return <>{render(context)}</>;
}

export function renderCell(cell: Cell<unknown, unknown>): ReactNode {
  const def = cell.column.columnDef;
  const render = def.cell;
  if (
    typeof render === 'function' &&
    !(render.prototype as { isReactComponent?: unknown } | undefined)?.isReactComponent
  )
    return (
      <CellRender
        render={render as (c: CellContext<unknown, unknown>) => ReactNode}
        context={cell.getContext()}
      />
    );
  return flexRender(render, cell.getContext());
}

function BodyCell<T>({ cell, virtual }: { cell: Cell<T, unknown>; virtual: boolean }) {
  const def = cell.column.columnDef;
  const content = renderCell(cell as Cell<unknown, unknown>);
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
