/**
 * GoSafe framing: text frames run from `*` to `#`, binary frames from `f8` to the next `f8` (escaped
 * with `1b`). The stream session and `decodeGoSafeMessage` cut frames, answer `1234` for what decoded,
 * and hand the records to ./records.ts; the simulator's encoders are ./encoding.ts.
 */
import { asciiToBytes, bytesToAscii } from '../common/byte-reader';
import { protocolError, toProtocolError, type ProtocolError } from '../common/errors';
import type { DecodedMessage, DecodeResult } from '../records';
import { decodeGoSafeBinary, decodeGoSafeText } from './records';

/** Largest frame (text up to `#`, binary between `f8` markers) we buffer before refusing the connection. */
export const GOSAFE_MAX_FRAME_SIZE = 8192;
/** The server's reply to every GoSafe message. */
export const GOSAFE_ACK: Uint8Array = asciiToBytes('1234');

/** Removes the binary escaping: `1b 00` -> `1b`, `1b e3` -> `f8`. */
export function unescapeGoSafe(frame: Uint8Array): Uint8Array | ProtocolError {
  const out = new Uint8Array(frame.length);
  let n = 0;
  for (let i = 0; i < frame.length; i++) {
    const b = frame[i] as number;
    if (b === 0x1b && i > 0 && i < frame.length - 1) {
      const next = frame[i + 1] as number;
      if (next === 0x00) out[n++] = 0x1b;
      else if (next === 0xe3) out[n++] = 0xf8;
      else return protocolError('malformed', `bad escape 1b ${next.toString(16)}`, i);
      i += 1;
    } else out[n++] = b;
  }
  return out.slice(0, n);
}

/** Escapes a binary frame body (between the markers) for the wire. */
export function escapeGoSafe(body: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const b of body) {
    if (b === 0x1b) out.push(0x1b, 0x00);
    else if (b === 0xf8) out.push(0x1b, 0xe3);
    else out.push(b);
  }
  return Uint8Array.from(out);
}

/**
 * Decodes one complete GoSafe message whose boundaries the caller knows (a UDP datagram, a capture):
 * text `*GS...` (the trailing `#` optional) or a binary `f8 ... f8` frame (escaped as on the wire).
 * The reply `1234` is given only for a message that decoded: an `undecodable` one (see ./records.ts) is
 * consumed without a reply so the device keeps it, and the gateway archives its bytes. With `unescaped`
 * the binary frame's `1b` escaping was already removed (Traccar's protocol-decoder vectors are given
 * that way). Never throws.
 */
export function decodeGoSafeMessage(
  message: Uint8Array,
  options: { unescaped?: boolean } = {},
): DecodeResult {
  if (message.length > GOSAFE_MAX_FRAME_SIZE) {
    return {
      consumed: 0,
      messages: [],
      error: protocolError('frame_too_large', 'message exceeds the size limit'),
    };
  }
  try {
    if (message[0] === 0x2a) {
      const result = decodeGoSafeText(bytesToAscii(message), message);
      if ('malformed' in result)
        return { consumed: 0, messages: [], error: protocolError('malformed', result.malformed) };
      const out: DecodeResult = { consumed: message.length, messages: result.messages };
      if (result.answered) out.reply = GOSAFE_ACK.slice();
      return out;
    }
    if (message[0] === 0xf8 && message.length >= 2 && message[message.length - 1] === 0xf8) {
      const plain = options.unescaped ? message : unescapeGoSafe(message);
      const undecodable = (reason: string): DecodeResult => ({
        consumed: message.length,
        messages: [{ type: 'undecodable', protocol: 'gosafe', frame: message.slice(), reason }],
      });
      if (!(plain instanceof Uint8Array)) return undecodable(plain.message);
      let messages: DecodedMessage[];
      try {
        messages = decodeGoSafeBinary(plain);
      } catch (caught) {
        return undecodable(toProtocolError(caught).message);
      }
      return { consumed: message.length, messages, reply: GOSAFE_ACK.slice() };
    }
    return {
      consumed: 0,
      messages: [],
      error: protocolError('bad_header', 'message starts with neither * nor f8'),
    };
  } catch (caught) {
    return { consumed: 0, messages: [], error: toProtocolError(caught) };
  }
}

export interface GoSafeSession {
  decode(input: Uint8Array): DecodeResult;
}

/**
 * TCP stream decoder: text frames run from `*` to `#`, binary frames from `f8` to the next `f8`.
 * CR/LF between frames is skipped. Anything else at a frame start is `bad_header`; no terminator
 * within {@link GOSAFE_MAX_FRAME_SIZE} bytes is `frame_too_large`.
 */
export function createGoSafeSession(options: { maxFrameSize?: number } = {}): GoSafeSession {
  const max = options.maxFrameSize ?? GOSAFE_MAX_FRAME_SIZE;
  return {
    decode(input: Uint8Array): DecodeResult {
      const messages: DecodedMessage[] = [];
      let replies = 0;
      let consumed = 0;
      let error: ProtocolError | undefined;
      while (consumed < input.length) {
        const first = input[consumed] as number;
        if (first === 0x0d || first === 0x0a || first === 0x20) {
          consumed += 1;
          continue;
        }
        let end = -1;
        if (first === 0x2a) end = input.indexOf(0x23, consumed + 1);
        else if (first === 0xf8) end = input.indexOf(0xf8, consumed + 1);
        else {
          error = protocolError('bad_header', `unexpected byte 0x${first.toString(16)} at a frame start`, 0);
          break;
        }
        if (end < 0) {
          if (input.length - consumed > max)
            error = protocolError('frame_too_large', `no terminator within ${max} bytes`);
          break;
        }
        if (end + 1 - consumed > max) {
          error = protocolError('frame_too_large', `frame exceeds ${max} bytes`);
          break;
        }
        const result = decodeGoSafeMessage(input.subarray(consumed, end + 1));
        if (result.error) {
          error = result.error;
          break;
        }
        messages.push(...result.messages);
        if (result.reply) replies += 1;
        consumed = end + 1;
      }
      const out: DecodeResult = { consumed, messages };
      if (replies > 0) {
        const reply = new Uint8Array(4 * replies);
        for (let i = 0; i < replies; i++) reply.set(GOSAFE_ACK, i * 4);
        out.reply = reply;
      }
      if (error) out.error = error;
      return out;
    },
  };
}
