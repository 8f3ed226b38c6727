import type { Catalog } from '../en';
import type { notifications as en } from '../en/notifications';

export const notifications = {
  list: {
    title: 'الإشعارات',
    empty: 'لا توجد إشعارات بعد',
    markRead: 'تعليم كمقروء',
    markAllRead: 'تعليم الكل كمقروء',
    unread: 'غير مقروء',
    read: 'مقروء',
    all: 'الكل',
    filter: 'حالة القراءة',
  },
  details: { title: 'الإشعار', vehicle: 'المركبة', violation: 'قيمة المخالفة', time: 'الوقت' },
  toast: { received: 'إشعار جديد' },
} satisfies Catalog<typeof en>;
