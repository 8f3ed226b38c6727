export { Card, CardHeader, cardRecipe, cardPaddings } from './card';
export type { CardProps, CardHeaderProps, CardPadding } from './card';
