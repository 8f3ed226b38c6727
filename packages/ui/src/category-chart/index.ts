export { CategoryBarChart, barShare, categoryChartTones } from './category-chart';
export type { CategoryBarChartProps, CategoryDatum, CategoryChartTone } from './category-chart';
