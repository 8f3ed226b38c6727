import type { Catalog } from '../en';
import type { vehicles as en } from '../en/vehicles';

/** نظرة عامة على المركبة (صفحة تفاصيل المركبة). */
export const vehicles: Catalog<typeof en> = {
  overview: {
    live: 'مباشر',
    noLocation: 'لم ترسل هذه المركبة أي موقع بعد.',
    lastSeen: 'آخر ظهور',
    fuel: 'الوقود',
    voltage: 'الجهد الكهربائي',
    sections: 'أقسام المركبة',
  },
  list: {
    liveStatus: 'الحالة المباشرة',
    never: 'أبدًا',
    lastSeenRange: {
      hour: 'خلال الساعة الماضية',
      day: 'خلال 24 ساعة',
      week: 'خلال 7 أيام',
      older: 'منذ أكثر من 7 أيام',
      never: 'أبدًا',
    },
  },
  tab: {
    trips: 'الرحلات',
    alerts: 'التنبيهات',
    documents: 'الوثائق',
    commands: 'الأوامر',
    history: 'سجل المسار',
  },
  trips: {
    range: 'آخر 7 أيام',
    empty: 'لا توجد رحلات في آخر 7 أيام.',
    started: 'البداية',
    ended: 'النهاية',
    ongoing: 'جارية',
    distance: 'المسافة',
    distanceValue: '{{km}} كم',
    duration: 'المدة',
    maxSpeed: 'أعلى سرعة',
  },
  alerts: {
    empty: 'لا توجد تنبيهات عن هذه المركبة.',
    all: 'كل الإشعارات',
    unread: 'غير مقروء',
  },
  documents: {
    document: 'الوثيقة',
    owner: 'صاحب الوثيقة',
    expires: 'تاريخ الانتهاء',
    state: 'الحالة',
    empty: 'لا توجد تواريخ انتهاء مسجلة لهذه المركبة أو سائقها.',
    noDate: 'غير مسجل',
    days: 'بعد {{days}} يوم',
    daysAgo: 'منذ {{days}} يوم',
    reminders:
      'تُرسل التذكيرات قبل 30 و7 أيام ويوم واحد من الانتهاء وفي يومه، إلى المستخدمين الذين تصلهم تنبيهات هذه المركبة.',
    kind: {
      vehicle_registration: 'الاستمارة',
      vehicle_insurance: 'التأمين',
      vehicle_license: 'رخصة التشغيل',
      driver_license: 'رخصة القيادة',
      driver_national_id: 'الهوية الوطنية',
      driver_residence_permit: 'الإقامة',
    },
    stateLabel: {
      valid: 'سارية',
      dueSoon: 'تنتهي خلال 30 يومًا',
      dueThisWeek: 'تنتهي هذا الأسبوع',
      expiresToday: 'تنتهي اليوم',
      expired: 'منتهية',
    },
  },
  commands: {
    noDevice: 'لا يوجد جهاز تتبع مرتبط بهذه المركبة، لذا لا يمكنها استقبال الأوامر.',
  },
  history: {
    open: 'فتح سجل المسار الكامل',
  },
};
