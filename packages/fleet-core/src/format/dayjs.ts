/**
 * The one configured dayjs instance of core: utc, timezone and customParseFormat plugins plus the
 * Arabic locale. The preParsePostFormat plugin is deliberately not loaded, so Arabic output keeps
 * Latin digits (numbers, times and plates are shown left-to-right in both languages).
 */
import dayjs from 'dayjs';
import arLocale from 'dayjs/locale/ar.js';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);
// dayjs's Arabic meridiem marks 12:00-12:59 as morning (it tests hour > 12); noon is afternoon.
const arabic = { ...arLocale, meridiem: (hour: number) => (hour < 12 ? 'ص' : 'م') };
dayjs.locale(arabic as typeof arLocale, undefined, true);

export { dayjs };
export type { Dayjs } from 'dayjs';
