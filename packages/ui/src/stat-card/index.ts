export { StatCard, statCardRecipe, statDeltaRecipe, statCardSizes } from './stat-card';
export type { StatCardProps, StatCardSize, StatCardLabels } from './stat-card';
export { statDelta, deltaFromPercent, deltaDirections, deltaTones } from './stat-delta';
export type { StatDelta, DeltaDirection, DeltaTone } from './stat-delta';
