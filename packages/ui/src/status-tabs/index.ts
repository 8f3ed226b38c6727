export { StatusTabs, statusTabs, statusToneRecipe } from './status-tabs';
export type { StatusTabsProps, StatusTab } from './status-tabs';
