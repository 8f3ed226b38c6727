import { asciiToBytes, bytesToAscii, ByteReader } from '../common/byte-reader';
import { ByteWriter } from '../common/byte-writer';
import { crc16Ibm } from '../common/crc16';
import { ProtocolEncodeError, ProtocolFault } from '../common/errors';
import { isPrintableAscii, toHex, tryFromHex } from '../common/hex';
import type { CommandResponse, DecodedMessage } from '../records';
import { CODEC_12, CODEC_13 } from './constants';

/** Codec 12 message types. */
export const CODEC12_TYPE_COMMAND = 0x05;
export const CODEC12_TYPE_RESPONSE = 0x06;
export const CODEC12_TYPE_CAMERA = 0x0d;

function frame(codec: number, type: number, body: Uint8Array, extra?: (w: ByteWriter) => void): Uint8Array {
  const w = new ByteWriter(body.length + 32);
  w.u32(0).u32(0);
  const dataStart = w.length;
  w.u8(codec).u8(1).u8(type);
  const lenAt = w.length;
  w.u32(0);
  const payloadStart = w.length;
  extra?.(w);
  w.bytes(body);
  w.patchU32(lenAt, w.length - payloadStart);
  w.u8(1);
  const dataEnd = w.length;
  w.patchU32(4, dataEnd - dataStart);
  w.u32(crc16Ibm(w.subarray(dataStart, dataEnd)));
  return w.toBytes();
}

/**
 * Codec 12 command (server -> device). Text is sent as ASCII; like Traccar, an even-length hex
 * string given with `{ hex: true }` (or `'auto'`, the default for `custom`) is sent as raw bytes.
 */
export function encodeTeltonikaCommand(
  command: string | Uint8Array,
  mode: 'text' | 'auto' = 'text',
): Uint8Array {
  let body: Uint8Array;
  if (typeof command === 'string') {
    const raw = mode === 'auto' ? tryFromHex(command) : undefined;
    body = raw && raw.length > 0 ? raw : asciiToBytes(command);
  } else body = command;
  if (body.length === 0) throw new ProtocolEncodeError('invalid_argument', 'empty command');
  if (body.length > 4096) throw new ProtocolEncodeError('invalid_argument', 'command longer than 4096 bytes');
  return frame(CODEC_12, CODEC12_TYPE_COMMAND, body);
}

/** Codec 12 response (device -> server, type 0x06): what a simulated device answers to a command. */
export function encodeTeltonikaCommandResponse(answer: string | Uint8Array): Uint8Array {
  return frame(CODEC_12, CODEC12_TYPE_RESPONSE, typeof answer === 'string' ? asciiToBytes(answer) : answer);
}

/** Codec 13 message (device -> server): type 0x05 with a 4-byte timestamp before the payload. */
export function encodeTeltonikaCodec13(answer: string | Uint8Array, timeMs: number, type = 0x05): Uint8Array {
  const body = typeof answer === 'string' ? asciiToBytes(answer) : answer;
  return frame(CODEC_13, type, body, (w) => w.u32(Math.floor(timeMs / 1000)));
}

function responseAttributes(text: string): CommandResponse['attributes'] {
  // Driver identification event of tachograph-equipped FM devices: `GTSL|<n>|<n>|<n>|<driver id>|...`.
  if (text.startsWith('GTSL')) {
    const parts = text.split('|');
    const id = parts[4];
    if (id) return { driverUniqueId: id };
  }
  return undefined;
}

/**
 * Decodes a Codec 12 / Codec 13 data field. Camera chunks (type 0x0d) are acknowledged by nothing and
 * produce an `ignored` message; responses become `command-response` messages.
 */
export function decodeCommandData(
  bytes: Uint8Array,
  start: number,
  end: number,
  imei: string,
): DecodedMessage[] {
  const r = new ByteReader(bytes, start, end);
  const codec = r.u8();
  const count = r.u8();
  const out: DecodedMessage[] = [];
  for (let i = 0; i < count; i++) {
    const type = r.u8();
    let length = r.u32();
    let deviceTime: number | undefined;
    if (codec === CODEC_13) {
      if (length < 4)
        throw new ProtocolFault('bad_length', 'codec 13 payload shorter than its timestamp', r.offset);
      deviceTime = r.u32() * 1000;
      // The length normally counts the 4-byte timestamp; some firmwares count only the payload. When the
      // bytes left are exactly `length` + the trailing quantity, take that reading instead.
      if (!(count === 1 && r.remaining === length + 1)) length -= 4;
    }
    const payload = r.slice(length, 'command payload');
    if (codec === CODEC_12 && type === CODEC12_TYPE_CAMERA) {
      out.push({ type: 'ignored', protocol: 'teltonika', imei, reason: 'camera data (codec 12 type 0x0d)' });
      continue;
    }
    const printable = isPrintableAscii(payload);
    const text = printable ? bytesToAscii(payload).trim() : toHex(payload);
    const response: CommandResponse = {
      imei,
      protocol: 'teltonika',
      text,
      isHex: !printable,
      responseType: type,
    };
    if (deviceTime !== undefined) response.deviceTime = deviceTime;
    const attributes = printable ? responseAttributes(text) : undefined;
    if (attributes) response.attributes = attributes;
    out.push({ type: 'command-response', response });
  }
  const trailer = r.u8();
  if (trailer !== count)
    throw new ProtocolFault('count_mismatch', `quantity ${count} but trailer ${trailer}`);
  if (r.remaining !== 0) throw new ProtocolFault('bad_length', 'bytes after the command quantity', r.offset);
  return out;
}
