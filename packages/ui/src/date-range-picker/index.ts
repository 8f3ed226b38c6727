export {
  DateRangePicker,
  DateRangePanel,
  dateRangePresentations,
  quickRangeItemRecipe,
} from './date-range-picker';
export type {
  DateRangePickerProps,
  DateRangePanelProps,
  DateRangePickerLabels,
  DateRangePresentation,
} from './date-range-picker';
export {
  dayRange,
  quickRangeValue,
  validateDays,
  matchQuickRange,
  isDayString,
  rangeErrors,
} from './date-range-logic';
export type { DateRangeValue, DateRangeError } from './date-range-logic';
