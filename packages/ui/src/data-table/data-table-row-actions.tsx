/** A row's "more" button and its menu of actions (edit, delete...), as in shadcn's row actions. */
import * as Popover from '@radix-ui/react-popover';
import { useState } from 'react';
import { buttonRecipe, focusRing } from '../button/button';
import { MoreIcon } from '../icons';
import { cn } from '../lib/cn';
import type { DataTableRowAction } from './data-table-primitives';

export function RowActionsMenu({ actions, label }: { actions: DataTableRowAction[]; label: string }) {
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
