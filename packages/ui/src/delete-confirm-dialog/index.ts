export { DeleteConfirmDialog } from './delete-confirm-dialog';
export type { DeleteConfirmDialogProps } from './delete-confirm-dialog';
