export { DateField } from './date-field';
export type { DateFieldProps, DateFieldLabels } from './date-field';
export {
  addDays,
  addMonths,
  clampDay,
  isDay,
  monthGrid,
  moveByKey,
  weekStartOf,
  type Weekday,
} from './calendar-logic';
