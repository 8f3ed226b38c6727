/**
 * CRC-16 variants used by the trackers, table driven.
 * - IBM / ARC (Teltonika): reflected polynomial 0xA001 (0x8005), init 0, no final xor.
 * - KERMIT (Ruptela): reflected polynomial 0x8408 (0x1021), init 0, no final xor; the value is
 *   compared as the natural integer (Ruptela sends it big-endian).
 */
function makeTable(poly: number): Uint16Array {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
    table[n] = c;
  }
  return table;
}

const IBM_TABLE = makeTable(0xa001);
const KERMIT_TABLE = makeTable(0x8408);

function reflected(table: Uint16Array, data: Uint8Array, start: number, end: number): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc = (crc >>> 8) ^ (table[(crc ^ (data[i] as number)) & 0xff] as number);
  }
  return crc & 0xffff;
}

export function crc16Ibm(data: Uint8Array, start = 0, end = data.length): number {
  return reflected(IBM_TABLE, data, start, end);
}

export function crc16Kermit(data: Uint8Array, start = 0, end = data.length): number {
  return reflected(KERMIT_TABLE, data, start, end);
}
