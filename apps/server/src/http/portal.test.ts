import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { registerPortal } from './portal';

let storage: Storage;
let app: FastifyInstance;

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Fleet</title>');
  writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'export {};');
  storage = await openTestStorage('portal');
  app = await createServer({
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', FLEET_SEED_DEMO: 'false' }),
    storage,
    bus: new InProcessBus(),
    messenger: new MemoryMessenger(),
    logger: false,
  });
  expect(registerPortal(app, dist)).toBe(true);
  await app.ready();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await storage?.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('the portal served from the same origin', () => {
  it('client routes get the page, with the page policy and no caching', async () => {
    const r = await get('/dashboard/live');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('the service worker may fetch its own origin and is not sandboxed (or every navigation fails)', async () => {
    const r = await get('/sw.js');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    const csp = String(r.headers['content-security-policy']);
    expect(csp).not.toContain('sandbox');
    expect(csp).toContain("connect-src 'self'");
    expect(r.headers['cache-control']).toBe('no-cache');
  });

  it('other static files stay locked down; hashed assets are cached for good', async () => {
    const r = await get('/assets/app-abc123.js');
    expect(r.statusCode).toBe(200);
    expect(String(r.headers['content-security-policy'])).toContain('sandbox');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('paths outside the build and API paths never serve files', async () => {
    expect((await get('/../../etc/passwd')).headers['content-type']).toMatch(/^text\/html/);
    expect((await get('/v1/nope')).statusCode).toBe(404);
  });

  it('its own answers follow X-Locale', async () => {
    const ar = await app.inject({ method: 'GET', url: '/ws/x', headers: { 'x-locale': 'ar' } });
    expect(ar.statusCode).toBe(404);
    expect(ar.json()).toEqual({ message: 'غير موجود.' });
    expect((await get('/ws/x')).json()).toEqual({ message: 'Not found.' });
    const origin = { origin: 'https://elsewhere.example', 'x-locale': 'ar' };
    const refused = await app.inject({ method: 'OPTIONS', url: '/v1/vehicles', headers: origin });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'هذا المصدر غير مسموح به.' });
    const en = await app.inject({
      method: 'OPTIONS',
      url: '/v1/vehicles',
      headers: { origin: origin.origin },
    });
    expect(en.json()).toEqual({ message: 'Origin not allowed.' });
  });
});
