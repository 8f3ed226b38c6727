/** Chrome strings of the charts (English); override any of them with the `labels` prop. */
export const chartMessagesEn = {
  summary: 'Summary of {title}',
  series: 'Series',
  minimum: 'Minimum',
  maximum: 'Maximum',
  average: 'Average',
  latest: 'Latest',
  readings: '{count} readings from {start} to {end}.',
  noData: 'No data found, please try selecting different date and time',
  noValue: 'No value',
} as const;

export type ChartMessageKey = keyof typeof chartMessagesEn;
export type ChartMessages = Record<ChartMessageKey, string>;
