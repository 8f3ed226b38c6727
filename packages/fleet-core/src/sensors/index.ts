export * from './fuel-calibration';
