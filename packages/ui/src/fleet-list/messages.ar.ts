import type { en } from './messages.en';

export const ar = {
  label: 'المركبات',
  search: 'ابحث باللوحة أو السائق',
  count: '{count} مركبة',
  noResults: 'لا توجد مركبة مطابقة',
  speed: '{speed} كم/س',
  noDriver: 'بدون سائق',
} as const satisfies Record<keyof typeof en, string>;
