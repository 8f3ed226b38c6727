export * from './constants';
export { RUPTELA_IO_MAP, mapRuptelaIo, unmapRuptelaIo } from './io-map';
export {
  createRuptelaSession,
  decodeRuptelaMessage,
  type RuptelaSession,
  type RuptelaSessionOptions,
} from './framing';
export {
  encodeRuptelaCommandResponse,
  encodeRuptelaHeartbeat,
  encodeRuptelaIdentification,
  encodeRuptelaRecords,
  encodeRuptelaServerFrame,
} from './encoding';
