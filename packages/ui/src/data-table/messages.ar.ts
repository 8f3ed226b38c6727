import type { DataTableMessageKey } from './messages.en';

/** Arabic chrome strings of the DataTable. */
export const dataTableMessagesAr = {
  search: 'بحث',
  searchPlaceholder: 'ابحث…',
  clearSearch: 'مسح البحث',
  moreFilters: 'المزيد من عوامل التصفية',
  activeFilters: '{count} مفعّلة',
  columns: 'الأعمدة',
  columnsMenu: 'إظهار الأعمدة أو إخفاؤها',
  sortBy: 'الترتيب حسب {column}',
  rowsPerPage: 'عدد الصفوف في الصفحة',
  pageRange: '{from}–{to} من {total}',
  pageOf: 'الصفحة {page} من {pages}',
  page: 'الصفحة {page}',
  pagination: 'ترقيم الصفحات',
  firstPage: 'الصفحة الأولى',
  previousPage: 'الصفحة السابقة',
  nextPage: 'الصفحة التالية',
  lastPage: 'الصفحة الأخيرة',
  loading: 'جارٍ التحميل…',
  empty: 'لم يتم العثور على بيانات',
  emptySearch: 'لا توجد نتائج لـ «{query}»',
  actions: 'الإجراءات',
  rowActions: 'إجراءات {row}',
  rowCount: '{count} صف',
  showDetails: 'تفاصيل {row}',
} as const satisfies Record<DataTableMessageKey, string>;
