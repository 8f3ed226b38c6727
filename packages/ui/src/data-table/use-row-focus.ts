/**
 * Roving focus among a table's rows: one row is the tab stop; Up/Down/Home/End/PageUp/PageDown move
 * it, Enter/Space activate the row. Works with virtualised rows, whose target may not be in the DOM
 * yet when the key is pressed (see `pendingFocus`).
 */
import type { Row } from '@tanstack/react-table';
import { useCallback, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { VirtualRowsApi } from './data-table-virtual-rows';

export interface RowFocusOptions<T> {
  rowCount: number;
  virtual: boolean;
  /** Estimated row height (px): PageUp/PageDown move by the rows that fit the viewport. */
  rowHeight: number;
  viewport: RefObject<HTMLElement | null>;
  virtualApi: RefObject<VirtualRowsApi | null>;
  onRowClick?: (row: T) => void;
}

export function useRowFocus<T>({
  rowCount,
  virtual,
  rowHeight,
  viewport,
  virtualApi,
  onRowClick,
}: RowFocusOptions<T>) {
  // Roving tab stop among rows (index into the current row model).
  const [activeRow, setActiveRow] = useState(0);
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
      const clamped = Math.max(0, Math.min(rowCount - 1, index));
      setActiveRow(clamped);
      pendingFocus.current = { index: clamped, until: performance.now() + 1000 };
      if (virtual) virtualApi.current?.scrollToIndex(clamped);
      requestAnimationFrame(flushPendingFocus);
    },
    [rowCount, virtual, virtualApi, flushPendingFocus],
  );
  const onRowKeyDown = (e: KeyboardEvent<HTMLTableRowElement>, index: number, row: Row<T>) => {
    if (e.target !== e.currentTarget) return;
    const page = Math.max(1, Math.floor((viewport.current?.clientHeight ?? 400) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      Home: 0,
      End: rowCount - 1,
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
  return { activeRow, setActiveRow, bodyRef, flushPendingFocus, onRowKeyDown };
}
