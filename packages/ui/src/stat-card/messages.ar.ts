import type { en } from './messages.en';

export const ar = {
  comparedToPrevious: 'مقارنة بالفترة السابقة',
  noChange: 'بدون تغيير',
} as const satisfies Record<keyof typeof en, string>;
