import type { Catalog } from '../en';
import type { dashboard as en } from '../en/dashboard';

export const dashboard = {
  home: {
    title: 'الرئيسية',
    greeting: 'مرحبًا بعودتك، {{name}}',
    period: { label: 'الفترة' },
    kpi: {
      vehicles: 'المركبات',
      live: 'مباشر الآن',
      idle: 'متوقفة',
      offline: 'غير متصلة',
      distance: 'المسافة (كم)',
      trips: 'الرحلات',
      alerts: 'التنبيهات',
      unread: 'إشعارات غير مقروءة',
    },
    chart: {
      distance: 'المسافة يوميًا',
      trips: 'الرحلات يوميًا',
      distanceMonthly: 'المسافة شهريًا',
      tripsMonthly: 'الرحلات شهريًا',
    },
  },
} satisfies Catalog<typeof en>;
