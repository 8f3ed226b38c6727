export * from './location';
export * from './vehicle-status';
