export { InlineAlert, inlineAlertRecipe, inlineAlertTones } from './inline-alert';
export type { InlineAlertProps, InlineAlertTone } from './inline-alert';
