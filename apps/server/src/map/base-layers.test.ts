/**
 * Map base layers come from the server's settings: inline JSON or a settings file, validated at
 * start-up (a bad entry names the variable), served to any signed-in user; nothing configured means
 * an empty list (the portal's offline basemap), never a public tile server.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { loadBaseLayers } from './base-layers';

const selfHosted = {
  id: 'streets',
  name: { en: 'Streets', ar: 'الشوارع' },
  url: 'https://tiles.example.test/styles/streets/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
  maxZoom: 20,
};
const imagery = {
  id: 'satellite',
  name: { en: 'Satellite', ar: 'القمر الصناعي' },
  url: 'https://{s}.imagery.example.test/{z}/{y}/{x}.jpg',
  subdomains: 'abc',
  kind: 'imagery',
};

const layersOf = (env: Record<string, string>) => loadBaseLayers(loadConfig(env));
const errorOf = (env: Record<string, string>) => {
  try {
    layersOf(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.issues;
    throw e;
  }
  throw new Error('no ConfigError');
};

describe('loadBaseLayers', () => {
  it('is empty without settings: no tile server is assumed', () => {
    expect(layersOf({})).toEqual([]);
    expect(layersOf({ MAP_BASE_LAYERS: '' })).toEqual([]);
  });

  it('reads the inline JSON list in order, with defaults filled in', () => {
    const layers = layersOf({ MAP_BASE_LAYERS: JSON.stringify([selfHosted, imagery]) });
    expect(layers.map((l) => l.id)).toEqual(['streets', 'satellite']);
    expect(layers[0]).toMatchObject({ maxZoom: 20, kind: 'map', attribution: '© OpenStreetMap contributors' });
    expect(layers[1]).toMatchObject({ maxZoom: 19, kind: 'imagery', subdomains: 'abc', attribution: '' });
  });

  it('reads a settings file (bare array or { layers }), which wins over the inline value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'base-layers-'));
    const file = join(dir, 'layers.json');
    writeFileSync(file, JSON.stringify({ layers: [imagery] }));
    expect(layersOf({ MAP_BASE_LAYERS_FILE: file, MAP_BASE_LAYERS: JSON.stringify([selfHosted]) }).map((l) => l.id)).toEqual([
      'satellite',
    ]);
    writeFileSync(file, JSON.stringify([selfHosted]));
    expect(layersOf({ MAP_BASE_LAYERS_FILE: file })[0]!.id).toBe('streets');
  });

  it.each([
    ['not JSON', { MAP_BASE_LAYERS: '[{' }, 'MAP_BASE_LAYERS', /not JSON/],
    ['a missing file', { MAP_BASE_LAYERS_FILE: '/nonexistent/layers.json' }, 'MAP_BASE_LAYERS_FILE', /cannot read/],
    ['a URL without {z}', { MAP_BASE_LAYERS: JSON.stringify([{ ...selfHosted, url: 'https://t.test/{x}/{y}.png' }]) }, 'MAP_BASE_LAYERS', /\{z\}/],
    ['a javascript: URL', { MAP_BASE_LAYERS: JSON.stringify([{ ...selfHosted, url: 'javascript:{z}{x}{y}' }]) }, 'MAP_BASE_LAYERS', /http/],
    ['no Arabic name', { MAP_BASE_LAYERS: JSON.stringify([{ ...selfHosted, name: { en: 'Streets' } }]) }, 'MAP_BASE_LAYERS', /name\.ar/],
    ['a duplicate id', { MAP_BASE_LAYERS: JSON.stringify([selfHosted, selfHosted]) }, 'MAP_BASE_LAYERS', /unique/],
    ['a zoom past 24', { MAP_BASE_LAYERS: JSON.stringify([{ ...selfHosted, maxZoom: 30 }]) }, 'MAP_BASE_LAYERS', /maxZoom/],
  ])('refuses %s, naming the variable', (_name, env, variable, message) => {
    const issues = errorOf(env as Record<string, string>);
    expect(issues[0]!.variable).toBe(variable);
    expect(issues.map((i) => i.message).join('\n')).toMatch(message);
  });
});

describe('GET /v1/map/base-layers', () => {
  let h: Harness;
  let w: World;
  beforeAll(async () => {
    h = await createHarness('map_base_layers', { MAP_BASE_LAYERS: JSON.stringify([selfHosted, imagery]) });
    w = await buildWorld(h.storage.db);
  }, 60_000);
  afterAll(() => h.close());

  it('answers the configured layers to a signed-in user, without a company header', async () => {
    const r = await call(h.app, { method: 'GET', url: '/v1/map/base-layers', token: w.users.adminA.token });
    expect(r.statusCode).toBe(200);
    const { layers } = r.json().data;
    expect(layers.map((l: { id: string }) => l.id)).toEqual(['streets', 'satellite']);
    expect(layers[1].name).toEqual({ en: 'Satellite', ar: 'القمر الصناعي' });
  });

  it('refuses an anonymous caller', async () => {
    const r = await call(h.app, { method: 'GET', url: '/v1/map/base-layers' });
    expect(r.statusCode).toBe(401);
  });
});
