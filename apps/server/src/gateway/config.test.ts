import { describe, expect, it } from 'vitest';
import { gatewayConfig } from './config';
import { ConfigError, loadConfig } from '../config/config';

describe('gateway config', () => {
  it("defaults to Traccar's ports", () => {
    const c = gatewayConfig();
    expect([
      c.GATEWAY_TELTONIKA_PORT,
      c.GATEWAY_RUPTELA_PORT,
      c.GATEWAY_GOSAFE_PORT,
      c.GATEWAY_ISTARTEK_PORT,
      c.GATEWAY_OSMAND_PORT,
    ]).toEqual([5027, 5046, 5078, 5222, 5055]);
    expect(c.GATEWAY_UDP).toBe(true);
    expect(c.SIMULATOR).toBe(true);
    expect(c.MQTT_URL).toBeUndefined();
  });

  it.each([
    ['GATEWAY_RUPTELA_PORT', 'off', null],
    ['GATEWAY_RUPTELA_PORT', '0', 0],
    ['GATEWAY_RUPTELA_PORT', '6000', 6000],
    ['GATEWAY_UDP', 'off', false],
    ['SIMULATOR', 'off', false],
    ['COMMAND_TIMEOUT_S', '5', 5],
    ['MQTT_URL', 'mqtt://127.0.0.1:1883', 'mqtt://127.0.0.1:1883'],
  ])('%s=%s', (key, value, expected) => {
    expect(gatewayConfig({ [key]: value })[key as 'GATEWAY_UDP']).toEqual(expected);
  });

  it.each([
    ['GATEWAY_TELTONIKA_PORT', '70000'],
    ['GATEWAY_TELTONIKA_PORT', 'abc'],
    ['GATEWAY_MAX_FRAME_BYTES', '10'],
    ['MQTT_URL', 'http://broker'],
    ['GATEWAY_UDP', 'maybe'],
  ])('refuses %s=%s naming the variable in the server config', (key, value) => {
    expect(() => loadConfig({ [key]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [key]: value });
    } catch (e) {
      expect((e as ConfigError).issues[0]!.variable).toBe(key);
    }
  });
});
