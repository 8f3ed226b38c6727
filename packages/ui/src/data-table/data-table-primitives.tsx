/**
 * The DataTable's styled parts and shared vocabulary: the column options it reads (TanStack module
 * augmentation), the density tuple and root recipe, the cell recipe, the row-action type, the
 * messages hook and the column label rule. Every other data-table file imports from here; nothing
 * here knows about paging, sorting or focus (shadcn's `table.tsx` plays the same role).
 */
import type { Column, RowData } from '@tanstack/react-table';
import { cva } from 'class-variance-authority';
import { useMemo, type ReactNode } from 'react';
import { useUi } from '../provider';
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

export const cellRecipe = cva('px-3 align-middle', {
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

/** Id of the column the DataTable appends for row actions. */
export const ACTIONS_ID = '__actions';

export function useTableMessages(labels?: Partial<DataTableMessages>): DataTableMessages {
  const { locale } = useUi();
  return useMemo(
    () => ({ ...(locale === 'ar' ? dataTableMessagesAr : dataTableMessagesEn), ...labels }),
    [locale, labels],
  );
}

export function columnLabel<T>(column: Column<T, unknown>): string {
  const meta = column.columnDef.meta;
  if (meta?.label) return meta.label;
  const header = column.columnDef.header;
  return typeof header === 'string' ? header : column.id;
}
