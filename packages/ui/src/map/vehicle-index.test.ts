import { describe, expect, it } from 'vitest';
import {
  HitGrid,
  VehicleStore,
  clusterRadius,
  headingBucket,
  layoutVehicles,
  type DrawnCluster,
  type VehicleMarker,
  type Viewport,
} from './vehicle-index';
import { projectNormalized, worldSize } from './projection';

const v = (id: string, lat: number, lng: number, extra: Partial<VehicleMarker> = {}): VehicleMarker => ({
  id,
  lat,
  lng,
  kind: 'car',
  tone: 'live',
  ...extra,
});

/** Viewport of `width x height` pixels centred on a point at a zoom. */
function viewAround(lat: number, lng: number, zoom: number, width = 800, height = 600): Viewport {
  const p = projectNormalized(lat, lng);
  const s = worldSize(zoom);
  return { zoom, left: p.x * s - width / 2, top: p.y * s - height / 2, width, height };
}

describe('VehicleStore', () => {
  it('adds, updates in place and removes on setAll', () => {
    const store = new VehicleStore();
    expect(store.setAll([v('a', 25, 55), v('b', 25.1, 55.1)])).toEqual({
      added: 2,
      updated: 0,
      removed: 0,
      rejected: 0,
    });
    const a = store.get('a');
    expect(store.setAll([v('a', 26, 56, { tone: 'idle' }), v('c', 1, 1)])).toEqual({
      added: 1,
      updated: 1,
      removed: 1,
      rejected: 0,
    });
    expect(store.get('a')).toBe(a);
    expect(store.get('a')?.tone).toBe('idle');
    expect(store.get('b')).toBeUndefined();
    expect(store.all().map((x) => x.id)).toEqual(['a', 'c']);
  });

  it('removes missing vehicles even when the input repeats an id (last one wins)', () => {
    const store = new VehicleStore();
    store.setAll([v('a', 25, 55), v('b', 25.1, 55.1)]);
    const change = store.setAll([v('a', 1, 1), v('a', 2, 2)]);
    expect(change.removed).toBe(1);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')?.lat).toBe(2);
    expect(store.size).toBe(1);
  });

  it.each([
    { name: 'NaN latitude', lat: Number.NaN, lng: 1 },
    { name: 'out of range', lat: 95, lng: 1 },
    { name: 'string coordinates', lat: '25' as unknown as number, lng: 55 },
  ])('rejects $name', ({ lat, lng }) => {
    const store = new VehicleStore();
    expect(store.setAll([v('x', lat, lng)]).rejected).toBe(1);
    expect(store.size).toBe(0);
  });

  it('applies position updates, keeps old coordinates on empty ones and ignores unknown ids', () => {
    const store = new VehicleStore();
    store.setAll([v('a', 25, 55, { heading: 10 }), v('b', 25, 55)]);
    const before = store.version;
    const applied = store.applyPositions([
      { id: 'a', lat: 25.5, lng: 55.5, heading: 90 },
      { id: 'b', lat: Number.NaN, lng: 55.5 },
      { id: 'zzz', lat: 1, lng: 1 },
    ]);
    expect(applied).toBe(1);
    expect(store.version).toBe(before + 1);
    const a = store.get('a')!;
    expect([a.lat, a.lng, a.heading]).toEqual([25.5, 55.5, 90]);
    expect(a.x).toBeCloseTo(projectNormalized(25.5, 55.5).x, 12);
    expect(store.get('b')!.lat).toBe(25);
    expect(store.applyPositions([])).toBe(0);
    expect(store.version).toBe(before + 1);
  });

  it('patches non-positional fields', () => {
    const store = new VehicleStore();
    store.setAll([v('a', 25, 55)]);
    expect(store.patch('a', { violation: true, tone: 'idle' })).toBe(true);
    expect(store.get('a')).toMatchObject({ violation: true, tone: 'idle' });
    expect(store.patch('nope', { tone: 'idle' })).toBe(false);
  });
});

describe('layoutVehicles', () => {
  const store = new VehicleStore();
  store.setAll([
    v('a', 25.2, 55.27, { tone: 'live' }),
    v('b', 25.2001, 55.2701, { tone: 'idle', violation: true }),
    v('c', 25.2002, 55.2702, { tone: 'idle' }),
    v('far', 40, 10),
  ]);

  it('draws separate markers above the cluster zoom and culls off-screen ones', () => {
    const items = layoutVehicles(store.all(), viewAround(25.2, 55.27, 16), {
      clusterMaxZoom: 12,
      cellSize: 64,
      margin: 0,
    });
    expect(items.map((i) => (i.type === 'marker' ? i.vehicle.id : 'cluster')).sort()).toEqual([
      'a',
      'b',
      'c',
    ]);
    const a = items.find((i) => i.type === 'marker' && i.vehicle.id === 'a')!;
    expect(a.px).toBeCloseTo(400, 6);
    expect(a.py).toBeCloseTo(300, 6);
  });

  it('groups close vehicles into one cluster at low zoom with majority tone and violation flag', () => {
    const items = layoutVehicles(store.all(), viewAround(25.2, 55.27, 8), {
      clusterMaxZoom: 12,
      cellSize: 64,
      margin: 0,
    });
    expect(items).toHaveLength(1);
    const cluster = items[0]!;
    expect(cluster.type).toBe('cluster');
    if (cluster.type !== 'cluster') return;
    expect(cluster.count).toBe(3);
    expect(cluster.tone).toBe('idle');
    expect(cluster.violation).toBe(true);
    expect(Math.abs(cluster.px - 400)).toBeLessThan(2);
  });

  it('never clusters when clusterMaxZoom is -1', () => {
    const items = layoutVehicles(store.all(), viewAround(25.2, 55.27, 3, 200, 200), {
      clusterMaxZoom: -1,
      cellSize: 64,
      margin: 0,
    });
    expect(items.every((i) => i.type === 'marker')).toBe(true);
    expect(items).toHaveLength(3);
  });

  it('keeps a lone vehicle in a cell as a marker while clustering', () => {
    const s = new VehicleStore();
    s.setAll([v('lone', 25.2, 55.27)]);
    const items = layoutVehicles(s.all(), viewAround(25.2, 55.27, 5));
    expect(items).toEqual([expect.objectContaining({ type: 'marker' })]);
  });

  it('lays out 10,000 vehicles into clusters that account for every visible one', () => {
    const s = new VehicleStore();
    const many: VehicleMarker[] = [];
    for (let i = 0; i < 10_000; i++)
      many.push(v(`v${i}`, 24.9 + (i % 100) * 0.006, 55 + Math.floor(i / 100) * 0.006));
    s.setAll(many);
    const items = layoutVehicles(s.all(), viewAround(25.2, 55.3, 9, 1600, 1200));
    const total = items.reduce((n, i) => n + (i.type === 'cluster' ? i.count : 1), 0);
    expect(total).toBe(10_000);
    expect(items.length).toBeLessThan(1000);
  });
});

describe('HitGrid', () => {
  const marker = (id: string, px: number, py: number) =>
    ({ type: 'marker', vehicle: { id } as never, px, py }) as const;

  it.each([
    { x: 100, y: 100, expected: 'a' },
    { x: 110, y: 100, expected: 'a' },
    { x: 113, y: 100, expected: null },
    { x: 129, y: 100, expected: 'b' },
    { x: 500, y: 500, expected: null },
    { x: -5, y: -5, expected: 'edge' },
  ])('picks at ($x,$y) -> $expected', ({ x, y, expected }) => {
    const grid = HitGrid.build([marker('a', 100, 100), marker('b', 130, 100), marker('edge', 0, 0)], 12);
    const hit = grid.pick(x, y);
    expect(hit && hit.type === 'marker' ? hit.vehicle.id : null).toBe(expected);
  });

  it('prefers the later (top-most) item when distances tie', () => {
    const grid = HitGrid.build([marker('under', 50, 50), marker('over', 50, 50)], 12);
    const hit = grid.pick(50, 50);
    expect(hit?.type === 'marker' && hit.vehicle.id).toBe('over');
  });

  it('uses the cluster radius for clusters', () => {
    const cluster: DrawnCluster = {
      type: 'cluster',
      members: [],
      count: 1000,
      px: 200,
      py: 200,
      tone: 'live',
      violation: false,
    };
    const grid = HitGrid.build([cluster], 12);
    expect(grid.pick(200 + clusterRadius(1000) - 1, 200)).toBe(cluster);
    expect(grid.pick(200 + clusterRadius(1000) + 1, 200)).toBeNull();
  });
});

describe('headingBucket', () => {
  it.each([
    [0, 0],
    [5, 1],
    [4, 0],
    [359, 0],
    [-90, 27],
    [450, 9],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
  ])('%s -> %s', (heading, bucket) => {
    expect(headingBucket(heading)).toBe(bucket);
  });
});
