/**
 * Ruptela framing: `uint16 N`, IMEI (uint64), command, payload, CRC-16/KERMIT over IMEI..payload. The
 * stream session cuts a TCP stream into frames, checks length and CRC, and hands each body to
 * ./records.ts; `decodeRuptelaMessage` does the same for one message whose bounds are known.
 */
import { concatBytes } from '../common/byte-writer';
import { crc16Kermit } from '../common/crc16';
import { protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { DecodedMessage, DecodedRecord, DecodeResult } from '../records';
import { RUPTELA_MAX_FRAME_SIZE } from './constants';
import { decodeBody, type FrameContext } from './records';

export interface RuptelaSessionOptions {
  maxFrameSize?: number;
}

function undecodableFrame(frame: Uint8Array, reason: string): DecodedMessage {
  let imei = 0n;
  for (let i = 2; i < 10 && i < frame.length; i++) imei = (imei << 8n) | BigInt(frame[i] as number);
  return {
    type: 'undecodable',
    protocol: 'ruptela',
    imei: imei.toString().padStart(15, '0'),
    frame,
    reason,
  };
}

export interface RuptelaSession {
  decode(input: Uint8Array): DecodeResult;
  /** Records held back while waiting for the rest of a split extended record (emit them on close). */
  flush(): DecodedRecord[];
}

function checkCrc(bytes: Uint8Array, at: number, crcAt: number): ProtocolError | undefined {
  const sent = ((bytes[crcAt] as number) << 8) | (bytes[crcAt + 1] as number);
  const computed = crc16Kermit(bytes, at + 2, crcAt);
  if (sent !== computed) {
    return protocolError(
      'crc_mismatch',
      `CRC-16/KERMIT mismatch: frame says 0x${sent.toString(16)}, data gives 0x${computed.toString(16)}`,
      crcAt - at,
    );
  }
  return undefined;
}

/**
 * Stateful TCP decoder for one Ruptela connection. Frames: `uint16 N`, IMEI (uint64), command,
 * payload, CRC-16/KERMIT over IMEI..payload; N counts IMEI + command + payload. The CRC is always
 * checked (a mismatch is `crc_mismatch`: no ACK, the connection is closed, the device resends).
 */
export function createRuptelaSession(options: RuptelaSessionOptions = {}): RuptelaSession {
  const maxFrame = options.maxFrameSize ?? RUPTELA_MAX_FRAME_SIZE;
  const pending = new Map<string, DecodedRecord>();
  return {
    decode(input: Uint8Array): DecodeResult {
      const ctx: FrameContext = { messages: [], replies: [], pending };
      let consumed = 0;
      let error: ProtocolError | undefined;
      while (input.length - consumed >= 2) {
        const at = consumed;
        const n = ((input[at] as number) << 8) | (input[at + 1] as number);
        const total = n + 4;
        if (total > maxFrame) {
          error = protocolError('frame_too_large', `frame of ${total} bytes exceeds ${maxFrame}`, 0);
          break;
        }
        if (n < 9) {
          error = protocolError('bad_length', `length ${n} cannot hold an IMEI and a command`, 0);
          break;
        }
        if (input.length - at < total) break;
        error = checkCrc(input, at, at + 2 + n);
        if (error) break;
        const mark = [ctx.messages.length, ctx.replies.length] as const;
        try {
          decodeBody(input, at, at + 2 + n, ctx);
        } catch (caught) {
          // The CRC holds, so the frame arrived as sent: its content is what we cannot read. It is
          // handed over whole as undecodable (archived by the gateway), never half-decoded or answered.
          ctx.messages.length = mark[0];
          ctx.replies.length = mark[1];
          ctx.messages.push(undecodableFrame(input.slice(at, at + total), toProtocolError(caught).message));
        }
        consumed += total;
      }
      const result: DecodeResult = { consumed, messages: ctx.messages };
      if (ctx.replies.length > 0) result.reply = concatBytes(ctx.replies);
      if (error) result.error = error;
      return result;
    },
    flush(): DecodedRecord[] {
      const out = [...pending.values()];
      pending.clear();
      return out;
    },
  };
}

/**
 * Decodes exactly one complete message whose boundaries the caller knows (a capture, a datagram). The
 * CRC over the whole message must match. A length field disagreeing with the message size is an error
 * unless `acceptLengthMismatch` (two upstream vectors carry a wrong length with a valid CRC).
 */
export function decodeRuptelaMessage(
  message: Uint8Array,
  options: { acceptLengthMismatch?: boolean } = {},
): DecodeResult {
  const ctx: FrameContext = { messages: [], replies: [], pending: new Map() };
  if (message.length < 13)
    return { consumed: 0, messages: [], error: protocolError('truncated', 'message too short') };
  if (message.length > RUPTELA_MAX_FRAME_SIZE) {
    return { consumed: 0, messages: [], error: protocolError('frame_too_large', 'message too large') };
  }
  const n = ((message[0] as number) << 8) | (message[1] as number);
  if (n + 4 !== message.length && !options.acceptLengthMismatch) {
    return {
      consumed: 0,
      messages: [],
      error: protocolError(
        'bad_length',
        `length field ${n} but the message has ${message.length - 4} bytes`,
        0,
      ),
    };
  }
  const crcError = checkCrc(message, 0, message.length - 2);
  if (crcError) return { consumed: 0, messages: [], error: crcError };
  try {
    decodeBody(message, 0, message.length - 2, ctx);
  } catch (caught) {
    const reason = toProtocolError(caught).message;
    return { consumed: message.length, messages: [undecodableFrame(message.slice(), reason)] };
  }
  const result: DecodeResult = { consumed: message.length, messages: ctx.messages };
  if (ctx.replies.length > 0) result.reply = concatBytes(ctx.replies);
  return result;
}
