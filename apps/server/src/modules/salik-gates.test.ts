/**
 * Salik gates: the list and details answer from the data the pipeline charges with (the same records,
 * the same uuids the pipeline writes into Salik crossings), with the list query the contract offers,
 * to any member holding salik-events.view, identically in every company; there is no edit route.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, salikGateSchema } from '@fleet/api-client';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { loadSalik } from '../pipeline/salik/load';
import { gatesToApi, nameUuid } from '../pipeline/salik/api-gates';
import { salikGateRecords } from './salik-gates';

let h: Harness;
let w: World;

beforeAll(async () => {
  h = await createHarness('modules_salik_gates');
  w = await buildWorld(h.storage.db);
}, 60_000);
afterAll(() => h.close());

const list = (query = '', token = w.users.adminA.token, company = w.a.uuid) =>
  call(h.app, { method: 'GET', url: `/v1/salik-gates${query}`, token, company });

describe('salik gate records', () => {
  const salik = loadSalik();

  it('are the pipeline gates, one per charged direction, with name-based uuids and opening dates', () => {
    const records = salikGateRecords(salik);
    const pipeline = gatesToApi(salik.gates);
    expect(records.map((r) => r.uuid)).toEqual(pipeline.map((g) => g.uuid));
    for (const r of records) expect(salikGateSchema.safeParse(r).success).toBe(true);
    const garhoud = records.find((r) => r.uuid === nameUuid('garhoud:forward'))!;
    expect(garhoud).toMatchObject({ name: 'Al Garhoud Bridge', name_ar: 'القرهود', status: 'active' });
    expect(garhoud.created_at).toBe('2006-12-31T20:00:00.000Z'); // opened 2007, midnight Dubai
    expect(records.find((r) => r.uuid === nameUuid('jebel_ali:forward'))?.created_at).toBe(
      '2018-10-23T20:00:00.000Z',
    );
    // Stable: computed again, the same answer.
    expect(salikGateRecords(loadSalik()).map((r) => r.uuid)).toEqual(records.map((r) => r.uuid));
  });
});

describe('GET /v1/salik-gates', () => {
  it('pages the whole list A to Z by default, with the pagination envelope', async () => {
    const all = gatesToApi(loadSalik().gates);
    const first = await list('?limit=5');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ total: all.length, current_page: 1, per_page: 5 });
    expect(body.last_page).toBe(Math.ceil(all.length / 5));
    expect(body.data).toHaveLength(5);
    const names = body.data.map((g: { name: string }) => g.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    const seen = new Set<string>();
    for (let page = 1; page <= body.last_page; page++) {
      const r = await list(`?limit=5&page=${page}`);
      for (const g of r.json().data) seen.add(g.uuid);
    }
    expect(seen).toEqual(new Set(all.map((g) => g.uuid)));
  });

  it('searches the English and Arabic names, case-insensitively', async () => {
    const en = (await list('?search=mamzar')).json();
    // Al Mamzar South and North, each charged both ways.
    expect(en.total).toBe(4);
    expect(en.data.every((g: { name: string }) => /mamzar/i.test(g.name))).toBe(true);
    const ar = (await list(`?search=${encodeURIComponent('القرهود')}`)).json();
    expect(ar.data.map((g: { uuid: string }) => g.uuid).sort()).toEqual(
      [nameUuid('garhoud:forward'), nameUuid('garhoud:reverse')].sort(),
    );
    expect((await list('?search=nowhere')).json()).toMatchObject({ data: [], total: 0, last_page: 1 });
  });

  it('sorts by a known field and refuses an unknown one with a 422 on sort', async () => {
    const byBearing = (await list('?sort=charged_bearing&order=asc&limit=100')).json().data as {
      charged_bearing: number;
    }[];
    const bearings = byBearing.map((g) => g.charged_bearing);
    expect(bearings).toEqual([...bearings].sort((a, b) => a - b));
    const newest = (await list('?sort=created_at&order=desc&limit=1')).json().data[0];
    expect(newest.created_at).toBe('2024-11-23T20:00:00.000Z');
    const bad = await list('?sort=secret');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('sort');
    expect((await list('?status=inactive')).json().total).toBe(0);
  });

  it('is the same list in every company and needs salik-events.view', async () => {
    const a = (await list('?limit=100')).json();
    const b = (await list('?limit=100', w.users.adminB.token, w.b.uuid)).json();
    expect(b).toEqual(a);
    expect((await list('', w.users.noPerms.token)).statusCode).toBe(403);
    expect((await call(h.app, { method: 'GET', url: '/v1/salik-gates', company: w.a.uuid })).statusCode).toBe(
      401,
    );
    expect((await list('', w.users.adminA.token, w.b.uuid)).statusCode).toBe(403);
  });
});

describe('GET /v1/salik-gates/:uuid', () => {
  it('shows a gate by the uuid the pipeline writes into crossings, with its linked gate', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: `/v1/salik-gates/${nameUuid('mamzar_south:forward')}`,
      token: w.users.branchA1.token,
      company: w.a.uuid,
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({
      uuid: nameUuid('mamzar_south:forward'),
      linked_gate_uuid: nameUuid('mamzar_north:forward'),
    });
  });

  it('answers 404 for an unknown uuid', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: `/v1/salik-gates/${randomUUID()}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(r.statusCode).toBe(404);
  });

  it('has no edit route: gates are the road authority data, not a company record', async () => {
    expect(Object.keys(endpoints).filter((n) => n.startsWith('salikGates.'))).toEqual([
      'salikGates.list',
      'salikGates.show',
    ]);
    const r = await call(h.app, {
      method: 'PUT',
      url: `/v1/salik-gates/${nameUuid('garhoud:forward')}`,
      token: w.users.super.token,
      company: w.a.uuid,
      body: {},
    });
    expect(r.statusCode).toBe(404);
  });
});
