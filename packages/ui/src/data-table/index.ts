export {
  DataTable,
  dataTableVariants,
  dataTableDensities,
  dataTablePageSizes,
  dataTableLayouts,
} from './data-table';
export type { DataTableProps, DataTableRowAction, DataTableDensity, DataTableLayout } from './data-table';
export {
  pageInfoFromMeta,
  pageInfoFromIndex,
  pageWindow,
  compareCells,
  matchesSearch,
  foldSearchText,
  type ListMeta,
  type ListEnvelope,
  type PageInfo,
  type PageWindowItem,
} from './data-table-logic';
export { dataTableMessagesEn, type DataTableMessages } from './messages.en';
export { dataTableMessagesAr } from './messages.ar';
export type { ColumnDef, SortingState, VisibilityState } from '@tanstack/react-table';
