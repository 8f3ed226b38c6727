/** DetailLayout's own chrome strings (English). */
export const en = {
  notProvided: 'Not provided',
} as const;
