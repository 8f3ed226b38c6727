import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/config';
import { COMPRESS_THRESHOLD, createServer, registerParts, PARTS } from './server';
import { MemoryMessenger } from './auth/messenger';
import { InProcessBus } from './realtime/bus';
import type { Storage } from './storage/storage';
import { openTestStorage } from '../test/db';

/**
 * The composition root (server.ts): every part comes from the one list, each role takes its share,
 * the switches decide, and app.close() stops what the parts started.
 */
let storage: Storage;
beforeAll(async () => {
  storage = await openTestStorage('server_parts');
});
afterAll(async () => {
  await storage.close();
});

const quietEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  FLEET_SEED_DEMO: 'false',
  PORTAL_DIST: '/nonexistent/portal-dist',
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_TELTONIKA_PORT: '0',
  GATEWAY_RUPTELA_PORT: 'off',
  GATEWAY_GOSAFE_PORT: 'off',
  GATEWAY_ISTARTEK_PORT: 'off',
  GATEWAY_OSMAND_PORT: 'off',
};

async function embedded(env: Record<string, string>) {
  const config = loadConfig(env);
  const bus = new InProcessBus();
  const app = await createServer({ config, storage, bus, messenger: new MemoryMessenger(), logger: false });
  const lines: string[] = [];
  const parts = await registerParts(app, ['embedded'], {
    config,
    env,
    storage,
    bus,
    log: (l) => lines.push(l),
  });
  await app.ready();
  return { app, parts, lines };
}

function refused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      done(false);
    });
    s.once('error', () => done(true));
  });
}

describe('the composition root', () => {
  it('lists each part once, with at least one role', () => {
    const names = PARTS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const p of PARTS) expect(p.roles.length).toBeGreaterThan(0);
  });

  it('serves the report routes with the pipeline and the gateway switched off', async () => {
    const { app, parts } = await embedded({ ...quietEnv, PIPELINE: 'off', GATEWAY: 'off' });
    try {
      expect(parts).toContain('reports');
      expect(parts).not.toContain('pipeline');
      expect(parts).not.toContain('gateway');
      expect(parts).not.toContain('simulator');
      expect(app.hasDecorator('gateway')).toBe(false);
      // Registered (asks for a session), not missing.
      const r = await app.inject({ method: 'GET', url: '/v1/reports/dashboard?period=today' });
      expect(r.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('starts the gateway and the pipeline when on, and stops the listeners through app.close()', async () => {
    const { app, parts } = await embedded({ ...quietEnv });
    expect(parts).toEqual(
      expect.arrayContaining([
        'realtime',
        'geocoding',
        'reports',
        'gateway',
        'pipeline',
        'push',
        'messaging',
      ]),
    );
    // No demo seeded: no simulator even though SIMULATOR defaults to on.
    expect(parts).not.toContain('simulator');
    const port = app.gateway.ports.teltonika;
    expect(typeof port).toBe('number');
    expect(await refused(port!)).toBe(false);
    await app.close();
    expect(await refused(port!)).toBe(true);
  });

  it('gives each cluster role its share of the same list', async () => {
    const env = { ...quietEnv, LOCATION_RETENTION_DAYS: '30' };
    const config = loadConfig(env);
    const bus = new InProcessBus();
    const log = () => undefined;
    const names = async (roles: Parameters<typeof registerParts>[1], except: string[] = []) => {
      const host = roles.includes('api')
        ? await createServer({ config, storage, bus, messenger: new MemoryMessenger(), logger: false })
        : Fastify({ logger: false });
      const parts = await registerParts(host, roles, { config, env, storage, bus, log }, except);
      await host.ready();
      await host.close();
      return parts;
    };
    expect(await names(['api'])).toEqual(['realtime', 'geocoding', 'reports', 'portal']);
    expect(await names(['gateway'])).toEqual(['gateway']);
    expect(await names(['worker'])).toEqual(['pipeline', 'push', 'messaging', 'retention']);
    expect(await names(['worker'], ['pipeline', 'push', 'messaging'])).toEqual(['retention']);
  });

  it('discovers nothing by file existence, and the gateway part does not start the simulator', () => {
    const read = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
    for (const file of ['./main.ts', './cluster/node.ts']) expect(read(file)).not.toMatch(/plugin\.ts/);
    expect(read('./gateway/plugin.ts')).not.toMatch(/from '\.\.\/simulator/);
  });
});

describe('compression of large API answers', () => {
  it('compresses answers over the threshold for clients that ask, and leaves small ones alone', async () => {
    const { app } = await embedded({ ...quietEnv, PIPELINE: 'off', GATEWAY: 'off' });
    try {
      // The OpenAPI document is public and large; /healthz-sized answers are small.
      const ask = (url: string, encoding?: string) =>
        app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
      const plain = await ask('/v1/openapi.json');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);
      const br = await ask('/v1/openapi.json', 'gzip, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      // Security headers are kept on compressed answers.
      expect(br.headers['x-content-type-options']).toBe('nosniff');
      expect(br.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
      const gz = await ask('/v1/openapi.json', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
      const small = await ask('/v1/nope', 'gzip, br');
      expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
      expect(small.headers['content-encoding']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
