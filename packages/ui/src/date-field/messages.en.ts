/** DateField's chrome strings (English). */
export const en = {
  chooseDate: 'Choose a date',
  calendar: 'Calendar',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  /** Read after the field's label: "From, 27 November 2026". */
  selectedDate: 'Selected: {date}',
} as const;
