export { PlateCard, plateCardSizes, plateCardRecipe } from './plate-card';
export type { PlateCardProps, PlateCardSize } from './plate-card';
