import { ByteWriter, concatBytes } from '../common/byte-writer';
import { crc16Ibm } from '../common/crc16';
import { protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { DecodedMessage, DecodeResult, DecodedRecord } from '../records';
import { decodeAvlRecords, isAvlCodec, writeAvlData, type TeltonikaRecordOptions } from './avl';
import { decodeCommandData } from './codec12';
import {
  CODEC_12,
  CODEC_13,
  CODEC_8E,
  TELTONIKA_IMEI_ACCEPT,
  TELTONIKA_IMEI_REJECT,
  TELTONIKA_MAX_FRAME_SIZE,
  TELTONIKA_MAX_IMEI_LENGTH,
  type TeltonikaAvlCodec,
} from './constants';

export interface TeltonikaSessionOptions extends TeltonikaRecordOptions {
  /**
   * Check the CRC-16/IBM of every AVL/command frame (default true). A mismatch is a typed
   * `crc_mismatch` error with no ACK: the device keeps the data and resends it, the gateway closes the
   * connection. Traccar never checks it; set false only to replay captured frames with broken CRCs.
   */
  verifyCrc?: boolean;
  /** Frame size limit (default {@link TELTONIKA_MAX_FRAME_SIZE}). */
  maxFrameSize?: number;
}

export interface TeltonikaSession {
  /** IMEI from the handshake, once seen. */
  readonly imei: string | undefined;
  decode(input: Uint8Array): DecodeResult;
}

/** The one-byte answer to an IMEI handshake: `01` accept, `00` reject (unknown device). */
export function teltonikaHandshakeReply(accept: boolean): Uint8Array {
  return (accept ? TELTONIKA_IMEI_ACCEPT : TELTONIKA_IMEI_REJECT).slice();
}

/** TCP ACK for an AVL packet: the number of accepted records as a big-endian uint32. */
export function teltonikaTcpAck(recordCount: number): Uint8Array {
  const n = recordCount >>> 0;
  return Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/** Device -> server IMEI handshake: `uint16 length` + ASCII IMEI. */
export function encodeTeltonikaImei(imei: string): Uint8Array {
  const w = new ByteWriter(imei.length + 2).u16(imei.length);
  for (let i = 0; i < imei.length; i++) w.u8(imei.charCodeAt(i) & 0xff);
  return w.toBytes();
}

/** Device -> server TCP AVL packet (preamble, length, data field, CRC-16/IBM). */
export function encodeTeltonikaAvl(
  records: readonly DecodedRecord[],
  codec: TeltonikaAvlCodec = CODEC_8E,
): Uint8Array {
  const w = new ByteWriter(64 + records.length * 64);
  w.u32(0).u32(0);
  writeAvlData(w, records, codec);
  const end = w.length;
  w.patchU32(4, end - 8);
  w.u32(crc16Ibm(w.subarray(8, end)));
  return w.toBytes();
}

function isImeiText(bytes: Uint8Array, start: number, end: number): boolean {
  if (end === start) return false;
  for (let i = start; i < end; i++) {
    const c = bytes[i] as number;
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * Stateful TCP decoder for one Teltonika connection. Per frame:
 * - `ff` alone: ping -> `heartbeat`, nothing to answer.
 * - non-zero `uint16` length: IMEI handshake -> `identification`; the gateway answers with
 *   {@link teltonikaHandshakeReply} once it knows whether the IMEI is registered.
 * - `00000000` preamble: AVL / command packet. Records need a prior handshake (`not_identified`
 *   otherwise). AVL packets produce `records` and a reply = record count (uint32); Codec 12/13 produce
 *   `command-response` and no reply (Teltonika expects none).
 * Every complete frame in `input` is decoded; replies are concatenated in order.
 */
export function createTeltonikaSession(options: TeltonikaSessionOptions = {}): TeltonikaSession {
  const verifyCrc = options.verifyCrc ?? true;
  const maxFrame = Math.min(options.maxFrameSize ?? TELTONIKA_MAX_FRAME_SIZE, 0x7fffffff);
  let imei: string | undefined;

  function decodeOne(
    input: Uint8Array,
    at: number,
    messages: DecodedMessage[],
    replies: Uint8Array[],
  ): number | ProtocolError {
    const available = input.length - at;
    const first = input[at] as number;
    if (first === 0xff) {
      // 0xff at a frame boundary is a keep-alive byte (an IMEI length of 0xff.. is never valid).
      messages.push({ type: 'heartbeat', protocol: 'teltonika', ...(imei ? { imei } : {}) });
      return 1;
    }
    if (available < 2) return 0;
    const head = (first << 8) | (input[at + 1] as number);
    if (head !== 0) {
      if (head > TELTONIKA_MAX_IMEI_LENGTH) {
        return protocolError('bad_imei', `IMEI length ${head} is not plausible`, 0);
      }
      if (available < head + 2) return 0;
      if (!isImeiText(input, at + 2, at + 2 + head))
        return protocolError('bad_imei', 'IMEI is not decimal digits', 2);
      let text = '';
      for (let i = at + 2; i < at + 2 + head; i++) text += String.fromCharCode(input[i] as number);
      imei = text;
      messages.push({ type: 'identification', protocol: 'teltonika', imei: text });
      return head + 2;
    }
    if (available < 8) {
      for (let i = at + 2; i < input.length; i++) {
        if (input[i] !== 0) return protocolError('bad_preamble', 'AVL preamble is not 00000000', i - at);
      }
      return 0;
    }
    const view = new DataView(input.buffer, input.byteOffset + at, available);
    if (view.getUint32(0) !== 0) return protocolError('bad_preamble', 'AVL preamble is not 00000000', 0);
    const dataLength = view.getUint32(4);
    if (dataLength + 12 > maxFrame) {
      return protocolError(
        'frame_too_large',
        `data length ${dataLength} exceeds the ${maxFrame}-byte frame limit`,
        4,
      );
    }
    if (dataLength < 3) return protocolError('bad_length', `data length ${dataLength} is too small`, 4);
    const total = dataLength + 12;
    if (available < total) return 0;
    const dataStart = at + 8;
    const dataEnd = dataStart + dataLength;
    if (verifyCrc) {
      const sent = view.getUint32(total - 4);
      const computed = crc16Ibm(input, dataStart, dataEnd);
      if (sent !== computed) {
        return protocolError(
          'crc_mismatch',
          `CRC-16/IBM mismatch: frame says 0x${sent.toString(16)}, data gives 0x${computed.toString(16)}`,
          total - 4,
        );
      }
    }
    const codec = input[dataStart] as number;
    try {
      if (isAvlCodec(codec)) {
        if (imei === undefined)
          return protocolError('not_identified', 'AVL data before the IMEI handshake', 0);
        const records = decodeAvlRecords(input, dataStart, dataEnd, imei, options);
        messages.push({ type: 'records', protocol: 'teltonika', imei, records });
        replies.push(teltonikaTcpAck(records.length));
      } else if (codec === CODEC_12 || codec === CODEC_13) {
        messages.push(...decodeCommandData(input, dataStart, dataEnd, imei ?? ''));
      } else {
        return protocolError('unsupported_codec', `codec 0x${codec.toString(16)} is not supported`, 8);
      }
    } catch (caught) {
      return toProtocolError(caught);
    }
    return total;
  }

  return {
    get imei() {
      return imei;
    },
    decode(input: Uint8Array): DecodeResult {
      const messages: DecodedMessage[] = [];
      const replies: Uint8Array[] = [];
      let consumed = 0;
      let error: ProtocolError | undefined;
      try {
        while (consumed < input.length) {
          const step = decodeOne(input, consumed, messages, replies);
          if (typeof step !== 'number') {
            error = step;
            break;
          }
          if (step === 0) break;
          consumed += step;
        }
      } catch (caught) {
        error = toProtocolError(caught);
      }
      const result: DecodeResult = { consumed, messages };
      if (replies.length === 1) result.reply = replies[0] as Uint8Array;
      else if (replies.length > 1) result.reply = concatBytes(replies);
      if (error) result.error = error;
      return result;
    },
  };
}

/**
 * Decodes one AVL data field (`codec count records count`) outside any framing: used for frames whose
 * outer length or CRC is known to be broken (see the module docs) and by tests. Never throws.
 */
export function decodeTeltonikaAvlData(
  data: Uint8Array,
  imei: string,
  options: TeltonikaRecordOptions = {},
): { records: DecodedRecord[]; error?: ProtocolError } {
  try {
    return { records: decodeAvlRecords(data, 0, data.length, imei, options) };
  } catch (caught) {
    return { records: [], error: toProtocolError(caught) };
  }
}
