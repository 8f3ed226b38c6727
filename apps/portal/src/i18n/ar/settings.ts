import type { Catalog } from '../en';
import type { settings as en } from '../en/settings';

export const settings = {
  page: { title: 'الإعدادات', profile: 'الملف الشخصي', preferences: 'التفضيلات', security: 'الأمان' },
  item: {
    language: 'اللغة',
    theme: 'المظهر',
    changePassword: 'تغيير كلمة المرور',
    company: 'شركة النقل',
    logout: 'تسجيل الخروج',
  },
  changePassword: {
    title: 'تغيير كلمة المرور',
    current: 'كلمة المرور الحالية',
    password: 'كلمة المرور الجديدة',
    confirm: 'تأكيد كلمة المرور الجديدة',
    submit: 'تغيير كلمة المرور',
    success: 'تم تغيير كلمة المرور',
  },
  otp: {
    title: 'أدخل الرمز',
    description: 'أرسلنا رمز تحقق إلى {{target}}.',
    verify: 'تحقق',
    resend: 'إعادة إرسال الرمز',
    resendIn: 'إعادة الإرسال خلال {{seconds}} ث',
    invalid: 'الرمز غير صحيح',
  },
} satisfies Catalog<typeof en>;
