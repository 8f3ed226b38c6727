export * from './locale';
export { en as coreMessagesEn } from './messages.en';
export { ar as coreMessagesAr } from './messages.ar';
export type { MessageKey } from './messages.en';
export * from './translate';
