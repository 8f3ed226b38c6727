export {
  DetailLayout,
  DetailSection,
  DescriptionList,
  DetailStatusBadge,
  detailStatusBadgeRecipe,
  detailStatusTones,
  descriptionListRecipe,
  descriptionListColumns,
  isEmptyValue,
} from './detail-layout';
export type {
  DetailLayoutProps,
  DetailSectionProps,
  DescriptionListProps,
  DescriptionItem,
  DescriptionListColumns,
  DetailStatusBadgeProps,
  DetailLayoutLabels,
} from './detail-layout';
