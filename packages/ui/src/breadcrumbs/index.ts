export { Breadcrumbs } from './breadcrumbs';
export type { BreadcrumbItem, BreadcrumbsProps } from './breadcrumbs';
