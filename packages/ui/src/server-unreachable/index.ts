export { ServerUnreachable } from './server-unreachable';
export type { ServerUnreachableProps } from './server-unreachable';
export { useCountdown } from './use-countdown';
export type { UseCountdownOptions } from './use-countdown';
export { startCountdown, normalizeSeconds, browserTimers } from './countdown';
export type { Countdown, CountdownOptions, CountdownTimers } from './countdown';
