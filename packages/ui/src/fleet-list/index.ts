export { FleetList, fleetListDotRecipe } from './fleet-list';
export type { FleetListItem, FleetListLabels, FleetListProps } from './fleet-list';
