import type { Catalog } from '../en';
import type { live as en } from '../en/live';

export const live = {
  page: { map: 'الخريطة المباشرة', list: 'القائمة المباشرة', routeHistory: 'سجل المسار' },
  view: { map: 'الخريطة', list: 'القائمة' },
  tab: {
    camera: 'الكاميرا',
  },
  vehicle: {
    speed: 'السرعة',
    speedValue: '{{speed}} كم/س',
    ignition: 'الإشعال',
    ignitionOn: 'يعمل',
    ignitionOff: 'متوقف',
    lastUpdate: 'آخر تحديث',
    idleFor: 'متوقف منذ {{minutes}} دقيقة',
    coordinates: 'الإحداثيات',
    address: 'العنوان',
    driver: 'السائق',
    open: 'فتح المركبة',
    history: 'سجل الرحلات',
    share: 'مشاركة الموقع',
    violation: 'مخالفة',
  },
  history: {
    title: 'سجل الرحلات',
    date: 'التاريخ',
    vehicle: 'المركبة',
    chooseVehicle: 'اختر مركبة',
    load: 'عرض',
    play: 'تشغيل',
    pause: 'إيقاف مؤقت',
    speed: 'سرعة التشغيل',
    position: 'الموضع',
    points: '{{count}} نقطة',
  },
  share: {
    title: 'مشاركة الموقع',
    copyLink: 'نسخ الرابط',
    copied: 'تم نسخ الرابط',
    email: 'المشاركة عبر البريد الإلكتروني',
    emailSubject: 'موقع {{plate}}',
    emailBody: 'الموقع الحالي لـ {{plate}}: {{link}}',
    openMaps: 'فتح في الخرائط',
  },
  camera: {
    title: 'لقطات الكاميرا',
    empty: 'لا تتوفر لقطات كاميرا لهذه المركبة.',
    choose: 'اختر مركبة لعرض كاميراتها',
  },
  emergency: {
    at: 'أُبلغ عنه في {{time}}',
    acknowledge: 'تم الاطلاع',
    showOnMap: 'عرض على الخريطة',
  },
  realtime: { connected: 'التحديثات المباشرة مفعّلة', disconnected: 'جارٍ إعادة الاتصال بالتحديثات المباشرة…' },
} satisfies Catalog<typeof en>;
