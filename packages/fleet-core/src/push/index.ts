export * from './platform';
export * from './messages';
export * from './push-registration';
