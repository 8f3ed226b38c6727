/** Chrome strings of the DataTable (English); override any of them with the `labels` prop. */
export const dataTableMessagesEn = {
  search: 'Search',
  searchPlaceholder: 'Search…',
  clearSearch: 'Clear search',
  moreFilters: 'More filters',
  activeFilters: '{count} active',
  columns: 'Columns',
  columnsMenu: 'Show or hide columns',
  sortBy: 'Sort by {column}',
  rowsPerPage: 'Rows per page',
  pageRange: '{from}–{to} of {total}',
  pageOf: 'Page {page} of {pages}',
  page: 'Page {page}',
  pagination: 'Pagination',
  firstPage: 'First page',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  lastPage: 'Last page',
  loading: 'Loading…',
  empty: 'No data found',
  emptySearch: 'No results for “{query}”',
  actions: 'Actions',
  rowActions: 'Actions for {row}',
  rowCount: '{count} rows',
  showDetails: 'Details of {row}',
} as const;

export type DataTableMessageKey = keyof typeof dataTableMessagesEn;
export type DataTableMessages = Record<DataTableMessageKey, string>;
