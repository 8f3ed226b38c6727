import { describe, expect, it } from 'vitest';
import { commandActivityAttributes } from './activity';

describe('commandActivityAttributes', () => {
  it.each([
    [
      'change_ip_port',
      { host: 'gw.example.com', port: 5027, extra: 'x' },
      { host: 'gw.example.com', port: 5027 },
    ],
    ['set_odometer', { value: 120_000 }, { value: 120_000 }],
    ['custom', { text: 'setparam 2003:secret' }, { text_length: 20 }],
    [
      'fota_web',
      { url: 'https://user:pass@fw.example.com/fw/1.bin?sig=abc#x' },
      { url: 'https://fw.example.com/fw/1.bin' },
    ],
    ['fota_web', { url: 'not a url' }, {}],
    ['fota_web', {}, {}],
    ['immobilize', { verification_token: 't', password: 'p' }, {}],
    ['get_version', { anything: 1 }, {}],
  ])('%s %j -> %j', (type, attributes, expected) => {
    expect(commandActivityAttributes(type, attributes)).toEqual(expected);
  });
});
