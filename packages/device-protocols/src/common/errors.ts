/**
 * Typed protocol errors. Decoders never throw: they return a `ProtocolError` in their result and the
 * gateway closes the connection (the error `code` is meant for a log line and for metrics).
 */
export const protocolErrorCodes = [
  'truncated',
  'bad_length',
  'frame_too_large',
  'crc_mismatch',
  'bad_preamble',
  'bad_header',
  'unsupported_codec',
  'count_mismatch',
  'not_identified',
  'bad_imei',
  'malformed',
  'unsupported_command',
  'invalid_argument',
] as const;

export type ProtocolErrorCode = (typeof protocolErrorCodes)[number];

export interface ProtocolError {
  readonly code: ProtocolErrorCode;
  readonly message: string;
  /** Byte offset (inside the decoded frame) where the problem was found, when known. */
  readonly offset?: number;
}

export function protocolError(code: ProtocolErrorCode, message: string, offset?: number): ProtocolError {
  return offset === undefined ? { code, message } : { code, message, offset };
}

/**
 * Internal exception used by {@link ByteReader} to unwind out of a nested read. Every public decoder
 * catches it at its boundary and converts it into a {@link ProtocolError}; it never escapes the package.
 * Deliberately not an `Error` subclass: malformed input is routine for a gateway, and capturing a stack
 * trace on every rejected frame would make garbage expensive to refuse.
 */
export class ProtocolFault {
  readonly code: ProtocolErrorCode;
  readonly message: string;
  readonly offset: number | undefined;

  constructor(code: ProtocolErrorCode, message: string, offset?: number) {
    this.code = code;
    this.message = message;
    this.offset = offset;
  }

  toError(): ProtocolError {
    return protocolError(this.code, this.message, this.offset);
  }
}

/**
 * Converts anything caught at a decoder boundary into a typed error. A non-`ProtocolFault` means a
 * decoder bug; it is still reported as `malformed` rather than crashing the caller.
 */
export function toProtocolError(caught: unknown): ProtocolError {
  if (caught instanceof ProtocolFault) return caught.toError();
  const message = caught instanceof Error ? caught.message : String(caught);
  return protocolError('malformed', `decoder failure: ${message}`);
}

/** Thrown by encoders (our own inputs, e.g. the simulator) when asked to encode something impossible. */
export class ProtocolEncodeError extends Error {
  readonly code: ProtocolErrorCode;

  constructor(code: ProtocolErrorCode, message: string) {
    super(message);
    this.name = 'ProtocolEncodeError';
    this.code = code;
  }
}
