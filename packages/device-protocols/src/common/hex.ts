const HEX = '0123456789abcdef';

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    out += (HEX[b >> 4] as string) + (HEX[b & 15] as string);
  }
  return out;
}

export function isHex(text: string): boolean {
  return text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text);
}

/** Parses an even-length hex string; returns `undefined` for anything else (never throws). */
export function tryFromHex(text: string): Uint8Array | undefined {
  if (!isHex(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
  return out;
}

/** Hex string to bytes; throws a `TypeError` on invalid input (for fixtures and encoders only). */
export function fromHex(text: string): Uint8Array {
  const out = tryFromHex(text.replace(/\s+/g, ''));
  if (!out) throw new TypeError(`invalid hex string: ${text.slice(0, 40)}`);
  return out;
}

/** True when every byte is printable ASCII or CR/LF/TAB (command answers are shown as text then). */
export function isPrintableAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if ((b < 0x20 || b > 0x7e) && b !== 0x0d && b !== 0x0a && b !== 0x09) return false;
  }
  return true;
}
