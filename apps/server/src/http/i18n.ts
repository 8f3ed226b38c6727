/**
 * Server messages in English and Arabic, chosen by the X-Locale header (en | ar; 'en-US' and
 * 'ar-AE' style values work too). Field labels inside validation messages come from the shared
 * zod contract in English; the Arabic sentence wraps the same label.
 */
export type Locale = 'en' | 'ar';

const en = {
  'auth.failed': 'These credentials do not match our records.',
  'auth.throttled': 'Too many attempts. Please try again in {seconds} seconds.',
  'auth.unauthenticated': 'Unauthenticated.',
  'auth.inactive': 'This account is not active.',
  forbidden: 'This action is unauthorized.',
  not_found: 'Not found.',
  'entity.not_found': '{entity} not found.',
  'validation.general':
    'Please check your entries and try again. Ensure all required fields are filled out correctly.',
  'validation.required': '{field} is required',
  'validation.invalid': 'Please enter a valid {field}',
  'password.mismatch': 'Password and confirm password must be the same',
  'password.current_wrong': 'The current password is incorrect.',
  'password.changed': 'Your password has been changed.',
  'password.set': 'Your password has been set. You can sign in now.',
  'password.reset_sent': 'If an account exists for this address, a reset link has been sent.',
  'password.verified': 'Password verified.',
  'token.invalid': 'This link is invalid or has expired.',
  'otp.sent': 'A verification code has been sent.',
  'otp.invalid': 'The code is invalid or has expired.',
  'verification.required': 'Please verify your password to continue.',
  already_assigned: 'This {entity} is already assigned',
  already_taken: 'This {field} is already taken',
  in_use: 'This {entity} cannot be deleted because {dependents} still depend on it.',
  deleted: '{entity} deleted.',
  updated: '{entity} updated.',
  logged_out: 'Logged out.',
  'transport.required': 'Select a transport company first (X-Transport-Uuid).',
  'transport.forbidden': 'You do not have access to this transport company.',
  too_large: 'The request is too large.',
  bad_request: 'The request could not be understood.',
  'file.type': 'This file type is not allowed.',
  'file.too_large': 'The file is too large (at most {mb} MB).',
  'notifications.read_all': 'All notifications marked as read.',
  server_error: 'Server error.',
  rate_limited: 'Too many requests.',
} as const;

export type MessageKey = keyof typeof en;

const ar: Record<MessageKey, string> = {
  'auth.failed': 'بيانات الاعتماد هذه لا تتطابق مع سجلاتنا.',
  'auth.throttled': 'محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد {seconds} ثانية.',
  'auth.unauthenticated': 'غير مصادق.',
  'auth.inactive': 'هذا الحساب غير نشط.',
  forbidden: 'هذا الإجراء غير مصرح به.',
  not_found: 'غير موجود.',
  'entity.not_found': '{entity} غير موجود.',
  'validation.general':
    'يرجى التحقق من إدخالاتك والمحاولة مرة أخرى. تأكد من تعبئة جميع الحقول المطلوبة بشكل صحيح.',
  'validation.required': '{field} مطلوب',
  'validation.invalid': 'يرجى إدخال {field} صالح',
  'password.mismatch': 'يجب أن تتطابق كلمة المرور مع تأكيد كلمة المرور',
  'password.current_wrong': 'كلمة المرور الحالية غير صحيحة.',
  'password.changed': 'تم تغيير كلمة المرور.',
  'password.set': 'تم تعيين كلمة المرور. يمكنك تسجيل الدخول الآن.',
  'password.reset_sent': 'إذا كان هناك حساب لهذا العنوان، فقد تم إرسال رابط إعادة التعيين.',
  'password.verified': 'تم التحقق من كلمة المرور.',
  'token.invalid': 'هذا الرابط غير صالح أو منتهي الصلاحية.',
  'otp.sent': 'تم إرسال رمز التحقق.',
  'otp.invalid': 'الرمز غير صالح أو منتهي الصلاحية.',
  'verification.required': 'يرجى التحقق من كلمة المرور للمتابعة.',
  already_assigned: 'هذا {entity} مُعيَّن بالفعل',
  already_taken: 'هذا {field} مستخدم بالفعل',
  in_use: 'لا يمكن حذف {entity} لأن {dependents} لا تزال مرتبطة به.',
  deleted: 'تم حذف {entity}.',
  updated: 'تم تحديث {entity}.',
  logged_out: 'تم تسجيل الخروج.',
  'transport.required': 'اختر شركة النقل أولاً (X-Transport-Uuid).',
  'transport.forbidden': 'ليس لديك صلاحية الوصول إلى شركة النقل هذه.',
  too_large: 'الطلب كبير جدًا.',
  bad_request: 'تعذر فهم الطلب.',
  'file.type': 'نوع الملف هذا غير مسموح به.',
  'file.too_large': 'الملف كبير جدًا (الحد الأقصى {mb} ميغابايت).',
  'notifications.read_all': 'تم تعليم جميع الإشعارات كمقروءة.',
  server_error: 'خطأ في الخادم.',
  rate_limited: 'طلبات كثيرة جدًا.',
};

const catalogues: Record<Locale, Record<MessageKey, string>> = { en, ar };

export function parseLocale(header: unknown): Locale {
  return typeof header === 'string' && header.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

export function t(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  return catalogues[locale][key].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`));
}

/**
 * Translate a field message of the shared zod contract ('X is required', 'Please enter a valid X',
 * the password mismatch text); anything else is returned unchanged.
 */
export function translateFieldMessage(locale: Locale, message: string): string {
  if (locale === 'en') return message;
  let m = /^(.+) is required$/.exec(message);
  if (m) return t(locale, 'validation.required', { field: m[1]! });
  m = /^Please enter a valid (.+)$/.exec(message);
  if (m) return t(locale, 'validation.invalid', { field: m[1]! });
  m = /^This (.+) is already assigned$/.exec(message);
  if (m) return t(locale, 'already_assigned', { entity: m[1]! });
  m = /^This (.+) is already taken$/.exec(message);
  if (m) return t(locale, 'already_taken', { field: m[1]! });
  if (message === en['password.mismatch']) return t(locale, 'password.mismatch');
  return message;
}
