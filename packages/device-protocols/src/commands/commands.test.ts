import { describe, expect, it } from 'vitest';
import { bytesToAscii } from '../common/byte-reader';
import { crc16Ibm, crc16Kermit } from '../common/crc16';
import { toHex } from '../common/hex';
import { deviceTypes } from '../records';
import {
  commandTypes,
  encodeDeviceCommand,
  supportedCommandMatrix,
  supportedCommands,
  type CommandType,
} from './commands';

const IMEI = '123456789012345';

/** Expected device text per (type, command); absent = unsupported. */
const expectedText: Record<string, Partial<Record<CommandType, string>>> = {
  teltonika: {
    change_ip_port: 'setparam 2004:gw.example.com;2005:5027',
    custom: 'setdigout 11',
    get_status: 'getstatus',
    get_version: 'getver',
    output1_on: 'setdigout 1?',
    output1_off: 'setdigout 0?',
    output2_on: 'setdigout ?1',
    output2_off: 'setdigout ?0',
    format_sd: 'sdformat',
    delete_records: 'delete_records',
    fota_web: 'web_connect',
    get_gps: 'getgps',
    immobilize: 'setdigout 1',
    unimmobilize: 'setdigout 0',
    set_odometer: 'odoset:12345',
    reset: 'cpureset',
  },
  ruptela: {
    custom: 'setdigout 11',
    get_version: ' version',
    get_gps: ' coords',
    output1_on: ' Setio 1,1',
    output1_off: ' Setio 1,0',
    output2_on: ' Setio 2,1',
    output2_off: ' Setio 2,0',
    immobilize: ' Setio 1,1',
    unimmobilize: ' Setio 1,0',
    reset: ' reset',
  },
  istartek: {
    custom: 'setdigout 11',
    output1_on: '900,1,1',
    output1_off: '900,1,0',
    output2_on: '900,2,1',
    output2_off: '900,2,0',
    immobilize: '900,1,1',
    unimmobilize: '900,1,0',
  },
  gosafe: { custom: 'setdigout 11' },
  door_technologies: {},
};

const params = { host: 'gw.example.com', port: 5027, data: 'setdigout 11', odometerKm: 12345 };

describe('device commands', () => {
  const matrix = deviceTypes.flatMap((t) => commandTypes.map((c) => [t, c] as const));

  it.each(matrix)('%s / %s', (type, command) => {
    const result = encodeDeviceCommand(type, IMEI, { type: command, params });
    const text = expectedText[type]?.[command];
    if (text === undefined) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('unsupported_command');
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.command.text).toBe(text);
    expect(result.command.needsPasswordVerification).toBe(
      command === 'immobilize' || command === 'unimmobilize',
    );
    const bytes = result.command.bytes;
    if (type === 'teltonika') {
      // Codec 12 frame: preamble, size, 0c 01 05, length, text, 01, CRC-16/IBM.
      expect(toHex(bytes.subarray(0, 4))).toBe('00000000');
      expect(bytes[8]).toBe(0x0c);
      expect(bytes[10]).toBe(0x05);
      expect(bytesToAscii(bytes.subarray(15, 15 + text.length))).toBe(text);
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      expect(view.getUint32(bytes.length - 4)).toBe(crc16Ibm(bytes, 8, bytes.length - 4));
    } else if (type === 'ruptela') {
      expect(bytes[2]).toBe(108);
      expect(bytesToAscii(bytes.subarray(3, bytes.length - 2))).toBe(text);
      expect((bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!).toBe(
        crc16Kermit(bytes, 2, bytes.length - 2),
      );
    } else if (type === 'istartek') {
      expect(bytesToAscii(bytes)).toMatch(new RegExp(`^\\$\\$:\\d+,${IMEI},${text}[0-9A-F]{2}\\r\\n$`));
    } else {
      expect(bytesToAscii(bytes)).toBe(`${text}\r\n`);
    }
  });

  it('supportedCommands follows the spec order and the matrix covers every device type', () => {
    expect(supportedCommands('teltonika')).toEqual([...commandTypes]);
    expect(supportedCommands('door_technologies')).toEqual([]);
    expect(Object.keys(supportedCommandMatrix()).sort()).toEqual([...deviceTypes].sort());
  });

  it.each([
    ['teltonika', { type: 'change_ip_port' as const, params: { host: 'x' } }, 'invalid_argument'],
    [
      'teltonika',
      { type: 'change_ip_port' as const, params: { host: 'bad host!', port: 1 } },
      'invalid_argument',
    ],
    ['teltonika', { type: 'set_odometer' as const, params: { odometerKm: -5 } }, 'invalid_argument'],
    ['teltonika', { type: 'custom' as const, params: { data: 'a\nb' } }, 'invalid_argument'],
    ['ruptela', { type: 'custom' as const }, 'invalid_argument'],
    ['istartek', { type: 'get_status' as const }, 'unsupported_command'],
  ] as const)('%s %j -> %s', (type, command, code) => {
    const result = encodeDeviceCommand(type, IMEI, command);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(code);
  });

  it('custom hex is sent raw for Teltonika (inside Codec 12) and Ruptela (as the whole frame)', () => {
    const t = encodeDeviceCommand('teltonika', IMEI, {
      type: 'custom',
      params: { data: '03030000000185E8' },
    });
    expect(t.ok && toHex(t.command.bytes)).toBe('00000000000000100c01050000000803030000000185e8010000da8b');
    const r = encodeDeviceCommand('ruptela', IMEI, {
      type: 'custom',
      params: { data: '000b890100000000007fffffff89f0' },
    });
    expect(r.ok && toHex(r.command.bytes)).toBe('000b890100000000007fffffff89f0');
  });
});
