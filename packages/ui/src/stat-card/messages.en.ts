/** StatCard's own chrome strings (English). */
export const en = {
  comparedToPrevious: 'vs previous period',
  noChange: 'No change',
} as const;
