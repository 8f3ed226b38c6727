import { describe, expect, it } from 'vitest';
import { encodeRuptelaServerFrame, createRuptelaSession } from '../ruptela';
import { createIStartekSession, encodeIStartekFrame } from '../istartek/codec';
import { crc16Kermit } from '../common/crc16';
import { asciiToBytes } from '../common/byte-reader';
import type { CommandResponse } from '../records';
import { answerKeyOf, commandAnswerKey, encodeDeviceCommand } from './commands';

const IMEI = '123456789012345';

function keyOf(
  type: Parameters<typeof encodeDeviceCommand>[0],
  command: Parameters<typeof encodeDeviceCommand>[2],
) {
  const r = encodeDeviceCommand(type, IMEI, command);
  if (!r.ok) throw new Error(r.error.message);
  return r.command.answerKey;
}

/** A Ruptela device -> server frame: length, IMEI (8 bytes), command, payload, CRC-16/KERMIT. */
function ruptelaDeviceFrame(command: number, payload: Uint8Array): Uint8Array {
  const body = new Uint8Array(8 + 1 + payload.length);
  new DataView(body.buffer).setBigUint64(0, BigInt(IMEI));
  body[8] = command;
  body.set(payload, 9);
  const out = new Uint8Array(2 + body.length + 2);
  new DataView(out.buffer).setUint16(0, body.length);
  out.set(body, 2);
  new DataView(out.buffer).setUint16(2 + body.length, crc16Kermit(body));
  return out;
}

function answers(messages: { type: string; response?: CommandResponse }[]): CommandResponse[] {
  return messages.filter((m) => m.type === 'command-response').map((m) => m.response!);
}

describe('command answer keys', () => {
  it('Ruptela: an SMS-via-GPRS command (108) is answered by command 7, a raw frame by its id - 100', () => {
    expect(keyOf('ruptela', { type: 'get_version' })).toBe('ruptela:7');
    const raw = encodeRuptelaServerFrame(103, new Uint8Array(0));
    const hex = Buffer.from(raw).toString('hex');
    expect(keyOf('ruptela', { type: 'custom', params: { data: hex } })).toBe('ruptela:3');
    const session = createRuptelaSession();
    const res = session.decode(ruptelaDeviceFrame(7, asciiToBytes('Ver 1.2')));
    const [a] = answers(res.messages);
    expect(a).toBeDefined();
    expect(answerKeyOf(a!)).toBe(keyOf('ruptela', { type: 'get_version' }));
    const ver = answers(
      createRuptelaSession().decode(ruptelaDeviceFrame(3, asciiToBytes('00.02.28'))).messages,
    );
    expect(answerKeyOf(ver[0]!)).toBe(keyOf('ruptela', { type: 'custom', params: { data: hex } }));
  });

  it('iStartek: the answer type repeats the command code', () => {
    expect(keyOf('istartek', { type: 'output1_on' })).toBe('istartek:900');
    expect(keyOf('istartek', { type: 'custom', params: { data: '10a,1' } })).toBe('istartek:10A');
    expect(keyOf('istartek', { type: 'custom', params: { data: 'hello' } })).toBeNull();
    const res = createIStartekSession().decode(encodeIStartekFrame(IMEI, '900', '1,1,OK'));
    const [a] = answers(res.messages);
    expect(answerKeyOf(a!)).toBe('istartek:900');
  });

  it('Teltonika and GoSafe answers carry no kind: one key per protocol (first in, first out)', () => {
    expect(keyOf('teltonika', { type: 'get_version' })).toBe('teltonika');
    expect(keyOf('gosafe', { type: 'custom', params: { data: '*GS02,123#' } })).toBe('gosafe');
    expect(
      answerKeyOf({ imei: IMEI, protocol: 'teltonika', text: 'Ver:03.27', isHex: false, responseType: 6 }),
    ).toBe('teltonika');
    expect(commandAnswerKey('door_technologies', new Uint8Array(0), '')).toBeNull();
  });
});
