import type { ChartMessageKey } from './messages.en';

/** Arabic chrome strings of the charts. */
export const chartMessagesAr = {
  summary: 'ملخص {title}',
  series: 'السلسلة',
  minimum: 'الحد الأدنى',
  maximum: 'الحد الأقصى',
  average: 'المتوسط',
  latest: 'الأحدث',
  readings: '{count} قراءة من {start} إلى {end}.',
  noData: 'لم يتم العثور على بيانات، يرجى اختيار تاريخ ووقت مختلفين',
  noValue: 'لا توجد قيمة',
} as const satisfies Record<ChartMessageKey, string>;
