/**
 * The header row: one `<th scope="col">` per visible column with `aria-sort`, sortable columns as a
 * button that names the column ("Sort by Plate") and shows the direction (shadcn's column header).
 */
import { flexRender, type Table } from '@tanstack/react-table';
import { focusRing } from '../button/button';
import { format } from '../i18n/locale';
import { ChevronDownIcon, ChevronUpIcon } from '../icons';
import { cn } from '../lib/cn';
import { cellRecipe, columnLabel } from './data-table-primitives';
import type { DataTableMessages } from './messages.en';

export function DataTableHeader<T>({
  table,
  messages,
  loading,
  sticky,
}: {
  table: Table<T>;
  messages: DataTableMessages;
  loading: boolean;
  /** Virtualised: the header stays on top of the scrolling viewport. */
  sticky: boolean;
}) {
  return (
    <thead
      data-slot="data-table-header"
      className={cn('bg-surface-sunken text-foreground-muted', sticky && 'sticky top-0 z-10')}
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
                    aria-label={format(messages.sortBy, { column: columnLabel(header.column) })}
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
  );
}

function SortIndicator({ direction }: { direction: false | 'asc' | 'desc' }) {
  if (direction === 'asc') return <ChevronUpIcon size={14} data-sort="asc" />;
  if (direction === 'desc') return <ChevronDownIcon size={14} data-sort="desc" />;
  return <ChevronDownIcon size={14} className="opacity-30" data-sort="none" />;
}
