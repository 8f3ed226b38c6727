import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { endpoints, type EndpointName } from '@fleet/api-client';
import {
  createPrng,
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  type DecodedRecord,
} from '@fleet/device-protocols';
import { call, createHarness, PASSWORD, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { startGateway } from '../gateway/gateway';
import { gatewayConfig } from '../gateway/config';

/**
 * What attackers try, each expecting a clear refusal and nothing leaked or broken: forged, tampered,
 * expired and revoked tokens; brute-force sign-in; malformed, oversize and wrongly shaped bodies on
 * every write endpoint of the contract; uploads whose bytes are not what they claim; path traversal on
 * /v1/file; a WebSocket for a company the user does not belong to; garbage device frames at volume
 * against the gateway. Runs on PGlite in the normal test command (PostgreSQL with DATABASE_URL).
 */
let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('security_attacks');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const names = Object.keys(endpoints) as EndpointName[];

describe('tokens', () => {
  it('missing, forged, tampered, expired and revoked tokens get 401 everywhere', async () => {
    const good = w.users.adminA.token;
    const tampered = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
    const [expiredUser] = await h.storage.db.query<{ id: number }>(`SELECT id FROM users WHERE email = $1`, [
      'admin.b@fleet.test',
    ]);
    await h.storage.db.query(
      // Expired one minute ago on the server's clock (the harness injects a fixed one).
      `UPDATE sessions SET expires_at = $2::timestamptz WHERE user_id = $1`,
      [expiredUser!.id, new Date(h.clock.now.getTime() - 60_000).toISOString()],
    );
    const logout = await call(h.app, { method: 'DELETE', url: '/v1/logout', token: w.users.multi.token });
    expect(logout.statusCode).toBeLessThan(300);
    const bad: (string | undefined)[] = [
      undefined,
      tampered,
      w.users.adminB.token,
      w.users.multi.token,
      'x'.repeat(64),
      "' OR 1=1 --",
    ];
    const targets = [
      { method: 'GET' as const, url: '/v1/auth' },
      { method: 'GET' as const, url: '/v1/vehicles', company: w.a.uuid },
      {
        method: 'POST' as const,
        url: '/v1/drivers',
        company: w.a.uuid,
        body: { first_name: 'X', last_name: 'Y' },
      },
    ];
    for (const token of bad) {
      for (const t of targets) {
        const headers =
          token && !/^[A-Za-z0-9_-]+$/.test(token) ? { authorization: `Bearer ${token}` } : undefined;
        const r = await call(h.app, {
          ...t,
          token: headers ? undefined : token,
          ...(headers ? { headers } : {}),
        });
        expect(r.statusCode, `${t.method} ${t.url} with ${String(token).slice(0, 8)}`).toBe(401);
      }
    }
    const [drivers] = await h.storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM drivers');
    expect(drivers!.n).toBe(0);
    // The untouched token still works (the refusals above did not lock anything).
    expect((await call(h.app, { method: 'GET', url: '/v1/auth', token: good })).statusCode).toBe(200);
  });
});

describe('brute-force sign-in', () => {
  const login = (email: string, password: string, ip: string) =>
    h.app.inject({ method: 'POST', url: '/v1/login', payload: { email, password }, remoteAddress: ip });

  it('slows the guessing address down, even against the right password, but never locks the owner out elsewhere', async () => {
    for (let i = 0; i < 5; i++)
      expect((await login('admin.a@fleet.test', `guess-${i}-x`, '10.0.0.1')).statusCode).toBe(422);
    const r = await login('admin.a@fleet.test', PASSWORD, '10.0.0.1');
    expect(r.statusCode).toBe(429);
    expect(r.body).not.toContain('token');
    // Issue 18 finding 6: the owner at another address is not locked out by a stranger's guesses.
    expect((await login('admin.a@fleet.test', PASSWORD, '10.0.0.2')).statusCode).toBe(200);
  });

  it('throttles one address spraying many accounts', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 35; i++)
      codes.push((await login(`user${i}@fleet.test`, 'password-guess', '10.9.9.9')).statusCode);
    expect(codes.slice(0, 5).every((c) => c === 422)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Another address is not affected.
    expect((await login('admin.b@fleet.test', PASSWORD, '10.1.1.1')).statusCode).toBe(200);
  });
});

describe('bodies', () => {
  const writes = names.filter(
    (n) =>
      endpoints[n].method !== 'GET' &&
      (endpoints[n] as { body?: unknown }).body !== undefined &&
      (endpoints[n] as { bodyType?: string }).bodyType !== 'multipart' &&
      !endpoints[n].path.includes(':token'),
  );
  const url = (n: EndpointName) =>
    endpoints[n].path
      .replace(':uuid', '00000000-0000-4000-8000-000000000000')
      .replace(':country_code', 'AE')
      .replace(':kind', 'images');

  it.each(writes)('%s: malformed, wrongly shaped and oversize bodies are refused, never a 500', async (n) => {
    const ep = endpoints[n];
    const send = (payload: string, type = 'application/json') =>
      h.app.inject({
        method: ep.method,
        url: url(n),
        headers: {
          authorization: `Bearer ${w.users.adminA.token}`,
          'x-transport-uuid': w.a.uuid,
          'content-type': type,
        },
        payload,
      });
    const cases: [string, string?][] = [
      ['{"a":'],
      ['{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}'],
      ['[]'],
      ['"text"'],
      ['null'],
      ['{"email": {"$ne": null}, "password": ["a"], "status": 12, "name": {"x": 1}}'],
      ['['.repeat(5000) + ']'.repeat(5000)],
      ['{"a":1}', 'text/plain'],
      ['<xml/>', 'application/xml'],
    ];
    for (const [payload, type] of cases) {
      const r = await send(payload, type);
      expect(r.statusCode, `${n} ${payload.slice(0, 30)} -> ${r.body.slice(0, 120)}`).toBeGreaterThanOrEqual(
        400,
      );
      expect(r.statusCode, `${n} ${payload.slice(0, 30)} -> ${r.body.slice(0, 120)}`).toBeLessThan(500);
    }
    const big = await send(JSON.stringify({ name: 'x'.repeat(h.config.BODY_LIMIT + 10) }));
    expect(big.statusCode, `${n} oversize`).toBe(413);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

describe('files', () => {
  const upload = (kind: string, filename: string, content: Buffer) => {
    const boundary = '----fleetsec';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return h.app.inject({
      method: 'POST',
      url: `/v1/files/${kind}`,
      headers: {
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
  };

  it('refuses uploads whose magic bytes are not an allowed type, whatever the name and header say', async () => {
    const fakes: [string, Buffer][] = [
      ['avatar.png', Buffer.from('<script>alert(1)</script>')],
      ['photo.jpg', Buffer.from('MZ\x90\x00\x03\x00\x00\x00 this is a windows executable')],
      ['image.png', Buffer.from('#!/bin/sh\nrm -rf /\n')],
      ['x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
      ['page.html', Buffer.from('<!doctype html><html><body>hi</body></html>')],
      ['empty.png', Buffer.alloc(0)],
    ];
    for (const kind of ['avatars', 'images', 'documents']) {
      for (const [name, content] of fakes) {
        const r = await upload(kind, name, content);
        expect(r.statusCode, `${kind}/${name} -> ${r.body.slice(0, 100)}`).toBe(422);
      }
    }
    const oversize = await upload(
      'images',
      'big.png',
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.alloc(h.config.UPLOAD_LIMIT + 1),
      ]),
    );
    expect(oversize.statusCode).toBe(413);
    const [files] = await h.storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM files');
    expect(files!.n).toBe(0);
  });

  it('refuses path traversal on /v1/file/:kind/:name', async () => {
    const attempts = [
      '/v1/file/images/..%2F..%2F..%2Fetc%2Fpasswd',
      '/v1/file/images/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/v1/file/../../etc/passwd',
      '/v1/file/images/....//....//etc/passwd',
      '/v1/file/..%2F..%2Fpackage.json/x',
      '/v1/file/images/%2Fetc%2Fpasswd',
      '/v1/file/images/..\\..\\windows\\win.ini',
      '/v1/file/images/a%00.png',
      '/v1/file/exports/' + 'a'.repeat(5000),
    ];
    for (const u of attempts) {
      const r = await h.app.inject({
        method: 'GET',
        url: u,
        headers: { authorization: `Bearer ${w.users.adminA.token}`, 'x-transport-uuid': w.a.uuid },
      });
      expect([400, 403, 404, 414, 422], `${u.slice(0, 60)} -> ${r.statusCode}`).toContain(r.statusCode);
      expect(r.body).not.toMatch(/root:|\[fonts\]|"workspaces"/);
    }
  });
});

describe('real-time socket', () => {
  it('refuses a WebSocket for a company the user does not belong to, and forged tokens', async () => {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = address.replace(/^http/, 'ws');
    const attempt = (path: string, token: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${base}${path}?token=${token}`);
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => resolve(-1));
      });
    const a = w.users.adminA;
    expect(await attempt(`/ws/${w.b.uuid}/${a.uuid}`, a.token)).toBe(403);
    expect(await attempt(`/ws/${w.a.uuid}/${w.users.adminB.uuid}`, a.token)).toBe(403);
    expect(await attempt(`/ws/${w.a.uuid}/${a.uuid}`, a.token.slice(0, -2) + 'zz')).toBe(401);
    expect(await attempt(`/ws/not-a-uuid/${a.uuid}`, a.token)).toBe(403);
    expect(await attempt(`/ws/${w.a.uuid}/${a.uuid}`, a.token)).toBe(101);
  });
});

describe('device gateway', () => {
  it('survives thousands of malformed frames: each bad connection closed, valid devices still served', async () => {
    const [dev] = await h.storage.db.query<{ id: number }>(
      `INSERT INTO devices (company_id, imei, type, make, model) VALUES ($1, '356307042441013', 'teltonika', 'x', 'y') RETURNING id`,
      [w.a.id],
    );
    const gw = await startGateway({
      config: gatewayConfig({
        GATEWAY_TELTONIKA_PORT: '0',
        GATEWAY_RUPTELA_PORT: '0',
        GATEWAY_GOSAFE_PORT: '0',
        GATEWAY_ISTARTEK_PORT: 'off',
        GATEWAY_OSMAND_PORT: 'off',
        GATEWAY_UDP: 'off',
        GATEWAY_MAX_CONNECTIONS_PER_IP: '100000',
      }),
      storage: h.storage,
      bus: h.bus,
    });
    try {
      const rnd = createPrng(9);
      const record: DecodedRecord = {
        imei: '356307042441013',
        protocol: 'teltonika',
        fixTime: Date.parse('2026-11-20T09:00:00Z'),
        valid: true,
        latitude: 25.2,
        longitude: 55.3,
        altitude: 1,
        speed: 10,
        course: 0,
        satellites: 8,
        eventId: 0,
        io: { 239: 1 },
      };
      const good = encodeTeltonikaAvl([record]);
      const frames: Buffer[] = [];
      for (let i = 0; i < 1500; i++) {
        const kind = i % 5;
        const junk = Buffer.from(
          Array.from({ length: 1 + Math.floor(rnd.next() * 300) }, () => Math.floor(rnd.next() * 256)),
        );
        if (kind === 0) frames.push(junk);
        else if (kind === 1) {
          // Handshake of the known device, then a valid frame with a flipped byte (bad CRC / garbage).
          const bad = Buffer.from(good);
          bad[12 + Math.floor(rnd.next() * (bad.length - 16))]! ^= 0xff;
          frames.push(Buffer.concat([Buffer.from(encodeTeltonikaImei('356307042441013')), bad]));
        } else if (kind === 2) frames.push(Buffer.from([0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, ...junk]));
        else if (kind === 3) frames.push(Buffer.concat([Buffer.from([0, 200]), junk]));
        else frames.push(Buffer.from(encodeTeltonikaImei('9'.repeat(15))));
      }
      const ports = [gw.ports.teltonika!, gw.ports.ruptela!, gw.ports.gosafe!];
      let sent = 0;
      const blast = async (lane: number) => {
        for (let i = lane; i < frames.length; i += 25) {
          await new Promise<void>((resolve) => {
            const s = connect({ port: ports[i % ports.length]!, host: '127.0.0.1' });
            const done = () => {
              clearTimeout(t);
              s.destroy();
              resolve();
            };
            const t = setTimeout(done, 500);
            s.on('connect', () => {
              s.write(frames[i]!);
              sent++;
            });
            s.on('close', done);
            s.on('error', done);
          });
        }
      };
      await Promise.all(Array.from({ length: 25 }, (_, lane) => blast(lane)));
      expect(sent).toBe(frames.length);
      expect(gw.stats.framesRejected).toBeGreaterThan(100);
      // Nothing from the garbage was stored.
      const [n] = await h.storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM locations');
      expect(n!.n).toBe(0);

      // A well-behaved device is still served: handshake accepted, frame ACKed with 1, record stored.
      const reply = await new Promise<Buffer>((resolve, reject) => {
        const s = connect({ port: gw.ports.teltonika!, host: '127.0.0.1' });
        let buf = Buffer.alloc(0);
        s.on('connect', () => s.write(encodeTeltonikaImei('356307042441013')));
        s.on('data', (c: Buffer) => {
          const first = buf.length === 0;
          buf = Buffer.concat([buf, c]);
          if (first && buf[0] === 1) s.write(good);
          if (buf.length >= 5) {
            s.destroy();
            resolve(buf);
          }
        });
        s.on('error', reject);
        setTimeout(() => reject(new Error('no ACK')), 5000);
      });
      expect(reply[0]).toBe(1);
      expect(reply.readUInt32BE(1)).toBe(1);
      const rows = await h.storage.db.query<{ device_id: number }>('SELECT device_id FROM locations');
      expect(rows).toEqual([{ device_id: dev!.id }]);
    } finally {
      await gw.close();
    }
  }, 120_000);
});
