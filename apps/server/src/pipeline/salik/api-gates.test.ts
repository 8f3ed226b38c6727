import { describe, expect, it } from 'vitest';
import { rec } from '../common/fixtures';
import { destination } from '../common/geo';
import type { PositionRecord } from '../common/types';
import { gatesFromApi, gatesToApi, nameUuid } from './api-gates';
import { SalikDetector } from './detector';
import type { SalikGate } from './gates';
import { loadSalik } from './load';

const salik = loadSalik();
const dubai = (d: number, h: number, mi: number) => Date.UTC(2026, 0, d, h - 4, mi);

function pass(g: SalikGate, heading: number, time: number): PositionRecord[] {
  const before = destination(g.lat, g.lon, heading + 180, 60);
  const after = destination(g.lat, g.lon, heading, 60);
  return [
    rec({ time: time - 3000, lat: before.lat, lon: before.lon, speed: 72 }),
    rec({ time: time + 3000, lat: after.lat, lon: after.lon, speed: 72 }),
  ];
}

describe('API gate records', () => {
  const api = gatesToApi(salik.gates);

  it('seeds one record per charged direction with stable uuids and same-direction links', () => {
    expect(api).toHaveLength(20);
    const south = api.find((g) => g.uuid === nameUuid('mamzar_south:forward'))!;
    expect(south.linked_gate_uuid).toBe(nameUuid('mamzar_north:forward'));
    expect(api.find((g) => g.uuid === nameUuid('garhoud:reverse'))!.charged_bearing).toBe(220);
    expect(api.filter((g) => g.linked_gate_uuid).length).toBe(8);
  });

  it('gives the same charges as the original gates, both ways and for linked pairs', () => {
    const original = new SalikDetector(salik.gates, salik.tariff);
    const fromApi = new SalikDetector(gatesFromApi(api), salik.tariff);
    const gate = (code: string) => salik.gates.find((g) => g.code === code)!;
    const script: [SalikGate, number, number][] = [
      [gate('garhoud'), 40, dubai(5, 8, 0)],
      [gate('garhoud'), 220, dubai(5, 10, 30)],
      [gate('mamzar_south'), 10, dubai(5, 11, 0)],
      [gate('mamzar_north'), 10, dubai(5, 11, 30)],
      [gate('mamzar_north'), 190, dubai(5, 11, 45)],
      [gate('safa'), 45, dubai(5, 17, 0)],
    ];
    const fees = (d: SalikDetector) =>
      script
        .flatMap(([g, heading, t]) => pass(g, heading, t).flatMap((r) => d.update('v1', r)))
        .map((c) => c.fee);
    expect(fees(fromApi)).toEqual(fees(original));
    expect(fees(new SalikDetector(salik.gates, salik.tariff))).toEqual([6, 4, 4, 0, 4, 6]);
  });

  it('inactive records are left out', () => {
    expect(gatesFromApi([{ ...api[0]!, status: 'inactive' }])).toEqual([]);
  });
});
