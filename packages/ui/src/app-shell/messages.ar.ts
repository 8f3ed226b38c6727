import type { en } from './messages.en';

export const ar = {
  skipToContent: 'انتقل إلى المحتوى الرئيسي',
} as const satisfies Record<keyof typeof en, string>;
