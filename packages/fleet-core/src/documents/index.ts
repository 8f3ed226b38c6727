export * from './expiry';
