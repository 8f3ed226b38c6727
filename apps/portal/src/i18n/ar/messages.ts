import type { Catalog } from '../en';
import type { messages as en } from '../en/messages';

export const messages = {
  list: {
    title: 'الرسائل المرسلة',
    intro:
      'رسائل البريد الإلكتروني والرسائل النصية التي أرسلها النظام، الأحدث أولًا. عند عدم إعداد SMTP يبقى البريد هنا في صندوق البريد المحلي.',
    empty: 'لا توجد رسائل بعد',
    filter: 'الحالة',
    all: 'الكل',
    search: 'ابحث بالمستلم أو الموضوع',
    open: 'قراءة',
    close: 'إغلاق',
  },
  status: { queued: 'في الانتظار', sent: 'مرسلة', failed: 'فشلت' },
  transport: { smtp: 'SMTP', mailbox: 'صندوق البريد المحلي', 'sms-http': 'مزود الرسائل النصية' },
  channel: { email: 'بريد إلكتروني', sms: 'رسالة نصية' },
  details: {
    to: 'إلى',
    created: 'وقت الإدراج',
    sent: 'وقت الإرسال',
    attempts: 'المحاولات',
    via: 'أُرسلت عبر',
    error: 'السبب',
    language: 'اللغة',
    preview: 'معاينة',
    text: 'نص عادي',
    noContent:
      'لا يُعرض المحتوى لأنه يحمل روابط ورموزًا لمرة واحدة. يقرأ المشرفون العامون البريد المحفوظ في صندوق البريد المحلي، ولا يُحتفظ بالبريد الذي أُرسل عبر SMTP أو الرسائل النصية.',
    frame: 'معاينة الرسالة',
  },
  share: {
    title: 'الموقع المباشر المشترك',
    updated: 'آخر موقع {{time}}',
    noPosition: 'لم يصل أي موقع بعد',
    expires: 'يعمل الرابط حتى {{time}}',
    invalidTitle: 'هذا الرابط غير متاح',
    invalid: 'الرابط غير صالح أو انتهت صلاحيته. اطلب رابطًا جديدًا من المرسل.',
  },
  invite: {
    action: 'إعادة إرسال الدعوة',
    sent: 'تم إرسال الدعوة.',
  },
} satisfies Catalog<typeof en>;
