/**
 * Every outbound message, in English and Arabic, as a subject, a plain-text body and an HTML body
 * (Arabic HTML is `dir="rtl"`). Each message names the product and carries its link as a plain,
 * visible URL too (mail clients that block buttons, SMS). Values are escaped for HTML, and every value
 * that reaches a header (the subject) has its control characters (CR, LF ...) removed here, so no input
 * can add a header line (nodemailer folds and encodes the subject; this is the first line of defence).
 */
import type { Locale } from '../http/i18n';

export const messageKinds = [
  'set_password',
  'reset_password',
  'otp',
  'share_location',
  'alert',
  'report',
  // Guardians (issue 14; apps/server/src/guardians/): their passengers' scheduled trips.
  'guardian_approaching',
  'guardian_delayed',
  'guardian_cancelled',
  'guardian_missed',
] as const;
export type MessageKind = (typeof messageKinds)[number];

export interface TemplateParams {
  /** The link the message carries (set-password, reset, share, alert ...). */
  link?: string | undefined;
  /** One-time code (OTP). */
  code?: string | undefined;
  /** Recipient's name, when known. */
  name?: string | undefined;
  /** Alert / report title, shared vehicle plate ... */
  title?: string | undefined;
  /** Alert message, report period ... */
  detail?: string | undefined;
  /** When the link stops working (ISO), shown in the recipient's language. */
  expiresAt?: string | undefined;
  /** Guardian messages: the passenger's name and their stop. */
  passenger?: string | undefined;
  stop?: string | undefined;
  /** Guardian messages: the signed link that stops them (shown in every guardian message). */
  unsubscribe?: string | undefined;
}

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  /** The short form for SMS. */
  sms: string;
}

/** Strip control characters (CR, LF, TAB, NUL ...) and collapse whitespace: safe for a header. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

export function headerSafe(value: string): string {
  return value.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().slice(0, 250);
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function formatWhen(iso: string | undefined, locale: Locale): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return (
    new Intl.DateTimeFormat(locale === 'ar' ? 'ar-AE' : 'en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(d) + (locale === 'ar' ? ' (التوقيت العالمي)' : ' UTC')
  );
}

interface Words {
  subject: string;
  heading: string;
  lines: string[];
  action?: string;
  sms: string;
}

type WordsOf = (p: TemplateParams, product: string, when: string) => Words;

const en: Record<MessageKind, WordsOf> = {
  set_password: (p, product) => ({
    subject: `Set your ${product} password`,
    heading: p.name ? `Welcome, ${p.name}` : `Welcome to ${product}`,
    lines: [
      `An account was created for you on ${product}. Choose your password to sign in.`,
      'The link works once and expires in 7 days.',
    ],
    action: 'Set password',
    sms: `${product}: set your password at ${p.link ?? ''}`,
  }),
  reset_password: (p, product) => ({
    subject: `Reset your ${product} password`,
    heading: 'Password reset',
    lines: [
      'Someone (hopefully you) asked to reset your password. Open the link to choose a new one.',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this message.',
    ],
    action: 'Reset password',
    sms: `${product}: reset your password at ${p.link ?? ''}`,
  }),
  otp: (p, product) => ({
    subject: `Your ${product} verification code`,
    heading: 'Verification code',
    lines: [`Your verification code is ${p.code ?? ''}.`, 'It expires in 10 minutes. Never share it.'],
    sms: `${product}: your verification code is ${p.code ?? ''}. It expires in 10 minutes.`,
  }),
  share_location: (p, product, when) => ({
    subject: `${product}: live location of ${p.title ?? 'a vehicle'}`,
    heading: `Live location of ${p.title ?? 'a vehicle'}`,
    lines: [
      `${p.name ? `${p.name} shared` : 'Someone shared'} the live location of ${p.title ?? 'a vehicle'} with you.`,
      when ? `The link works until ${when}.` : '',
    ].filter(Boolean),
    action: 'Open the map',
    sms: `${product}: live location of ${p.title ?? 'a vehicle'}: ${p.link ?? ''}`,
  }),
  alert: (p, product) => ({
    subject: `${product} alert: ${p.title ?? ''}`,
    heading: p.title ?? 'Alert',
    lines: [p.detail ?? ''].filter(Boolean),
    action: 'View in the portal',
    sms: `${product}: ${p.title ?? ''}${p.detail ? ` - ${p.detail}` : ''}`,
  }),
  report: (p, product) => ({
    subject: `${product} report: ${p.title ?? ''}`,
    heading: p.title ?? 'Report',
    lines: [p.detail ?? '', 'The report is attached to this message.'].filter(Boolean),
    ...(p.link ? { action: 'Open in the portal' } : {}),
    sms: `${product}: report ${p.title ?? ''} sent by e-mail`,
  }),
  guardian_approaching: (p, product) => ({
    subject: `${product}: the bus is approaching ${p.stop ?? 'your stop'}`,
    heading: `The bus is approaching ${p.stop ?? 'your stop'}`,
    lines: [
      `The bus of ${p.title ?? 'the trip'} for ${p.passenger ?? 'your passenger'} is close to ${p.stop ?? 'your stop'}.`,
      'Follow it on the map until the trip ends.',
    ],
    action: 'Track the bus',
    sms: `${product}: the bus for ${p.passenger ?? ''} is approaching ${p.stop ?? 'your stop'}. ${p.link ?? ''}`,
  }),
  guardian_delayed: (p, product) => ({
    subject: `${product}: the bus for ${p.passenger ?? 'your passenger'} is late`,
    heading: 'The bus is late',
    lines: [
      `${p.title ?? 'The trip'} has not started at its planned time. ${p.passenger ?? 'Your passenger'}'s bus will be late.`,
      'Follow it on the map until the trip ends.',
    ],
    action: 'Track the bus',
    sms: `${product}: the bus for ${p.passenger ?? ''} (${p.title ?? ''}) is late. ${p.link ?? ''}`,
  }),
  guardian_cancelled: (p, product) => ({
    subject: `${product}: ${p.title ?? 'the trip'} is cancelled`,
    heading: 'Trip cancelled',
    lines: [
      `${p.title ?? 'The trip'} of ${p.detail ?? 'today'} is cancelled. No bus will come for ${p.passenger ?? 'your passenger'}.`,
    ],
    sms: `${product}: ${p.title ?? 'the trip'} of ${p.detail ?? 'today'} is cancelled; no bus for ${p.passenger ?? ''}.`,
  }),
  guardian_missed: (p, product) => ({
    subject: `${product}: ${p.title ?? 'the trip'} did not run`,
    heading: 'Trip did not run',
    lines: [
      `The bus of ${p.title ?? 'the trip'} (${p.detail ?? 'today'}) did not start by its planned end, so it did not pick up ${p.passenger ?? 'your passenger'}.`,
      'Please contact the school.',
    ],
    sms: `${product}: ${p.title ?? 'the trip'} (${p.detail ?? 'today'}) did not run; ${p.passenger ?? ''} was not picked up.`,
  }),
};

const ar: Record<MessageKind, WordsOf> = {
  set_password: (p, product) => ({
    subject: `عيّن كلمة المرور في ${product}`,
    heading: p.name ? `مرحبًا ${p.name}` : `مرحبًا بك في ${product}`,
    lines: [
      `أُنشئ لك حساب في ${product}. اختر كلمة المرور لتسجيل الدخول.`,
      'يعمل الرابط مرة واحدة وتنتهي صلاحيته بعد 7 أيام.',
    ],
    action: 'تعيين كلمة المرور',
    sms: `${product}: عيّن كلمة المرور عبر ${p.link ?? ''}`,
  }),
  reset_password: (p, product) => ({
    subject: `إعادة تعيين كلمة المرور في ${product}`,
    heading: 'إعادة تعيين كلمة المرور',
    lines: [
      'طلب أحدهم (نأمل أن تكون أنت) إعادة تعيين كلمة المرور. افتح الرابط لاختيار كلمة جديدة.',
      'يعمل الرابط مرة واحدة وتنتهي صلاحيته بعد ساعة. إن لم تطلب ذلك فتجاهل هذه الرسالة.',
    ],
    action: 'إعادة تعيين كلمة المرور',
    sms: `${product}: أعد تعيين كلمة المرور عبر ${p.link ?? ''}`,
  }),
  otp: (p, product) => ({
    subject: `رمز التحقق في ${product}`,
    heading: 'رمز التحقق',
    lines: [`رمز التحقق الخاص بك هو ${p.code ?? ''}.`, 'تنتهي صلاحيته بعد 10 دقائق. لا تشاركه مع أحد.'],
    sms: `${product}: رمز التحقق ${p.code ?? ''}. تنتهي صلاحيته بعد 10 دقائق.`,
  }),
  share_location: (p, product, when) => ({
    subject: `${product}: الموقع المباشر للمركبة ${p.title ?? ''}`,
    heading: `الموقع المباشر للمركبة ${p.title ?? ''}`,
    lines: [
      `${p.name ? `شارك ${p.name}` : 'شارك أحدهم'} معك الموقع المباشر للمركبة ${p.title ?? ''}.`,
      when ? `يعمل الرابط حتى ${when}.` : '',
    ].filter(Boolean),
    action: 'فتح الخريطة',
    sms: `${product}: الموقع المباشر للمركبة ${p.title ?? ''}: ${p.link ?? ''}`,
  }),
  alert: (p, product) => ({
    subject: `تنبيه ${product}: ${p.title ?? ''}`,
    heading: p.title ?? 'تنبيه',
    lines: [p.detail ?? ''].filter(Boolean),
    action: 'عرض في البوابة',
    sms: `${product}: ${p.title ?? ''}${p.detail ? ` - ${p.detail}` : ''}`,
  }),
  report: (p, product) => ({
    subject: `تقرير ${product}: ${p.title ?? ''}`,
    heading: p.title ?? 'تقرير',
    lines: [p.detail ?? '', 'التقرير مرفق بهذه الرسالة.'].filter(Boolean),
    ...(p.link ? { action: 'فتح في البوابة' } : {}),
    sms: `${product}: أُرسل التقرير ${p.title ?? ''} بالبريد الإلكتروني`,
  }),
  guardian_approaching: (p, product) => ({
    subject: `${product}: الحافلة تقترب من ${p.stop ?? 'محطتك'}`,
    heading: `الحافلة تقترب من ${p.stop ?? 'محطتك'}`,
    lines: [
      `حافلة ${p.title ?? 'الرحلة'} الخاصة بـ${p.passenger ?? 'الراكب'} قريبة من ${p.stop ?? 'محطتك'}.`,
      'تابعها على الخريطة حتى نهاية الرحلة.',
    ],
    action: 'تتبّع الحافلة',
    sms: `${product}: حافلة ${p.passenger ?? ''} تقترب من ${p.stop ?? 'محطتك'}. ${p.link ?? ''}`,
  }),
  guardian_delayed: (p, product) => ({
    subject: `${product}: حافلة ${p.passenger ?? 'الراكب'} متأخرة`,
    heading: 'الحافلة متأخرة',
    lines: [
      `لم تبدأ ${p.title ?? 'الرحلة'} في موعدها المخطط. ستتأخر حافلة ${p.passenger ?? 'الراكب'}.`,
      'تابعها على الخريطة حتى نهاية الرحلة.',
    ],
    action: 'تتبّع الحافلة',
    sms: `${product}: حافلة ${p.passenger ?? ''} (${p.title ?? ''}) متأخرة. ${p.link ?? ''}`,
  }),
  guardian_cancelled: (p, product) => ({
    subject: `${product}: أُلغيت ${p.title ?? 'الرحلة'}`,
    heading: 'أُلغيت الرحلة',
    lines: [
      `أُلغيت ${p.title ?? 'الرحلة'} ليوم ${p.detail ?? 'اليوم'}. لن تأتي حافلة لـ${p.passenger ?? 'الراكب'}.`,
    ],
    sms: `${product}: أُلغيت ${p.title ?? 'الرحلة'} ليوم ${p.detail ?? 'اليوم'}؛ لا حافلة لـ${p.passenger ?? ''}.`,
  }),
  guardian_missed: (p, product) => ({
    subject: `${product}: لم تُنفَّذ ${p.title ?? 'الرحلة'}`,
    heading: 'لم تُنفَّذ الرحلة',
    lines: [
      `لم تبدأ حافلة ${p.title ?? 'الرحلة'} (${p.detail ?? 'اليوم'}) قبل نهايتها المخططة، فلم تُقِل ${p.passenger ?? 'الراكب'}.`,
      'يرجى التواصل مع المدرسة.',
    ],
    sms: `${product}: لم تُنفَّذ ${p.title ?? 'الرحلة'} (${p.detail ?? 'اليوم'})؛ لم يُنقل ${p.passenger ?? ''}.`,
  }),
};

const footer = {
  en: (product: string) => `This message was sent by ${product}. Please do not reply to it.`,
  ar: (product: string) => `أُرسلت هذه الرسالة من ${product}. يرجى عدم الرد عليها.`,
};

const unsubscribeWords = {
  en: { text: 'To stop these messages, open:', link: 'Stop these messages', sms: 'Stop:' },
  ar: { text: 'لإيقاف هذه الرسائل افتح:', link: 'إيقاف هذه الرسائل', sms: 'للإيقاف:' },
};

/** Renders one message in one language. */
export function renderMessage(
  kind: MessageKind,
  locale: Locale,
  params: TemplateParams,
  product = 'Fleet',
): RenderedMessage {
  // Names, plates and titles are one-line values wherever they appear.
  params = {
    ...params,
    ...(params.title !== undefined ? { title: headerSafe(params.title) } : {}),
    ...(params.name !== undefined ? { name: headerSafe(params.name) } : {}),
    ...(params.passenger !== undefined ? { passenger: headerSafe(params.passenger) } : {}),
    ...(params.stop !== undefined ? { stop: headerSafe(params.stop) } : {}),
  };
  const unsubscribe = params.unsubscribe;
  const unsub = unsubscribeWords[locale];
  const when = formatWhen(params.expiresAt, locale);
  const w = (locale === 'ar' ? ar : en)[kind](params, product, when);
  const dir = locale === 'ar' ? 'rtl' : 'ltr';
  const align = locale === 'ar' ? 'right' : 'left';
  const link = params.link;
  const text = [
    w.heading,
    '',
    ...w.lines,
    ...(link ? ['', link] : []),
    '',
    '--',
    footer[locale](product),
    ...(unsubscribe ? [`${unsub.text} ${unsubscribe}`] : []),
  ].join('\n');
  const html = `<!doctype html>
<html lang="${locale}" dir="${dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(headerSafe(w.subject))}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,'Noto Sans Arabic',sans-serif;color:#1f2937">
<div dir="${dir}" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;text-align:${align}">
<p style="margin:0 0 16px;font-weight:bold;color:#2563eb">${escapeHtml(product)}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(w.heading)}</h1>
${w.lines.map((l) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(l)}</p>`).join('\n')}
${
  link
    ? `${w.action ? `<p style="margin:20px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(w.action)}</a></p>` : ''}
<p style="margin:0 0 12px;word-break:break-all" dir="ltr"><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`
    : ''
}
<p style="margin:24px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footer[locale](product))}</p>
${unsubscribe ? `<p style="margin:8px 0 0;font-size:12px;color:#6b7280"><a href="${escapeHtml(unsubscribe)}">${escapeHtml(unsub.link)}</a> <span dir="ltr" style="word-break:break-all">${escapeHtml(unsubscribe)}</span></p>` : ''}
</div>
</body>
</html>
`;
  // The unsubscribe link is never cut off an SMS: the text before it is.
  const smsTail = unsubscribe ? ` ${unsub.sms} ${unsubscribe}` : '';
  return {
    subject: headerSafe(w.subject),
    text,
    html,
    sms: w.sms.slice(0, Math.max(0, 480 - smsTail.length)).trimEnd() + smsTail,
  };
}
