export * from './constants';
export { RUPTELA_IO_MAP, mapRuptelaIo, unmapRuptelaIo } from './io-map';
export {
  createRuptelaSession,
  decodeRuptelaMessage,
  encodeRuptelaCommandResponse,
  encodeRuptelaHeartbeat,
  encodeRuptelaIdentification,
  encodeRuptelaRecords,
  encodeRuptelaServerFrame,
  type RuptelaSession,
  type RuptelaSessionOptions,
} from './codec';
