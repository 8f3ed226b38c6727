export { Dialog, DialogClose, dialogSizes, dialogRecipe } from './dialog';
export type { DialogProps, DialogSize } from './dialog';
