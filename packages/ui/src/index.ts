// Public API of @fleet/ui. One export line per component folder (other folders add theirs here).
export * from './tokens';
export * from './i18n';
export * from './provider';
export { cn } from './lib/cn';
export * from './data-table';
export * from './map';
export * from './chart';
export * from './icons';
export * from './button';
export * from './form-field';
export * from './input';
export * from './textarea';
export * from './select';
export * from './combobox';
export * from './checkbox';
export * from './switch';
export * from './radio-group';
export * from './two-step-wizard';
export * from './detail-layout';
export * from './not-found';
export * from './states';
export * from './stat-card';
export * from './date-range-picker';
export * from './date-field';
export {
  ServerUnreachable,
  useCountdown,
  startCountdown,
  normalizeSeconds,
  browserTimers,
} from './server-unreachable';
export type {
  ServerUnreachableProps,
  UseCountdownOptions,
  Countdown,
  CountdownOptions,
  CountdownTimers,
} from './server-unreachable';
export * from './app-shell';
export * from './file-upload';
export * from './plate-card';
export * from './status-tabs';
export * from './section-tabs';
export * from './fleet-list';
export * from './toast';
export * from './dialog';
export * from './delete-confirm-dialog';
export * from './status-update-dialog';
export * from './otp-dialog';
export * from './password-verification-dialog';
export * from './card';
export * from './inline-alert';
export * from './loading-state';
export * from './native-select';
export * from './category-chart';
