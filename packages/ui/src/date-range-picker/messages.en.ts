/** DateRangePicker's own chrome strings (English); range names and From/To come from the kit. */
export const en = {
  rangeMissing: 'Choose both dates',
  rangeInvalidDate: 'Enter a valid date',
  rangeOrder: 'The start date must be on or before the end date',
  rangeChoose: 'Choose a date range',
} as const;
