/** The toolbar's "Columns" menu: a checkbox per hideable column (shadcn's view options). */
import * as Popover from '@radix-ui/react-popover';
import type { Column, Table } from '@tanstack/react-table';
import { buttonRecipe } from '../button/button';
import { ChevronDownIcon } from '../icons';
import { columnLabel } from './data-table-primitives';
import type { DataTableMessages } from './messages.en';

export function ColumnMenu<T>({ table, messages }: { table: Table<T>; messages: DataTableMessages }) {
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
