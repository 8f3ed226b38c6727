import type { Catalog } from '../en';
import type { geofences as en } from '../en/geofences';

export const geofences = {
  draw: {
    title: 'ارسم المنطقة',
    hint: 'انقر على الخريطة لإضافة نقاط؛ اختر الدائرة لوضع المركز ثم اسحب لتحديد نصف القطر.',
    polygon: 'مضلّع',
    circle: 'دائرة',
    clear: 'مسح',
    undo: 'التراجع عن نقطة',
    required: 'ارسم المنطقة على الخريطة',
  },
  events: { title: 'أحداث المناطق', entry: 'دخول', exit: 'خروج', salik: 'عبور بوابات سالك' },
} satisfies Catalog<typeof en>;
