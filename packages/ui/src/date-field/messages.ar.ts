import type { en } from './messages.en';

export const ar = {
  chooseDate: 'اختر تاريخًا',
  calendar: 'التقويم',
  previousMonth: 'الشهر السابق',
  nextMonth: 'الشهر التالي',
  selectedDate: 'المحدد: {date}',
} as const satisfies Record<keyof typeof en, string>;
