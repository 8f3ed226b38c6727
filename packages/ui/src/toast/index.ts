export {
  ToastProvider,
  ToastCard,
  useToast,
  toastKinds,
  toastRecipe,
  toastPlacements,
  toastViewportClass,
} from './toast';
export type {
  ToastProviderProps,
  ToastCardProps,
  ToastApi,
  ToastKind,
  ToastInput,
  ToastPlacement,
} from './toast';
