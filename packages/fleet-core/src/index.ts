/**
 * @fleet/core: the framework-free rules of the fleet product (spec sections 3-9).
 * Pure TypeScript: no DOM, no I/O, no React; time, timers and randomness are injected.
 */
export * from './constants';
export * from './errors';
export * from './status';
export * from './io-elements';
export * from './sensors';
export * from './format';
export * from './validation';
export * from './permissions';
export * from './toast';
export * from './realtime';
export * from './live';
export * from './documents';
export * from './push';
export * from './session';
export * from './i18n';
