export { SectionTabs } from './section-tabs';
export type { SectionTab, SectionTabsProps } from './section-tabs';
