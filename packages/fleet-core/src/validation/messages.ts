import { translate } from '../i18n/translate';

/** '{field} is required'. */
export function requiredMessage(field: string, locale = 'en-US'): string {
  return translate(locale, 'validation.required', { field });
}

/** 'Please enter a valid {field}'. */
export function invalidMessage(field: string, locale = 'en-US'): string {
  return translate(locale, 'validation.invalid', { field });
}

/** 'This {entity} is already assigned'. */
export function alreadyAssignedMessage(entity: string, locale = 'en-US'): string {
  return translate(locale, 'validation.alreadyAssigned', { entity });
}

/** The two general form errors of spec section 5. */
export function formErrorMessages(locale = 'en-US'): { checkEntries: string; completeRequired: string } {
  return {
    checkEntries: translate(locale, 'validation.formCheckEntries'),
    completeRequired: translate(locale, 'validation.formCompleteRequired'),
  };
}

/** '(optional)'. */
export function optionalLabel(locale = 'en-US'): string {
  return translate(locale, 'validation.optional');
}

/** A field label, with ' (optional)' appended for optional fields. */
export function fieldLabel(label: string, options: { optional?: boolean; locale?: string } = {}): string {
  return options.optional ? `${label} ${optionalLabel(options.locale)}` : label;
}
