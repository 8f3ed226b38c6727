// GoSafe record families from messages written by hand after the public layouts: GoSafe's time-first
// layout and the tag-first layout the open-source glonassd decoder documents (its example
// `GPS:025804;2;N23.164396;E113.428541;0;0;1.10;161112`). Values are compared field by field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecodeResult, DecodedRecord } from '../records';
import { createGoSafeSession, decodeGoSafeMessage } from '.';

const IMEI = '358696043774648';
const bytes = (t: string) => Uint8Array.from(Buffer.from(t, 'latin1'));
const records = (r: DecodeResult): DecodedRecord[] =>
  r.messages.flatMap((m) => (m.type === 'records' ? m.records : []));
const ack = (r: DecodeResult) => Buffer.from(r.reply ?? []).toString('latin1');

describe('gosafe tag-first family (GPS with the time inside, STT/MGR/ADC pairs)', () => {
  it('fix 2 with HDOP: Dubai Marina, status with ignition bit, odometer, supply and battery', () => {
    const msg = `*GS02,${IMEI},GPS:101530;2;N25.078360;E55.180720;42;275;1.10;251126,STT:104;0,MGR:1234567,ADC:0;12.6;1;31.5;2;4.1#`;
    const r = decodeGoSafeMessage(bytes(msg));
    expect(r.error).toBeUndefined();
    expect(ack(r)).toBe('1234');
    const [rec] = records(r);
    expect(rec).toMatchObject({
      imei: IMEI,
      fixTime: Date.UTC(2026, 10, 25, 10, 15, 30),
      valid: true,
      latitude: 25.07836,
      longitude: 55.18072,
      speed: 42,
      course: 275,
      hdop: 1.1,
    });
    expect(rec?.io).toMatchObject({ 239: 1, 16: 1234567, 66: 12600, 67: 4100 });
    expect(rec?.attributes).toMatchObject({ status: 0x104, alarm: 0, temp1: 31.5, fix: '2D' });
  });

  it("glonassd's own example, any version number", () => {
    const r = decodeGoSafeMessage(
      bytes(`*GS06,${IMEI},GPS:025804;2;N23.164396;E113.428541;0;0;1.10;161112#`),
    );
    const [rec] = records(r);
    expect(rec?.fixTime).toBe(Date.UTC(2012, 10, 16, 2, 58, 4));
    expect([rec?.latitude, rec?.longitude, rec?.valid]).toEqual([23.164396, 113.428541, true]);
    expect(ack(r)).toBe('1234');
  });

  it('validity letter without HDOP; STT status without the ignition bit; cell tag', () => {
    const msg = `*GS02,${IMEI},CLL:064940150411;460;0;10033;17262,GPS:065633;V;S1.166829;W36.934287;0;0;150411,STT:2;0#`;
    const [rec] = records(decodeGoSafeMessage(bytes(msg)));
    expect(rec).toMatchObject({ valid: false, latitude: -1.166829, longitude: -36.934287 });
    expect(rec?.fixTime).toBe(Date.UTC(2011, 3, 15, 6, 56, 33));
    expect(rec?.io[239]).toBe(0);
    expect(rec?.attributes).toMatchObject({ mcc: 460, mnc: 0, lac: 10033, cid: 17262 });
  });

  it.each([
    ['malformed latitude', `GPS:101530;2;N25.07A;E55.180720;42;275;1.10;251126`],
    ['impossible date', `GPS:101530;2;N25.078360;E55.180720;42;275;1.10;321326`],
    ['no GPS (no time)', `STT:104;0,MGR:1000`],
    ['STT not hex', `GPS:101530;2;N25.078360;E55.180720;42;275;1.10;251126,STT:zz;0`],
    ['MGR not a number', `GPS:101530;2;N25.078360;E55.180720;42;275;1.10;251126,MGR:12a`],
  ])('%s: undecodable whole, never answered', (_n, content) => {
    const msg = bytes(`*GS02,${IMEI},${content}#`);
    const r = createGoSafeSession().decode(msg);
    expect(r.error).toBeUndefined();
    expect(r.consumed).toBe(msg.length);
    expect(r.reply).toBeUndefined();
    expect(r.messages).toHaveLength(1);
    const m = r.messages[0];
    expect(m?.type).toBe('undecodable');
    if (m?.type === 'undecodable')
      expect(Buffer.from(m.frame).toString('latin1')).toBe(Buffer.from(msg).toString('latin1'));
  });
});

describe('gosafe time-first family (COT/ADC/DTT)', () => {
  it('odometer, hours, supply/battery, DTT inputs; a bad record makes the whole message undecodable', () => {
    const good =
      '101530251126,1C,GPS:A;9;N25.078360;E55.180720;42;275;5;0.90,COT:120500;2-30-0,ADC:24.10;4.05;1.25,DTT:4004;E3;0;0;0;1';
    const r = decodeGoSafeMessage(bytes(`*GS16,${IMEI},${good}#`));
    const [rec] = records(r);
    expect(rec).toMatchObject({ eventId: 0x1c, satellites: 9, altitude: 5, hdop: 0.9 });
    expect(rec?.io).toMatchObject({ 16: 120500, 66: 24100, 67: 4050, 9: 1250, 239: 1, 1: 1, 179: 1, 180: 1 });
    expect(rec?.attributes?.['hours']).toBe(9_000_000);
    const bad = good.replace('GPS:A;9;N25.078360', 'GPS:A;9;X25.078360');
    const two = createGoSafeSession().decode(bytes(`*GS16,${IMEI},${good}$${bad}#`));
    expect(two.reply).toBeUndefined();
    expect(two.messages.map((m) => m.type)).toEqual(['undecodable']);
  });

  it('a decoded message followed by an undecodable one: only the first is answered', () => {
    const r = createGoSafeSession().decode(
      bytes(`*GS16,${IMEI},101530251126,,GPS:A;9;N25.0;E55.1;1;2;3;0.9#*GS16,${IMEI},GPS:1;2#`),
    );
    expect(r.messages.map((m) => m.type)).toEqual(['records', 'undecodable']);
    expect(ack(r)).toBe('1234');
  });
});

// ---------------------------------------------------------------------------------------------------
// Property: whatever order the tags come in and whichever optional tags are present, a message either
// decodes with exactly the generated values and is answered, or (when a field was corrupted) is one
// `undecodable` message with its bytes and no answer. Never a record with part of the values.

const coord = (max: number) => fc.integer({ min: 0, max: max * 1e6 }).map((n) => n / 1e6);
const gen = fc.record({
  tagFirst: fc.boolean(),
  lat: coord(89),
  lon: coord(179),
  south: fc.boolean(),
  west: fc.boolean(),
  speed: fc.integer({ min: 0, max: 250 }),
  course: fc.integer({ min: 0, max: 359 }),
  hdop: fc.option(
    fc.integer({ min: 5, max: 990 }).map((n) => n / 100),
    { nil: undefined },
  ),
  time: fc.date({
    min: new Date(Date.UTC(2001, 0, 1)),
    max: new Date(Date.UTC(2098, 11, 31)),
    noInvalidDate: true,
  }),
  odometer: fc.option(fc.integer({ min: 0, max: 99_999_999 }), { nil: undefined }),
  supply: fc.option(
    fc.integer({ min: 0, max: 3600 }).map((n) => n / 100),
    { nil: undefined },
  ),
  ignition: fc.option(fc.boolean(), { nil: undefined }),
  extraTag: fc.option(fc.constantFrom('GFS:0FFFFFFF;0FFFFFFF', 'FUL:4722', 'XYZ:1;2'), { nil: undefined }),
  order: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
  corrupt: fc.option(fc.constantFrom('lat', 'time', 'odometer', 'ignition'), { nil: undefined }),
});

const two = (n: number) => String(n).padStart(2, '0');

describe('gosafe variants property', () => {
  it('any tag order and optional tags decode exactly or are undecodable whole', () => {
    fc.assert(
      fc.property(gen, (g) => {
        const t = new Date(Math.floor(g.time.getTime() / 1000) * 1000);
        const hhmmss = two(t.getUTCHours()) + two(t.getUTCMinutes()) + two(t.getUTCSeconds());
        const ddmmyy = two(t.getUTCDate()) + two(t.getUTCMonth() + 1) + two(t.getUTCFullYear() % 100);
        let lat = `${g.south ? 'S' : 'N'}${g.lat.toFixed(6)}`;
        if (g.corrupt === 'lat') lat = `${lat}x`;
        const lon = `${g.west ? 'W' : 'E'}${g.lon.toFixed(6)}`;
        const tags: string[] = [];
        const badTime = g.corrupt === 'time' ? '99' : '';
        if (g.tagFirst) {
          tags.push(
            `GPS:${hhmmss}${badTime};3;${lat};${lon};${g.speed};${g.course};${g.hdop === undefined ? '' : `${g.hdop};`}${ddmmyy}`,
          );
          if (g.odometer !== undefined || g.corrupt === 'odometer')
            tags.push(`MGR:${g.odometer ?? 0}${g.corrupt === 'odometer' ? 'k' : ''}`);
          if (g.ignition !== undefined || g.corrupt === 'ignition')
            tags.push(`STT:${g.corrupt === 'ignition' ? 'q' : g.ignition ? '100' : '0'};0`);
          if (g.supply !== undefined) tags.push(`ADC:0;${g.supply};2;4.1`);
        } else {
          tags.push(`GPS:A;7;${lat};${lon};${g.speed};${g.course};12;${g.hdop ?? ''}`);
          if (g.odometer !== undefined || g.corrupt === 'odometer')
            tags.push(`COT:${g.odometer ?? 0}${g.corrupt === 'odometer' ? 'k' : ''}`);
          if (g.ignition !== undefined || g.corrupt === 'ignition')
            tags.push(`DTT:4000;${g.corrupt === 'ignition' ? 'q' : g.ignition ? '1' : '0'};0;0;0;1`);
          if (g.supply !== undefined) tags.push(`ADC:${g.supply};4.1`);
        }
        if (g.extraTag) tags.push(g.extraTag);
        // Shuffle by the generated keys.
        const keyed = tags.map((tag, i) => ({ tag, k: (g.order[i] ?? 0) * 8 + i }));
        keyed.sort((a, b) => a.k - b.k);
        const record = keyed.map((x) => x.tag).join(',');
        const timeField = `${hhmmss}${ddmmyy}${badTime}`;
        const msg = bytes(`*GS06,${IMEI},${g.tagFirst ? record : `${timeField},,${record}`}#`);
        const r = createGoSafeSession().decode(msg);
        expect(r.error).toBeUndefined();
        expect(r.consumed).toBe(msg.length);
        if (g.corrupt) {
          expect(r.reply).toBeUndefined();
          expect(r.messages).toHaveLength(1);
          const m = r.messages[0]!;
          expect(m.type).toBe('undecodable');
          if (m.type === 'undecodable') expect(Buffer.from(m.frame).equals(Buffer.from(msg))).toBe(true);
          return;
        }
        expect(ack(r)).toBe('1234');
        const recs = records(r);
        expect(recs).toHaveLength(1);
        const rec = recs[0]!;
        expect(rec.fixTime).toBe(t.getTime());
        expect(rec.latitude).toBe((g.south ? -1 : 1) * Number(g.lat.toFixed(6)));
        expect(rec.longitude).toBe((g.west ? -1 : 1) * Number(g.lon.toFixed(6)));
        expect([rec.speed, rec.course]).toEqual([g.speed, g.course]);
        if (g.hdop !== undefined) expect(rec.hdop).toBe(g.hdop);
        expect(rec.io[16]).toBe(g.odometer);
        expect(rec.io[239]).toBe(g.ignition === undefined ? undefined : g.ignition ? 1 : 0);
        expect(rec.io[66]).toBe(g.supply === undefined ? undefined : Math.round(g.supply * 1000));
      }),
      { numRuns: 1500, seed: 19 },
    );
  });
});
