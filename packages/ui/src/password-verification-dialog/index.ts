export { PasswordVerificationDialog } from './password-verification-dialog';
export type { PasswordVerificationDialogProps } from './password-verification-dialog';
