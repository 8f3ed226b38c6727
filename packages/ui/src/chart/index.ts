export { LineChart, BarChart, TimeSeriesChart, chartVariants, chartKinds } from './time-series-chart';
export type { LineChartProps, BarChartProps, TimeSeriesChartProps, ChartKind } from './time-series-chart';
export {
  chartTones,
  summarizeSeries,
  validateChartData,
  type ChartSeries,
  type ChartTone,
  type SeriesSummary,
} from './chart-logic';
export { chartMessagesEn, type ChartMessages } from './messages.en';
export { chartMessagesAr } from './messages.ar';
