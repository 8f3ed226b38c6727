import type { Catalog } from '../en';
import type { platform as en } from '../en/platform';

export const platform: Catalog<typeof en> = {
  title: 'شركات النقل',
  intro:
    'جميع شركات النقل في المنصة. أضف شركة جديدة مع أول مشرف لها: تصله دعوة بالبريد الإلكتروني لاختيار كلمة المرور.',
  forbidden: 'لا يعرض شركات النقل أو يضيفها إلا مشرف عام للمنصة.',
  list: { title: 'الشركات', users: 'المستخدمون: {{count}}' },
  status: { active: 'نشطة', inactive: 'غير نشطة' },
  features: {
    emergency_driver_alert_enabled: 'تنبيه طوارئ السائق',
    geofence_events_enabled: 'أحداث السياج الجغرافي',
    advanced_fuel_report_enabled: 'تقرير الوقود المتقدم',
    engine_device_enabled: 'جهاز المحرك',
    wheel_dashboard_enabled: 'لوحة العجلات',
  },
  form: {
    title: 'إضافة شركة',
    name: 'اسم الشركة',
    nameAr: 'الاسم بالعربية',
    country: 'الدولة (رمز ISO مثل AE)',
    features: 'الميزات',
    admin: 'أول مشرف للشركة',
    adminEmail: 'البريد الإلكتروني',
    adminName: 'الاسم',
    adminLocale: 'لغة الدعوة',
    invitation: 'يتلقى المشرف رابطًا لمرة واحدة (صالحًا 7 أيام) لاختيار كلمة المرور ثم تسجيل الدخول.',
    submit: 'إنشاء الشركة',
    created: 'تم إنشاء {{name}} وأُرسلت الدعوة إلى {{email}}.',
    createdShort: 'تم إنشاء الشركة',
  },
};
