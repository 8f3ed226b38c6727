export * from './messages';
export * from './builders';
