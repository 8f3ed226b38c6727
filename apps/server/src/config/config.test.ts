import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      FLEET_DEMO_PASSWORD: 'demo12345',
      CORS_ORIGINS: [],
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.NATS_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['NATS_URL', 'http://x'],
    ['FLEET_DEMO_PASSWORD', 'short'],
    ['BODY_LIMIT', '-1'],
    ['FLEET_SEED_DEMO', 'maybe'],
    ['FLEET_TIME_ZONE', 'Mars/Olympus'],
    ['PIPELINE_TICK_MS', '5'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain(name);
    expect((err as ConfigError).issues[0]?.variable).toBe(name);
  });

  it('parses lists and booleans', () => {
    const c = loadConfig({ CORS_ORIGINS: 'http://a.test, http://b.test', FLEET_SEED_DEMO: 'off', PORT: '0' });
    expect(c.CORS_ORIGINS).toEqual(['http://a.test', 'http://b.test']);
    expect(c.FLEET_SEED_DEMO).toBe(false);
    expect(c.PORT).toBe(0);
  });
});
