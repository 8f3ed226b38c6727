export * from './live-update';
