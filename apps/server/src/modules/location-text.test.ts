import { describe, expect, it } from 'vitest';
import { locationView, pageJson, type LocationRow } from './locations';

/** A page line as ROW_TEXT prints it (PostgreSQL's text of each column; NULL as nothing). */
function line(
  r: LocationRow & { us: number; device: number },
  text: Partial<Record<keyof LocationRow, string>> = {},
) {
  const t = (k: keyof LocationRow, v: unknown) =>
    text[k] ?? (v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  return [
    r.us,
    r.device,
    t('latitude', r.latitude),
    t('longitude', r.longitude),
    t('speed', r.speed),
    t('course', r.course),
    t('altitude', r.altitude),
    t('satellites', r.satellites),
    t('ignition', r.ignition),
    t('is_idle', r.is_idle),
    t('digital_output1', r.digital_output1),
    t('digital_output2', r.digital_output2),
    JSON.stringify(r.io_elements),
  ].join(',');
}

const row = (ms: number, over: Partial<LocationRow> = {}): LocationRow & { us: number; device: number } => ({
  us: ms * 1000 + 789,
  device: 7,
  fix_time: new Date(ms),
  latitude: 25.2,
  longitude: 55.3,
  speed: 40,
  course: 90,
  altitude: 5,
  satellites: 9,
  ignition: true,
  is_idle: false,
  digital_output1: 0,
  digital_output2: 1,
  io_elements: { '16': { value: 1000 } },
  ...over,
});

describe('pageJson (location records written as text)', () => {
  it('equals locationView across days, years and odd values', () => {
    const times = [
      0,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 0, 1),
      Date.UTC(2026, 10, 19, 0, 0, 0, 1),
      Date.UTC(2026, 10, 19, 12, 34, 56, 789),
      Date.UTC(2026, 10, 20, 23, 59, 59, 999),
      Date.UTC(2028, 1, 29, 6, 7, 8, 9),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      -1,
      Date.UTC(10000, 0, 1, 1, 2, 3, 4),
    ];
    const rows = times.map((ms, i) =>
      row(ms, {
        course: [-90, 450, 359.5, null, 12.3, 720, 372.3][i % 7]!,
        speed: [-3, 0, 12.75, null, 120][i % 5]!,
        latitude: i % 4 === 3 ? null : -0.000001 * i,
        satellites: i % 3 === 0 ? null : i,
        ignition: i % 2 === 0 ? null : true,
        is_idle: i % 3 === 1,
        digital_output1: i % 2,
        digital_output2: i % 3 === 0 ? null : 1,
        io_elements: { '387': { value: `a "quoted", text\nline ${i}` }, '240': { value: i } },
      }),
    );
    const { json, count, last } = pageJson(rows.map((r) => line(r)).join('\n'), ',"vehicle_uuid":"v"');
    expect(count).toBe(rows.length);
    expect(last).toEqual({ us: rows.at(-1)!.us, device: 7 });
    expect(JSON.parse(json)).toEqual(
      rows.map((r) => JSON.parse(JSON.stringify(locationView(r, { vehicle_uuid: 'v' })))),
    );
  });

  it('keeps a course already in [0, 360) exactly as stored', () => {
    const r = row(Date.UTC(2026, 0, 1), { course: 12.3 });
    const [record] = JSON.parse(pageJson(line(r), '').json) as { heading: number }[];
    expect(record!.heading).toBe(12.3);
    expect(locationView(r).heading).toBe(12.3);
  });

  it('writes null (never invalid JSON) for NaN and infinities, and 0 speed for them', () => {
    const r = row(Date.UTC(2026, 0, 1));
    const text = line(r, {
      latitude: 'NaN',
      longitude: '-Infinity',
      speed: 'Infinity',
      course: 'NaN',
      altitude: '-Infinity',
    });
    const [record] = JSON.parse(pageJson(text, '').json) as Record<string, unknown>[];
    expect(record).toMatchObject({
      latitude: null,
      longitude: null,
      speed: 0,
      heading: null,
      altitude: null,
    });
  });

  it('an empty page is an empty array', () => {
    expect(pageJson('', '')).toEqual({ json: '[]', count: 0, last: undefined });
  });
});
