import { describe, expect, it } from 'vitest';
import { encodeDeviceCommand, supportedCommands } from '../commands/commands';
import { concatBytes } from '../common/byte-writer';
import { fromHex } from '../common/hex';
import { GOSAFE_ACK } from '../gosafe';
import { deviceTypes } from '../records';
import { RUPTELA_RECORDS_ACK } from '../ruptela/constants';
import { teltonikaHandshakeReply, teltonikaTcpAck } from '../teltonika/tcp';
import { createDeviceInboundDecoder } from './device-inbound';

const IMEI = '123456789012345';
const params = { host: 'gw.example.com', port: 5027, data: 'getinfo', odometerKm: 10 };

describe('device-side decoding of server bytes (simulator)', () => {
  const cases = deviceTypes.flatMap((t) => supportedCommands(t).map((c) => [t, c] as const));

  it.each(cases)('%s device receives %s as sent', (type, commandType) => {
    const encoded = encodeDeviceCommand(type, IMEI, { type: commandType, params });
    if (!encoded.ok) throw new Error(encoded.error.message);
    const decoder = createDeviceInboundDecoder(type);
    if (type === 'teltonika') decoder.decode(teltonikaHandshakeReply(true));
    const r = decoder.decode(encoded.command.bytes);
    expect(r.error).toBeUndefined();
    expect(r.consumed).toBe(encoded.command.bytes.length);
    expect(r.items).toEqual([expect.objectContaining({ kind: 'command', text: encoded.command.text })]);
  });

  it('teltonika: handshake answer, ACKs and a command in one stream, byte by byte', () => {
    const cmd = encodeDeviceCommand('teltonika', IMEI, { type: 'get_gps' });
    if (!cmd.ok) throw new Error('encode');
    const stream = concatBytes([
      teltonikaHandshakeReply(true),
      teltonikaTcpAck(3),
      cmd.command.bytes,
      teltonikaTcpAck(1),
    ]);
    const decoder = createDeviceInboundDecoder('teltonika');
    const items = [];
    let buffer: Uint8Array = new Uint8Array(0);
    for (const byte of stream) {
      buffer = concatBytes([buffer, Uint8Array.of(byte)]);
      const r = decoder.decode(buffer);
      items.push(...r.items);
      buffer = buffer.slice(r.consumed);
    }
    expect(items).toEqual([
      { kind: 'handshake', accepted: true },
      { kind: 'ack', count: 3 },
      expect.objectContaining({ kind: 'command', text: 'getgps' }),
      { kind: 'ack', count: 1 },
    ]);
  });

  it('acks of Ruptela and GoSafe; rejection of the handshake', () => {
    expect(createDeviceInboundDecoder('ruptela').decode(RUPTELA_RECORDS_ACK).items).toEqual([
      { kind: 'ack' },
    ]);
    expect(createDeviceInboundDecoder('gosafe').decode(GOSAFE_ACK).items).toEqual([{ kind: 'ack' }]);
    expect(createDeviceInboundDecoder('teltonika').decode(teltonikaHandshakeReply(false)).items).toEqual([
      { kind: 'handshake', accepted: false },
    ]);
  });

  it.each([
    ['teltonika', fromHex('01' + '00000000ffffffff'), 'bad_length'],
    ['ruptela', fromHex('000264010000'), 'crc_mismatch'],
    ['istartek', new TextEncoder().encode('hello\r\n'), 'malformed'],
  ] as const)('%s garbage -> %s', (type, bytes, code) => {
    expect(createDeviceInboundDecoder(type).decode(bytes).error?.code).toBe(code);
  });
});
