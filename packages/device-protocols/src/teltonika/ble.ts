import type { AttributeValue } from '../records';
import { toHex } from '../common/hex';

/** NX (variable length) IO ids carrying BLE tag / EYE sensor blocks. */
export const BLE_IO_IDS: ReadonlySet<number> = new Set([548, 10828, 10829, 10830, 10831]);

/**
 * Decodes a Teltonika BLE sensor block (IO 548 "advanced beacons", IO 10828-10831 EYE sensors):
 * one header byte, then per tag `u8 blockLength` followed by TLV entries `u8 param, u8 len, value`.
 * Known params: 0 RSSI (signed dBm), 1 tag id / MAC (hex), 2 voltage (2-byte form: flags byte then
 * `2000 + 10 * b` mV), 0x0d low-battery flag, 0x0e battery voltage (mV). Unknown params are kept
 * as hex (`tag<n>Param<p>`). Malformed blocks stop the walk; nothing is ever read past the value.
 * Attribute names follow Traccar (`tag1Voltage`, `tag1Battery`, ...) so vectors compare 1:1.
 */
export function decodeBleTags(
  data: Uint8Array,
  into: Record<string, AttributeValue>,
  firstIndex = 1,
): number {
  let index = firstIndex;
  let pos = 1;
  while (pos < data.length) {
    const blockLength = data[pos] as number;
    const blockEnd = pos + 1 + blockLength;
    if (blockLength === 0 || blockEnd > data.length) break;
    let p = pos + 1;
    const prefix = `tag${index}`;
    while (p + 2 <= blockEnd) {
      const param = data[p] as number;
      const len = data[p + 1] as number;
      const v = p + 2;
      if (v + len > blockEnd) break;
      const value = data.subarray(v, v + len);
      if (param === 0 && len === 1) into[`${prefix}Rssi`] = ((value[0] as number) << 24) >> 24;
      else if (param === 1) into[`${prefix}Id`] = toHex(value);
      else if (param === 2 && len === 2) into[`${prefix}Voltage`] = 2000 + (value[1] as number) * 10;
      else if (param === 0x0d && len === 1) into[`${prefix}LowBattery`] = (value[0] as number) !== 0;
      else if (param === 0x0e && len === 2)
        into[`${prefix}Battery`] = ((value[0] as number) << 8) | (value[1] as number);
      else into[`${prefix}Param${param}`] = toHex(value);
      p = v + len;
    }
    index += 1;
    pos = blockEnd;
  }
  return index;
}
