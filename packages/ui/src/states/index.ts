export { EmptyState, ErrorState, statePanelRecipe, stateIconRecipe, stateSizes, stateTones } from './states';
export type { EmptyStateProps, ErrorStateProps, StatePanelProps, StateSize, StateTone } from './states';
