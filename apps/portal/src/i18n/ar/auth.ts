import type { Catalog } from '../en';
import type { auth as en } from '../en/auth';

export const auth = {
  login: {
    title: 'تسجيل الدخول',
    subtitle: 'سجّل الدخول لمتابعة أسطولك',
    identifier: 'البريد الإلكتروني أو الهاتف',
    password: 'كلمة المرور',
    submit: 'تسجيل الدخول',
    submitting: 'جارٍ تسجيل الدخول…',
    forgot: 'نسيت كلمة المرور؟',
  },
  setPassword: {
    title: 'تعيين كلمة المرور',
    subtitle: 'اختر كلمة مرور لحسابك',
    password: 'كلمة المرور',
    confirm: 'تأكيد كلمة المرور',
    submit: 'تعيين كلمة المرور',
    success: 'تم تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
  },
  resetPassword: {
    title: 'إعادة تعيين كلمة المرور',
    subtitle: 'أدخل بريدك الإلكتروني وسنرسل إليك رمزًا',
    email: 'البريد الإلكتروني',
    send: 'إرسال الرمز',
    sent: 'إذا كان الحساب موجودًا، فقد أُرسل رمز إلى {{email}}.',
    code: 'الرمز',
    password: 'كلمة المرور الجديدة',
    confirm: 'تأكيد كلمة المرور',
    submit: 'إعادة تعيين كلمة المرور',
    success: 'تمت إعادة تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
    backToLogin: 'العودة إلى تسجيل الدخول',
  },
  serverUnreachable: {
    retryNow: 'إعادة المحاولة الآن',
  },
  selectTransport: {
    title: 'اختر شركة النقل',
    subtitle: 'اختر الشركة التي تريد العمل معها',
    empty: 'حسابك غير مرتبط بأي شركة نقل.',
    choose: 'متابعة',
  },
  menu: { title: 'القائمة' },
  logout: { done: 'تم تسجيل خروجك', sessionExpired: 'انتهت جلستك. يرجى تسجيل الدخول مرة أخرى.' },
} satisfies Catalog<typeof en>;
