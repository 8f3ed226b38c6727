export * from './parse-time';
export { dayjs } from './dayjs';
export * from './dates';
export * from './durations';
export * from './jalali';
export * from './ranges';
