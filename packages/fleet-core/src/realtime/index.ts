export * from './logger';
export * from './timers';
export * from './realtime-client';
