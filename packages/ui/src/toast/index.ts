export { ToastProvider, ToastCard, useToast, toastKinds, toastRecipe } from './toast';
export type { ToastProviderProps, ToastCardProps, ToastApi, ToastKind, ToastInput } from './toast';
