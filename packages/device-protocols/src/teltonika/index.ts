export * from './constants';
export { decodeBleTags, BLE_IO_IDS } from './ble';
export { type TeltonikaRecordOptions } from './avl';
export {
  createTeltonikaSession,
  decodeTeltonikaAvlData,
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  teltonikaHandshakeReply,
  teltonikaTcpAck,
  type TeltonikaSession,
  type TeltonikaSessionOptions,
} from './tcp';
export { decodeTeltonikaUdp, encodeTeltonikaUdp, teltonikaUdpAck, type TeltonikaUdpHeader } from './udp';
export {
  CODEC12_TYPE_CAMERA,
  CODEC12_TYPE_COMMAND,
  CODEC12_TYPE_RESPONSE,
  encodeTeltonikaCodec13,
  encodeTeltonikaCommand,
  encodeTeltonikaCommandResponse,
} from './codec12';
