import type { en } from './messages.en';

export const ar = {
  rangeMissing: 'اختر التاريخين',
  rangeInvalidDate: 'أدخل تاريخًا صحيحًا',
  rangeOrder: 'يجب أن يكون تاريخ البداية في تاريخ النهاية أو قبله',
  rangeChoose: 'اختر نطاقًا زمنيًا',
} as const satisfies Record<keyof typeof en, string>;
