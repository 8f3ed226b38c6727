import { ByteReader } from '../common/byte-reader';
import { ByteWriter } from '../common/byte-writer';
import { protocolError, toProtocolError } from '../common/errors';
import type { DecodeResult, DecodedRecord } from '../records';
import { decodeAvlRecords, isAvlCodec, writeAvlData, type TeltonikaRecordOptions } from './avl';
import {
  CODEC_8E,
  TELTONIKA_MAX_DATAGRAM_SIZE,
  TELTONIKA_MAX_IMEI_LENGTH,
  type TeltonikaAvlCodec,
} from './constants';

/**
 * UDP ACK (7 bytes): `0005`, packet id, `01`, AVL packet id, accepted record count. Traccar writes
 * packet id 0; we echo the request's id (devices check only the AVL packet id and the count).
 */
export function teltonikaUdpAck(packetId: number, avlPacketId: number, count: number): Uint8Array {
  return Uint8Array.of(
    0x00,
    0x05,
    (packetId >> 8) & 0xff,
    packetId & 0xff,
    0x01,
    avlPacketId & 0xff,
    count & 0xff,
  );
}

export interface TeltonikaUdpHeader {
  packetId: number;
  avlPacketId: number;
  imei: string;
}

/**
 * Decodes one UDP datagram: `uint16 length`, `uint16 packet id`, `u8 packet type`, `u8 AVL packet id`,
 * `uint16 imei length`, IMEI, then the AVL data field (no preamble, no CRC). `consumed` is the datagram
 * length on success. Never throws.
 */
export function decodeTeltonikaUdp(
  datagram: Uint8Array,
  options: TeltonikaRecordOptions = {},
): DecodeResult & { header?: TeltonikaUdpHeader } {
  if (datagram.length > TELTONIKA_MAX_DATAGRAM_SIZE) {
    return {
      consumed: 0,
      messages: [],
      error: protocolError('frame_too_large', 'datagram exceeds the size limit'),
    };
  }
  try {
    const r = new ByteReader(datagram);
    const length = r.u16();
    if (length !== datagram.length - 2) {
      return {
        consumed: 0,
        messages: [],
        error: protocolError(
          'bad_length',
          `length field ${length} but ${datagram.length - 2} bytes follow`,
          0,
        ),
      };
    }
    const packetId = r.u16();
    r.u8(); // packet type (0x01: no ACK requested is not used in practice; we always ACK)
    const avlPacketId = r.u8();
    const imeiLength = r.u16();
    if (imeiLength === 0 || imeiLength > TELTONIKA_MAX_IMEI_LENGTH) {
      return { consumed: 0, messages: [], error: protocolError('bad_imei', `IMEI length ${imeiLength}`, 6) };
    }
    const imei = r.ascii(imeiLength, 'IMEI');
    if (!/^\d+$/.test(imei))
      return { consumed: 0, messages: [], error: protocolError('bad_imei', 'IMEI is not digits', 8) };
    const codec = datagram[r.pos];
    if (codec === undefined || !isAvlCodec(codec)) {
      return {
        consumed: 0,
        messages: [],
        error: protocolError('unsupported_codec', 'UDP carries AVL codecs only', r.offset),
      };
    }
    const records = decodeAvlRecords(datagram, r.pos, datagram.length, imei, options);
    return {
      consumed: datagram.length,
      messages: [{ type: 'records', protocol: 'teltonika', imei, records }],
      reply: teltonikaUdpAck(packetId, avlPacketId, records.length),
      header: { packetId, avlPacketId, imei },
    };
  } catch (caught) {
    return { consumed: 0, messages: [], error: toProtocolError(caught) };
  }
}

/** Device -> server UDP datagram carrying AVL records. */
export function encodeTeltonikaUdp(
  imei: string,
  records: readonly DecodedRecord[],
  ids: { packetId: number; avlPacketId: number },
  codec: TeltonikaAvlCodec = CODEC_8E,
): Uint8Array {
  const w = new ByteWriter(64 + records.length * 64);
  w.u16(0)
    .u16(ids.packetId & 0xffff)
    .u8(0x01)
    .u8(ids.avlPacketId & 0xff)
    .u16(imei.length);
  for (let i = 0; i < imei.length; i++) w.u8(imei.charCodeAt(i) & 0xff);
  writeAvlData(w, records, codec);
  w.patchU16(0, w.length - 2);
  return w.toBytes();
}
