export { OtpDialog } from './otp-dialog';
export type { OtpDialogProps } from './otp-dialog';
export { digitsOf, fillCells, secondsLeft } from './otp-logic';
