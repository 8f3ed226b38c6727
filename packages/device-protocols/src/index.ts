/**
 * @fleet/device-protocols — pure codecs for Teltonika, Ruptela, GoSafe, iStartek and the generic
 * OsmAnd / MQTT JSON trackers, plus the encoders the device simulator uses and the spec command
 * mapping. See README.md for the decoder contract, limits and the decisions on known-bad frames.
 */
export * from './records';
export * from './common/errors';
export { ByteReader, bytesToAscii, asciiToBytes } from './common/byte-reader';
export { ByteWriter, concatBytes } from './common/byte-writer';
export { crc16Ibm, crc16Kermit } from './common/crc16';
export { toHex, fromHex, tryFromHex, isHex, isPrintableAscii } from './common/hex';
export { createPrng, type Prng } from './common/prng';
export * from './teltonika';
export * from './ruptela';
export * from './gosafe';
export * from './istartek';
export * from './generic';
export * from './commands';
export * from './simulator';
