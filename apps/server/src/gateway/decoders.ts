import {
  createGoSafeSession,
  createIStartekSession,
  createRuptelaSession,
  createTeltonikaSession,
  type DecodeResult,
  type DecodedRecord,
} from '@fleet/device-protocols';

/** The four binary/text device protocols that hold a TCP connection. */
export const streamProtocols = ['teltonika', 'ruptela', 'gosafe', 'istartek'] as const;
export type StreamProtocol = (typeof streamProtocols)[number];

/** One connection's decoder: the codecs' session API (buffering of partial frames is the caller's). */
export interface StreamDecoder {
  decode(input: Uint8Array): DecodeResult;
  /** Records a decoder still holds (Ruptela split records) when the connection ends. */
  flush(): DecodedRecord[];
}

export function createStreamDecoder(protocol: StreamProtocol, maxFrameSize: number): StreamDecoder {
  switch (protocol) {
    case 'teltonika': {
      const s = createTeltonikaSession({ maxFrameSize: Math.min(maxFrameSize, 65_536) });
      return { decode: (b) => s.decode(b), flush: () => [] };
    }
    case 'ruptela': {
      const s = createRuptelaSession();
      return { decode: (b) => s.decode(b), flush: () => s.flush() };
    }
    case 'gosafe': {
      const s = createGoSafeSession();
      return { decode: (b) => s.decode(b), flush: () => [] };
    }
    case 'istartek': {
      const s = createIStartekSession();
      return { decode: (b) => s.decode(b), flush: () => [] };
    }
  }
}
