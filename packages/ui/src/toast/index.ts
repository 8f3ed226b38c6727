export { ToastProvider, ToastCard, useToast, toastKinds, toastRecipe, toastPlacements } from './toast';
export type {
  ToastProviderProps,
  ToastCardProps,
  ToastApi,
  ToastKind,
  ToastInput,
  ToastPlacement,
} from './toast';
