/**
 * The label keys the shell's components share (AppShell, SideNav, CompanySwitcher,
 * LanguageSwitcher, Breadcrumbs): kit messages by default, each overridable through `labels`.
 * One file so the six component folders agree on one `AppShellLabels` type.
 */
import type { UiMessages } from '../i18n';
import type { en } from './messages.en';

export const shellKeys = [
  'navigation',
  'openMenu',
  'closeMenu',
  'collapseNav',
  'expandNav',
  'breadcrumbs',
  'company',
  'switchCompany',
  'language',
] as const;
export type AppShellLabels = Partial<
  Pick<UiMessages, (typeof shellKeys)[number]> & Record<keyof typeof en, string>
>;
