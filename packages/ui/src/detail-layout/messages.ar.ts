import type { en } from './messages.en';

export const ar = {
  notProvided: 'غير متوفر',
} as const satisfies Record<keyof typeof en, string>;
