export * from './catalogue';
export * from './decode';
export * from './format-reading';
export * from './tyres';
export * from './inputs';
