export { CompanySwitcher } from './company-switcher';
export type { Company, CompanySwitcherProps } from './company-switcher';
