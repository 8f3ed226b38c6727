import { bytesToAscii } from '../common/byte-reader';
import { crc16Ibm, crc16Kermit } from '../common/crc16';
import { protocolError, type ProtocolError } from '../common/errors';
import { isPrintableAscii, toHex } from '../common/hex';
import type { DeviceType } from '../records';

/** What a (simulated) device receives from the server. */
export type DeviceInbound =
  | { kind: 'handshake'; accepted: boolean }
  | { kind: 'ack'; count?: number }
  | { kind: 'command'; text: string; isHex: boolean; bytes: Uint8Array };

export interface DeviceInboundResult {
  consumed: number;
  items: DeviceInbound[];
  error?: ProtocolError;
}

export interface DeviceInboundDecoder {
  decode(input: Uint8Array): DeviceInboundResult;
}

const MAX = 16 * 1024;
/** Ruptela server frames that only acknowledge (records, DTCs, identification, heartbeat). */
const RUPTELA_ACK_COMMANDS: ReadonlySet<number> = new Set([100, 109, 115, 116]);

function command(payload: Uint8Array): DeviceInbound {
  const printable = isPrintableAscii(payload);
  return {
    kind: 'command',
    text: printable ? bytesToAscii(payload) : toHex(payload),
    isHex: !printable,
    bytes: payload.slice(),
  };
}

/**
 * Device-side decoder of server -> device bytes, for the simulator: Teltonika handshake answer, ACKs
 * and Codec 12 commands; Ruptela ACK/answer frames and command frames; GoSafe `1234` acks and text
 * commands; iStartek `$$` commands. The same contract as the server decoders (never throws, partial
 * input -> consumed 0).
 */
export function createDeviceInboundDecoder(type: DeviceType): DeviceInboundDecoder {
  let handshakeDone = false;
  const step = (input: Uint8Array, at: number, items: DeviceInbound[]): number | ProtocolError => {
    const left = input.length - at;
    const view = new DataView(input.buffer, input.byteOffset + at, left);
    switch (type) {
      case 'teltonika': {
        if (!handshakeDone) {
          handshakeDone = true;
          items.push({ kind: 'handshake', accepted: input[at] === 0x01 });
          return 1;
        }
        if (left < 4) return 0;
        const first = view.getUint32(0);
        if (first !== 0) {
          items.push({ kind: 'ack', count: first });
          return 4;
        }
        if (left < 8) return 0;
        const dataLength = view.getUint32(4);
        if (dataLength === 0) {
          items.push({ kind: 'ack', count: 0 });
          return 4;
        }
        if (dataLength + 12 > MAX || dataLength < 8)
          return protocolError('bad_length', `command length ${dataLength}`);
        if (left < dataLength + 12) return 0;
        if (view.getUint32(dataLength + 8) !== crc16Ibm(input, at + 8, at + 8 + dataLength)) {
          return protocolError('crc_mismatch', 'command CRC mismatch');
        }
        if (input[at + 8] !== 0x0c) return protocolError('unsupported_codec', 'server frame is not Codec 12');
        const size = view.getUint32(11);
        if (size + 8 > dataLength)
          return protocolError('bad_length', 'command payload longer than its frame');
        items.push(command(input.subarray(at + 15, at + 15 + size)));
        return dataLength + 12;
      }
      case 'ruptela': {
        if (left < 2) return 0;
        const n = view.getUint16(0);
        if (n < 1 || n + 4 > MAX) return protocolError('bad_length', `frame length ${n}`);
        if (left < n + 4) return 0;
        if (view.getUint16(n + 2) !== crc16Kermit(input, at + 2, at + 2 + n)) {
          return protocolError('crc_mismatch', 'frame CRC mismatch');
        }
        const cmd = input[at + 2] as number;
        const payload = input.subarray(at + 3, at + 2 + n);
        if (RUPTELA_ACK_COMMANDS.has(cmd) && n === 2) {
          items.push({ kind: 'ack' });
        } else if (cmd === 108) items.push(command(payload));
        else items.push(command(input.subarray(at, at + n + 4)));
        return n + 4;
      }
      case 'gosafe': {
        if (left < 4) return 0;
        if (bytesToAscii(input.subarray(at, at + 4)) === '1234') {
          items.push({ kind: 'ack' });
          return 4;
        }
        // Commands end with `#` (kept, it is part of GoSafe text) or CRLF (dropped).
        const end = input.indexOf(0x0a, at);
        const hash = input.indexOf(0x23, at);
        const stop = [end, hash].filter((x) => x >= 0).sort((a, b) => a - b)[0];
        if (stop === undefined) return left > MAX ? protocolError('frame_too_large', 'no terminator') : 0;
        let textEnd = input[stop] === 0x23 ? stop + 1 : stop;
        if (input[stop] === 0x0a && textEnd > at && input[textEnd - 1] === 0x0d) textEnd -= 1;
        items.push(command(input.subarray(at, textEnd)));
        return stop + 1 - at;
      }
      case 'istartek': {
        const end = input.indexOf(0x0a, at);
        if (end < 0) return left > MAX ? protocolError('frame_too_large', 'no CRLF') : 0;
        const line = bytesToAscii(input.subarray(at, end + 1));
        const m = /^\$\$[\s\S](\d+),(\d+),([\s\S]*)[0-9A-F]{2}\r\n$/.exec(line);
        if (!m) return protocolError('malformed', 'not a $$ command');
        items.push({ kind: 'command', text: m[3] as string, isHex: false, bytes: input.slice(at, end + 1) });
        return end + 1 - at;
      }
      default:
        return protocolError('unsupported_command', `no inbound decoder for ${type}`);
    }
  };
  return {
    decode(input: Uint8Array): DeviceInboundResult {
      const items: DeviceInbound[] = [];
      let consumed = 0;
      while (consumed < input.length) {
        const r = step(input, consumed, items);
        if (typeof r !== 'number') return { consumed, items, error: r };
        if (r === 0) break;
        consumed += r;
      }
      return { consumed, items };
    },
  };
}
