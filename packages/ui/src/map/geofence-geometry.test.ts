import { describe, expect, it } from 'vitest';
import {
  circleFromPoints,
  edgeMidpoints,
  insertVertex,
  moveVertex,
  pointInCircle,
  pointInPolygon,
  polygonFromVertices,
  polygonVertices,
  removeVertex,
  validateCircle,
  validatePolygon,
} from './geofence-geometry';

const square = [
  { lat: 0, lng: 0 },
  { lat: 0, lng: 1 },
  { lat: 1, lng: 1 },
  { lat: 1, lng: 0 },
];

describe('validatePolygon', () => {
  it.each([
    { name: 'square', vertices: square, error: null },
    { name: 'two points', vertices: square.slice(0, 2), error: 'tooFewVertices' },
    {
      name: 'collinear',
      vertices: [
        { lat: 0, lng: 0 },
        { lat: 0, lng: 1 },
        { lat: 0, lng: 2 },
      ],
      error: 'zeroArea',
    },
    {
      name: 'bow tie',
      vertices: [
        { lat: 0, lng: 0 },
        { lat: 1, lng: 1 },
        { lat: 0, lng: 1 },
        { lat: 1, lng: 0 },
      ],
      error: 'selfIntersecting',
    },
    { name: 'NaN vertex', vertices: [...square, { lat: Number.NaN, lng: 0 }], error: 'invalidCoordinate' },
  ])('$name -> $error', ({ vertices, error }) => {
    expect(validatePolygon(vertices)).toBe(error);
  });
});

describe('polygonFromVertices', () => {
  it('emits a closed GeoJSON ring with [lng, lat] positions and round-trips', () => {
    const poly = polygonFromVertices([
      { lat: 25, lng: 55 },
      { lat: 25, lng: 56 },
      { lat: 26, lng: 56 },
    ]);
    expect(poly).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [55, 25],
          [56, 25],
          [56, 26],
          [55, 25],
        ],
      ],
    });
    expect(polygonVertices(poly)).toEqual([
      { lat: 25, lng: 55 },
      { lat: 25, lng: 56 },
      { lat: 26, lng: 56 },
    ]);
  });

  it('throws a clear error for an invalid polygon', () => {
    expect(() => polygonFromVertices(square.slice(0, 2))).toThrow('Invalid geofence polygon: tooFewVertices');
  });
});

describe('vertex editing', () => {
  it('moves, inserts and removes vertices without mutating the input', () => {
    const moved = moveVertex(square, 2, { lat: 2, lng: 2 });
    expect(moved[2]).toEqual({ lat: 2, lng: 2 });
    expect(square[2]).toEqual({ lat: 1, lng: 1 });
    const inserted = insertVertex(square, 3, { lat: 0.5, lng: -0.5 });
    expect(inserted).toHaveLength(5);
    expect(inserted[4]).toEqual({ lat: 0.5, lng: -0.5 });
    expect(removeVertex(inserted, 4)).toEqual(square);
    expect(removeVertex(square.slice(0, 3), 0)).toHaveLength(3);
  });

  it.each([
    [-1, 'No vertex -1'],
    [4, 'No vertex 4'],
  ])('rejects index %s', (i, message) => {
    expect(() => moveVertex(square, i, { lat: 0, lng: 0 })).toThrow(message);
    expect(() => insertVertex(square, i, { lat: 0, lng: 0 })).toThrow(message);
  });

  it('computes edge midpoints including the closing edge', () => {
    expect(edgeMidpoints(square)).toEqual([
      { lat: 0, lng: 0.5 },
      { lat: 0.5, lng: 1 },
      { lat: 1, lng: 0.5 },
      { lat: 0.5, lng: 0 },
    ]);
  });
});

describe('circles', () => {
  it('builds a circle whose radius is the distance to the edge point', () => {
    const c = circleFromPoints({ lat: 0, lng: 0 }, { lat: 0, lng: 0.01 });
    expect(c.center).toEqual([0, 0]);
    expect(c.radius).toBe(1112);
    expect(pointInCircle({ lat: 0, lng: 0.0099 }, c)).toBe(true);
    expect(pointInCircle({ lat: 0, lng: 0.0101 }, c)).toBe(false);
  });

  it.each([
    [{ lat: 0, lng: 0 }, 9, 'invalidRadius'],
    [{ lat: 0, lng: 0 }, Number.POSITIVE_INFINITY, 'invalidRadius'],
    [{ lat: 91, lng: 0 }, 100, 'invalidCoordinate'],
    [{ lat: 0, lng: 0 }, 10, null],
  ])('validateCircle(%o, %s) -> %s', (center, radius, error) => {
    expect(validateCircle(center, radius)).toBe(error);
  });

  it('refuses a degenerate circle drawn with one click', () => {
    expect(() => circleFromPoints({ lat: 0, lng: 0 }, { lat: 0, lng: 0 })).toThrow('invalidRadius');
  });
});

describe('pointInPolygon', () => {
  it.each([
    [{ lat: 0.5, lng: 0.5 }, true],
    [{ lat: 1.5, lng: 0.5 }, false],
    [{ lat: 0.5, lng: -0.1 }, false],
  ])('%o -> %s', (p, inside) => {
    expect(pointInPolygon(p, square)).toBe(inside);
  });
});
