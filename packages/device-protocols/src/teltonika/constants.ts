/** Teltonika codec ids (first byte of the AVL data field). */
export const CODEC_GH3000 = 0x07;
export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;
export const CODEC_12 = 0x0c;
export const CODEC_13 = 0x0d;
export const CODEC_16 = 0x10;

export type TeltonikaAvlCodec = typeof CODEC_8 | typeof CODEC_8E | typeof CODEC_16;

/**
 * Largest TCP frame we accept (preamble + length + data + CRC). Devices send at most a few KiB
 * (FMB AVL packets stay under 1280 bytes; Codec 12 camera chunks are ~2 KiB); a declared length
 * beyond this is refused before anything is buffered or allocated.
 */
export const TELTONIKA_MAX_FRAME_SIZE = 16 * 1024;
/** Largest UDP datagram we decode. */
export const TELTONIKA_MAX_DATAGRAM_SIZE = 16 * 1024;
/** Largest IMEI handshake length field we accept (IMEIs are 15 digits). */
export const TELTONIKA_MAX_IMEI_LENGTH = 20;

/** GH3000 timestamps count seconds from 2007-01-01T00:00:00Z. */
export const GH3000_EPOCH_SECONDS = 1_167_609_600;

/** Server replies to the IMEI handshake. */
export const TELTONIKA_IMEI_ACCEPT: Uint8Array = Uint8Array.of(0x01);
export const TELTONIKA_IMEI_REJECT: Uint8Array = Uint8Array.of(0x00);
