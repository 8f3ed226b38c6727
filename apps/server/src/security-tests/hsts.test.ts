/** HSTS_MAX_AGE and TRUST_PROXY (issue 18, finding 9): deployments behind TLS can send HSTS. */
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { trustProxyOf } from '../app';

const harnesses: Harness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
});

describe('HSTS and trusted proxies', () => {
  it('sends Strict-Transport-Security only when HSTS_MAX_AGE is set', async () => {
    const off = await createHarness('hsts_off');
    const on = await createHarness('hsts_on', { HSTS_MAX_AGE: '31536000', TRUST_PROXY: '127.0.0.1' });
    harnesses.push(off, on);
    const a = await off.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(a.headers['strict-transport-security']).toBeUndefined();
    const b = await on.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(b.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Behind the trusted proxy the sign-in throttle sees the client's address, not the proxy's.
    const ip = await on.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { email: 'nobody@fleet.test', password: 'whatever-1' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(ip.statusCode).toBe(422);
    const rows = await on.storage.db.query<{ key: string }>('SELECT key FROM login_attempts');
    expect(rows.map((r) => r.key)).toContain('ip:203.0.113.7');
  });

  it('parses TRUST_PROXY', () => {
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('true')).toBe(true);
    expect(trustProxyOf('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    const hops = trustProxyOf('1') as (a: string, i: number) => boolean;
    expect([hops('x', 0), hops('x', 1)]).toEqual([true, false]);
  });
});
