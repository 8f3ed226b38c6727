export { LoadingState, loadingStateRecipe, loadingStateSizes } from './loading-state';
export type { LoadingStateProps, LoadingStateSize } from './loading-state';
