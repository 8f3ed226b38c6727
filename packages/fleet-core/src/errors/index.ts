export * from './api-failure';
