import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsBus } from '../realtime/nats-bus';
import { openStorage, type Storage } from '../storage/storage';
import { nodeEnv, spawnNode, type NodeProcess } from './harness';

/**
 * The portal on the API nodes of the scale-out mode (issue 21): an API node serves the built portal
 * exactly as the embedded server (`npm start`, main.ts) does: same status, same headers (CSP,
 * caching, nosniff, frame and referrer policies...) and the same bytes for the page, its assets,
 * client-side routes and the API's own 404. Both run as real processes on the same built portal
 * (a small one written here, PORTAL_DIST) and the same PostgreSQL schema; the embedded server
 * without its gateway, the API node on NATS.
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
// Real PostgreSQL and NATS either way: run once, in the PostgreSQL pass of `npm test` (or by hand).
const secondCopy = process.env.FLEET_TEST_DB === 'pglite';
const enabled = Boolean(dbUrl && natsUrl) && !secondCopy;
if (!enabled && !secondCopy)
  console.log('portal on API nodes: DATABASE_URL and NATS_URL are not both set, skipped');

const run = randomBytes(3).toString('hex');
const schema = `t_portal_${run}`;
const prefix = `p${run}`;
const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

let dist: string;
let storage: Storage;
let apiNode: NodeProcess;
let embedded: ChildProcess;
let embeddedUrl = '';
let embeddedHealth = '';

/** Headers that legitimately differ between two responses of two processes. */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'x-request-id', 'last-modified', 'etag']);

async function answer(base: string, path: string) {
  const r = await fetch(`${base}${path}`, { headers: { 'accept-language': 'ar' } });
  const headers = Object.fromEntries([...r.headers].filter(([k]) => !VARYING.has(k)));
  return { status: r.status, headers, body: await r.text() };
}

describe.skipIf(!enabled)('the portal on API nodes', () => {
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'fleet-portal-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><html><head><title>Fleet</title></head><body></body></html>',
    );
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("fleet");');
    writeFileSync(join(dist, 'manifest.webmanifest'), '{"name":"Fleet"}');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    storage = await openStorage({ url: dbUrl, schema });
    const common = { DATABASE_URL: dbUrl!, DATABASE_SCHEMA: schema, PORTAL_DIST: dist };
    apiNode = await spawnNode(
      'api-portal',
      nodeEnv({ ...common, NATS_URL: natsUrl!, NATS_PREFIX: prefix }, 'api'),
    );
    embedded = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', MAIN], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        ...common,
        NATS_URL: '',
        PORT: '0',
        HOST: '127.0.0.1',
        GATEWAY: 'off',
        SIMULATOR: 'off',
        FLEET_SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        HEALTH_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    embeddedUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`embedded server not up:\n${out}`)), 120_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        const m = /fleet is running at (http:\/\/\S+)/.exec(out);
        const h = /health: (http:\/\/\S+)\/healthz/.exec(out);
        if (m && h) {
          clearTimeout(timer);
          embeddedHealth = h[1]!;
          resolve(m[1]!);
        }
      };
      embedded.stdout!.on('data', onData);
      embedded.stderr!.on('data', onData);
      embedded.once('exit', (code) => reject(new Error(`embedded server exited (${code}):\n${out}`)));
    });
  }, 180_000);

  afterAll(async () => {
    embedded?.kill('SIGKILL');
    await apiNode?.kill('SIGKILL');
    if (natsUrl) {
      const bus = await NatsBus.connect({ servers: natsUrl, prefix });
      for (const s of Object.values(bus.streamNames)) await bus.jsm.streams.delete(s).catch(() => undefined);
      await bus.close();
    }
    if (storage) {
      await storage.db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
      await storage.close();
    }
    if (dist) rmSync(dist, { recursive: true, force: true });
  }, 60_000);

  it('serves the page, assets, client routes and 404s exactly as npm start does', async () => {
    const api = String(apiNode.info.http);
    expect(apiNode.info.portal).toBe(dist);
    for (const path of [
      '/',
      '/live',
      '/vehicles/123?tab=trips',
      '/assets/index-abc123.js',
      '/manifest.webmanifest',
      '/sw.js',
      '/v1/nothing-here',
      '/../../etc/passwd',
      '/healthz',
    ]) {
      const [fromApi, fromEmbedded] = await Promise.all([answer(api, path), answer(embeddedUrl, path)]);
      expect({ path, ...fromApi }).toEqual({ path, ...fromEmbedded });
    }
    const page = await answer(api, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Fleet</title>');
    expect(page.headers['content-security-policy']).toBeTruthy();
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await answer(api, '/assets/index-abc123.js')).headers['cache-control']).toContain('immutable');
  });

  it('npm start has the health port too: /readyz and /metrics with the HTTP figures', async () => {
    await fetch(`${embeddedUrl}/live`);
    const ready = await fetch(`${embeddedHealth}/readyz`);
    expect(ready.status).toBe(200);
    expect(Object.keys(((await ready.json()) as { checks: object }).checks).sort()).toEqual([
      'database',
      'http',
    ]);
    const text = await (await fetch(`${embeddedHealth}/metrics`)).text();
    expect(text).toMatch(/fleet_node_info\{node="embedded",role="all"\} 1/);
    expect(text).toMatch(
      /fleet_http_request_duration_seconds_count\{method="GET",route="\/\*",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/fleet_outbox_backlog\{outbox="push"\} 0/);
    // Not on the public port.
    expect((await fetch(`${embeddedUrl}/metrics`)).headers.get('content-type')).toBe(
      'text/html; charset=utf-8',
    );
  });
});
