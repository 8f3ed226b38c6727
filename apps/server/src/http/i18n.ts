/**
 * Server messages in English and Arabic, chosen by the X-Locale header (en | ar; 'en-US' and
 * 'ar-AE' style values work too). Entity words and field labels inside messages come in English
 * (the shared zod contract, the entity definitions); the Arabic sentence gets the Arabic word from
 * AR_NOUNS (definite and indefinite form and grammatical gender, which picks the feminine sentence
 * of AR_FEMININE). A word missing from the table stays as given.
 */
export type Locale = 'en' | 'ar';

const en = {
  'auth.failed': 'These credentials do not match our records.',
  'auth.throttled': 'Too many attempts. Please try again in {seconds} seconds.',
  'auth.unauthenticated': 'Unauthenticated.',
  'auth.inactive': 'This account is not active.',
  forbidden: 'This action is unauthorized.',
  'rank.rank': 'You cannot manage a user who ranks above you or holds permissions you do not hold.',
  'rank.scope': 'You cannot manage a user outside your station, branch or school.',
  'rank.grant': 'You cannot grant a role or permission you do not hold yourself.',
  'rank.multi':
    'This user belongs to several companies: only they or a platform super admin can change their password, e-mail, phone or status.',
  'rank.self': 'You cannot deactivate or delete your own account.',
  'rank.super': 'Only a platform super admin can manage a super admin.',
  'rank.platform': 'Only a platform super admin can list or onboard transport companies.',
  not_found: 'Not found.',
  'entity.not_found': '{entity} not found.',
  'validation.general':
    'Please check your entries and try again. Ensure all required fields are filled out correctly.',
  'validation.required': '{field} is required',
  'validation.invalid': 'Please enter a valid {field}',
  'validation.too_many': 'Too many {field} (at most {max})',
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
  'origin.forbidden': 'Origin not allowed.',
  too_large: 'The request is too large.',
  bad_request: 'The request could not be understood.',
  'unsubscribe.one_click':
    'This address takes one-click unsubscribe requests (List-Unsubscribe=One-Click) only.',
  'unsubscribe.done': 'You will no longer receive these messages.',
  'file.type': 'This file type is not allowed.',
  'file.too_large': 'The file is too large (at most {mb} MB).',
  'notifications.read_all': 'All notifications marked as read.',
  'invitation.sent': 'The invitation has been sent.',
  'share.emailed': 'The link has been sent to {count} address(es).',
  server_error: 'Server error.',
  rate_limited: 'Too many requests.',
  'range.too_long': 'The range may span at most {days} days',
  'password.common': 'This password is too common. Choose a less predictable one',
  'imei.unavailable':
    'This IMEI cannot be registered. If the device is yours, contact the platform operator.',
} as const;

export type MessageKey = keyof typeof en;

const ar: Record<MessageKey, string> = {
  'auth.failed': 'بيانات الاعتماد هذه لا تتطابق مع سجلاتنا.',
  'auth.throttled': 'محاولات كثيرة جدًا. يرجى المحاولة مرة أخرى بعد {seconds} ثانية.',
  'auth.unauthenticated': 'غير مصادق.',
  'auth.inactive': 'هذا الحساب غير نشط.',
  forbidden: 'هذا الإجراء غير مصرح به.',
  'rank.rank': 'لا يمكنك إدارة مستخدم أعلى منك رتبة أو يملك صلاحيات لا تملكها.',
  'rank.scope': 'لا يمكنك إدارة مستخدم خارج محطتك أو فرعك أو مدرستك.',
  'rank.grant': 'لا يمكنك منح دور أو صلاحية لا تملكها أنت.',
  'rank.multi':
    'ينتمي هذا المستخدم إلى عدة شركات: لا يغيّر كلمة مروره أو بريده الإلكتروني أو هاتفه أو حالته إلا هو أو مشرف المنصة العام.',
  'rank.self': 'لا يمكنك تعطيل حسابك أو حذفه.',
  'rank.super': 'لا يدير المشرف العام إلا مشرف عام للمنصة.',
  'rank.platform': 'لا يعرض شركات النقل أو يضيفها إلا مشرف عام للمنصة.',
  not_found: 'غير موجود.',
  'entity.not_found': '{entity} غير موجود.',
  'validation.general':
    'يرجى التحقق من إدخالاتك والمحاولة مرة أخرى. تأكد من تعبئة جميع الحقول المطلوبة بشكل صحيح.',
  'validation.required': '{field} مطلوب',
  'validation.invalid': 'يرجى إدخال {field} صالح',
  'validation.too_many': 'عدد {field} أكبر من المسموح (الحد الأقصى {max})',
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
  in_use: 'لا يمكن حذف هذا {entity} لارتباط {dependents} به.',
  deleted: 'تم حذف {entity}.',
  updated: 'تم تحديث {entity}.',
  logged_out: 'تم تسجيل الخروج.',
  'transport.required': 'اختر شركة النقل أولاً (X-Transport-Uuid).',
  'transport.forbidden': 'ليس لديك صلاحية الوصول إلى شركة النقل هذه.',
  'origin.forbidden': 'هذا المصدر غير مسموح به.',
  too_large: 'الطلب كبير جدًا.',
  bad_request: 'تعذر فهم الطلب.',
  'unsubscribe.one_click':
    'يقبل هذا العنوان طلبات إلغاء الاشتراك بنقرة واحدة فقط (List-Unsubscribe=One-Click).',
  'unsubscribe.done': 'لن تصلك هذه الرسائل بعد الآن.',
  'file.type': 'نوع الملف هذا غير مسموح به.',
  'file.too_large': 'الملف كبير جدًا (الحد الأقصى {mb} ميغابايت).',
  'notifications.read_all': 'تم تعليم جميع الإشعارات كمقروءة.',
  'invitation.sent': 'تم إرسال الدعوة.',
  'share.emailed': 'تم إرسال الرابط إلى {count} من العناوين.',
  server_error: 'خطأ في الخادم.',
  rate_limited: 'طلبات كثيرة جدًا.',
  'range.too_long': 'يمكن أن يمتد النطاق {days} يومًا على الأكثر',
  'imei.unavailable': 'لا يمكن تسجيل رقم IMEI هذا. إذا كان الجهاز لك، فتواصل مع مشغّل المنصة.',
  'password.common': 'كلمة المرور هذه شائعة جدًا. اختر كلمة يصعب تخمينها',
};

/** The Arabic sentence when the entity / field word is feminine (the masculine one is in `ar`). */
const AR_FEMININE: Partial<Record<MessageKey, string>> = {
  'entity.not_found': '{entity} غير موجودة.',
  'validation.required': '{field} مطلوبة',
  'validation.invalid': 'يرجى إدخال {field} صالحة',
  already_assigned: 'هذه {entity} مُعيَّنة بالفعل',
  already_taken: 'هذه {field} مستخدمة بالفعل',
  in_use: 'لا يمكن حذف هذه {entity} لارتباط {dependents} بها.',
};

/**
 * Arabic words for the English entity words and field labels the server puts into messages:
 * [definite, indefinite, feminine]. Plurals (the `dependents` of a refused delete) are in the
 * genitive they take after لارتباط (السائقين, not السائقون). Every field label of the shared
 * contract's messages has its word here (a test walks them).
 */
const AR_NOUNS: Record<string, readonly [string, string, boolean?]> = {
  device: ['الجهاز', 'جهاز'],
  year: ['سنة الصنع', 'سنة صنع', true],
  'minimum duration': ['أقل مدة', 'أقل مدة', true],
  'quiet hours start': ['بداية ساعات الهدوء', 'بداية ساعات هدوء', true],
  'quiet hours end': ['نهاية ساعات الهدوء', 'نهاية ساعات هدوء', true],
  // labels of the report schedules (merged from main without their Arabic words)
  'day of month': ['يوم الشهر', 'يوم شهر'],
  frequency: ['التكرار', 'تكرار'],
  hour: ['الساعة', 'ساعة', true],
  weekday: ['يوم الأسبوع', 'يوم أسبوع'],
  // labels of the device field settings (raw-frame archive, sensor calibration)
  frames: ['الإطارات', 'إطارات'],
  'fuel calibration': ['معايرة الوقود', 'معايرة وقود', true],
  limit: ['الحد', 'حد'],
  devices: ['الأجهزة', 'أجهزة'],
  driver: ['السائق', 'سائق'],
  drivers: ['السائقين', 'سائقين'],
  vehicle: ['المركبة', 'مركبة', true],
  vehicles: ['المركبات', 'مركبات'],
  passenger: ['الراكب', 'راكب'],
  passengers: ['الركاب', 'ركاب'],
  guardian: ['ولي الأمر', 'ولي أمر'],
  guardians: ['أولياء الأمور', 'أولياء أمور'],
  supervisor: ['المشرف', 'مشرف'],
  supervisors: ['المشرفين', 'مشرفين'],
  geofence: ['السياج الجغرافي', 'سياج جغرافي'],
  geofences: ['الأسيجة الجغرافية', 'أسيجة جغرافية'],
  branch: ['الفرع', 'فرع'],
  branches: ['الفروع', 'فروع'],
  station: ['المحطة', 'محطة', true],
  stations: ['المحطات', 'محطات'],
  school: ['المدرسة', 'مدرسة', true],
  schools: ['المدارس', 'مدارس'],
  trip: ['الرحلة', 'رحلة', true],
  trips: ['الرحلات', 'رحلات'],
  'scheduled trip': ['الرحلة المجدولة', 'رحلة مجدولة', true],
  'scheduled trips': ['الرحلات المجدولة', 'رحلات مجدولة'],
  'trips-app record': ['سجل تطبيق الرحلات', 'سجل تطبيق رحلات'],
  'trips app records': ['سجلات تطبيق الرحلات', 'سجلات تطبيق رحلات'],
  'notification rule': ['قاعدة الإشعار', 'قاعدة إشعار', true],
  'notification rules': ['قواعد الإشعارات', 'قواعد إشعارات'],
  notification: ['الإشعار', 'إشعار'],
  user: ['المستخدم', 'مستخدم'],
  users: ['المستخدمين', 'مستخدمين'],
  recipient: ['المستلم', 'مستلم'],
  record: ['السجل', 'سجل'],
  'other records': ['سجلات أخرى', 'سجلات أخرى'],
  value: ['القيمة', 'قيمة', true],
  'device trip': ['رحلة الجهاز', 'رحلة جهاز', true],
  'geofence event': ['حدث السياج الجغرافي', 'حدث سياج جغرافي'],
  'salik event': ['حدث سالك', 'حدث سالك'],
  'salik gate': ['بوابة سالك', 'بوابة سالك', true],
  'transport company': ['شركة النقل', 'شركة نقل', true],
  'device imei': ['رقم IMEI للجهاز', 'رقم IMEI للجهاز'],
  'gps device imei': ['رقم IMEI لجهاز GPS', 'رقم IMEI لجهاز GPS'],
  imei: ['رقم IMEI', 'رقم IMEI'],
  'installation date': ['تاريخ التركيب', 'تاريخ تركيب'],
  'last seen': ['آخر ظهور', 'آخر ظهور'],
  'live status': ['الحالة المباشرة', 'حالة مباشرة'],
  email: ['البريد الإلكتروني', 'بريد إلكتروني'],
  phone: ['رقم الهاتف', 'رقم هاتف'],
  name: ['الاسم', 'اسم'],
  'first name': ['الاسم الأول', 'اسم أول'],
  'last name': ['اسم العائلة', 'اسم عائلة'],
  'license plate number': ['رقم لوحة المركبة', 'رقم لوحة مركبة'],
  'vehicle type': ['نوع المركبة', 'نوع مركبة'],
  'device type': ['نوع الجهاز', 'نوع جهاز'],
  'user type': ['نوع المستخدم', 'نوع مستخدم'],
  'education level': ['المرحلة الدراسية', 'مرحلة دراسية', true],
  'start time': ['وقت البدء', 'وقت بدء'],
  'end time': ['وقت الانتهاء', 'وقت انتهاء'],
  'return time': ['وقت العودة', 'وقت عودة'],
  'end date': ['تاريخ الانتهاء', 'تاريخ انتهاء'],
  sort: ['الترتيب', 'ترتيب'],
  otp: ['رمز التحقق', 'رمز تحقق'],
  password: ['كلمة المرور', 'كلمة مرور', true],
  'confirm password': ['تأكيد كلمة المرور', 'تأكيد كلمة مرور'],
  'current password': ['كلمة المرور الحالية', 'كلمة مرور حالية', true],
  'password verification': ['التحقق من كلمة المرور', 'تحقق من كلمة المرور'],
  token: ['الرمز', 'رمز'],
  'app version': ['إصدار التطبيق', 'إصدار تطبيق'],
  channel: ['القناة', 'قناة', true],
  channels: ['القنوات', 'قنوات'],
  'message channel': ['قناة الرسائل', 'قناة رسائل', true],
  language: ['اللغة', 'لغة', true],
  'closing time': ['وقت الإغلاق', 'وقت إغلاق'],
  colour: ['اللون', 'لون'],
  command: ['الأمر', 'أمر'],
  days: ['الأيام', 'أيام'],
  document: ['المستند', 'مستند'],
  'file kind': ['نوع الملف', 'نوع ملف'],
  'file name': ['اسم الملف', 'اسم ملف'],
  format: ['الصيغة', 'صيغة', true],
  from: ['تاريخ البدء', 'تاريخ بدء'],
  to: ['تاريخ الانتهاء', 'تاريخ انتهاء'],
  gender: ['الجنس', 'جنس'],
  host: ['المضيف', 'مضيف'],
  order: ['اتجاه الترتيب', 'اتجاه ترتيب'],
  period: ['الفترة', 'فترة', true],
  platform: ['المنصة', 'منصة', true],
  polygon: ['المضلع', 'مضلع'],
  purpose: ['الغرض', 'غرض'],
  relationship: ['صلة القرابة', 'صلة قرابة', true],
  report: ['التقرير', 'تقرير'],
  sim: ['شريحة SIM', 'شريحة SIM', true],
  'sim card number': ['رقم شريحة SIM', 'رقم شريحة SIM'],
  'school type': ['نوع المدرسة', 'نوع مدرسة'],
  search: ['البحث', 'بحث'],
  shape: ['الشكل', 'شكل'],
  status: ['الحالة', 'حالة', true],
  'subject type': ['نوع العنصر', 'نوع عنصر'],
  'tracking rule': ['قاعدة التتبع', 'قاعدة تتبع', true],
  'tracking rules': ['قواعد التتبع', 'قواعد تتبع'],
  'trip type': ['نوع الرحلة', 'نوع رحلة'],
  type: ['النوع', 'نوع'],
  url: ['الرابط', 'رابط'],
  recipients: ['المستلمين', 'مستلمين'],
  'date and time': ['التاريخ والوقت', 'تاريخ ووقت'],
  identifier: ['المعرّف', 'معرّف'],
};

/** Whether the Arabic messages have a word for this English entity word or field label. */
export function hasArabicWord(word: string): boolean {
  return arNoun(word) !== undefined;
}

const catalogues: Record<Locale, Record<MessageKey, string>> = { en, ar };

/** Params that hold an entity word or a field label (translated into Arabic). */
const WORD_PARAMS = new Set(['entity', 'dependents', 'field']);

function arNoun(word: string): readonly [string, string, boolean?] | undefined {
  return AR_NOUNS[word.trim().toLowerCase()];
}

/**
 * The Arabic sentence of `key` with its words in Arabic: the definite form, except the indefinite one
 * in 'Please enter a valid X' (يرجى إدخال مركبة صالحة); the feminine sentence when the entity (or,
 * without one, the field) word is feminine.
 */
function arabic(key: MessageKey, params: Record<string, string | number>) {
  const head = params.entity ?? params.field;
  const feminine = typeof head === 'string' && arNoun(head)?.[2] === true;
  const template = (feminine && AR_FEMININE[key]) || ar[key];
  const words: Record<string, string | number> = { ...params };
  for (const [k, v] of Object.entries(params)) {
    if (!WORD_PARAMS.has(k) || typeof v !== 'string') continue;
    const noun = arNoun(v);
    if (noun) words[k] = key === 'validation.invalid' ? noun[1] : noun[0];
  }
  return { template, words };
}

export function parseLocale(header: unknown): Locale {
  return typeof header === 'string' && header.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

export function t(locale: Locale, key: MessageKey, params: Record<string, string | number> = {}): string {
  const { template, words } =
    locale === 'ar' ? arabic(key, params) : { template: catalogues[locale][key], words: params };
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String(words[k] ?? `{${k}}`));
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
  m = /^Too many (.+) \(at most (\d+)\)$/.exec(message);
  if (m) return t(locale, 'validation.too_many', { field: m[1]!, max: m[2]! });
  m = /^This (.+) is already assigned$/.exec(message);
  if (m) return t(locale, 'already_assigned', { entity: m[1]! });
  m = /^This (.+) is already taken$/.exec(message);
  if (m) return t(locale, 'already_taken', { field: m[1]! });
  if (message === en['password.mismatch']) return t(locale, 'password.mismatch');
  if (message === en['imei.unavailable']) return t(locale, 'imei.unavailable');
  if (message === en['password.common']) return t(locale, 'password.common');
  m = /^The range may span at most (\d+) days$/.exec(message);
  if (m) return t(locale, 'range.too_long', { days: m[1]! });
  return message;
}
