export * from './logger';
export * from './timers';
