/**
 * The virtualised part of a table body (TanStack Virtual): spacer rows above and below the rows in
 * view. It owns the virtualizer, so scrolling re-renders this component and not the whole table.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useImperativeHandle, useLayoutEffect, type ReactNode } from 'react';

export interface VirtualRowsApi {
  scrollToIndex(index: number): void;
}

/**
 * The virtualised part of the body. It owns the virtualizer, so a scroll re-renders this component
 * (spacers plus the rows entering the viewport) and not the whole DataTable.
 */
export function VirtualRows({
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
