/**
 * Decoding benchmark: our Teltonika decoder vs the npm packages `complete-teltonika-parser` and
 * `teltonika-parser`, on the same frames, in one run.
 *
 * Frames: the real Codec 8E frames of ../shared/protocol-vectors plus generated FMB-like frames
 * (seeded, 1-4 records, ~25 IO elements each) encoded with our encoder. Every parser must agree on the
 * record count and first coordinates of every frame before it is timed; a parser that cannot decode a
 * codec is reported as unsupported (teltonika-parser 0.0.15 knows Codec 7/8/16 only, so it is also
 * compared on the same records encoded as Codec 8).
 *
 * Fairness: each parser gets its input in its own preferred form prepared outside the timed loop
 * (complete-teltonika-parser takes a hex string, teltonika-parser a Buffer, ours a Uint8Array). Ours
 * does strictly more work per frame (framing, CRC-16 check, ACK bytes).
 *
 * Run: npm run bench:decode   (tsx --conditions=source packages/device-protocols/bench/decode.bench.ts)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import {
  CODEC_8,
  CODEC_8E,
  createPrng,
  createTeltonikaSession,
  encodeTeltonikaAvl,
  encodeTeltonikaImei,
  type DecodedRecord,
  type IoValue,
  type TeltonikaAvlCodec,
} from '../src/index';

const require = createRequire(import.meta.url);
const { ProtocolParser } = require('complete-teltonika-parser') as {
  ProtocolParser: new (hex: string) => {
    Quantity1: number;
    Content: { AVL_Datas: Array<{ GPSelement: { Latitude: number; Longitude: number } }> };
  };
};
const TeltonikaParser = require('teltonika-parser') as new (buf: Buffer) => {
  getAvl(): { number_of_data: number; records: Array<{ gps: { latitude: number; longitude: number } }> };
};

interface Frame {
  bytes: Uint8Array;
  buffer: Buffer;
  hex: string;
  records: number;
  lat: number;
  lon: number;
}

const IMEI = '356307042441013';

function vectorFrames(codecHex: string): Uint8Array[] {
  const path = new URL('../../../../shared/protocol-vectors/teltonika.json', import.meta.url);
  const cases = JSON.parse(readFileSync(path, 'utf8')) as Array<{
    component: string;
    transport: string;
    hex?: string;
    derived?: { codecId?: string; crcValid?: boolean; lengthMatches?: boolean };
    decoderState?: unknown;
  }>;
  return cases
    .filter(
      (c) =>
        c.component === 'decoder' &&
        c.transport === 'tcp' &&
        c.decoderState === undefined &&
        c.derived?.codecId === codecHex &&
        c.derived.crcValid === true &&
        c.derived.lengthMatches === true,
    )
    .map((c) => Uint8Array.from(Buffer.from(c.hex as string, 'hex')));
}

function generatedRecords(seed: number, count: number): DecodedRecord[][] {
  const rnd = createPrng(seed);
  const packets: DecodedRecord[][] = [];
  let t = Date.UTC(2026, 10, 1);
  for (let p = 0; p < count; p++) {
    const records: DecodedRecord[] = [];
    const n = rnd.int(1, 4);
    for (let i = 0; i < n; i++) {
      t += 10_000;
      const io: Record<number, IoValue> = {
        239: rnd.int(0, 1),
        240: rnd.int(0, 1),
        80: rnd.int(0, 5),
        21: rnd.int(0, 5),
        200: 0,
        69: 1,
        1: rnd.int(0, 1),
        179: rnd.int(0, 1),
        180: 0,
        181: rnd.int(5, 30),
        182: rnd.int(5, 30),
        66: rnd.int(11_000, 14_500),
        24: rnd.int(0, 120),
        205: rnd.int(1, 60000),
        206: rnd.int(1, 60000),
        67: rnd.int(3_900, 4_200),
        68: rnd.int(0, 500),
        9: rnd.int(0, 5000),
        16: rnd.int(0, 9_000_000),
        199: rnd.int(0, 1000),
        241: 42402,
        11: 89_971_000_000 + rnd.int(0, 1_000_000),
        14: rnd.int(0, 0xffffff),
        89: rnd.int(0, 100),
        87: rnd.int(0, 2_000_000),
      };
      records.push({
        imei: IMEI,
        protocol: 'teltonika',
        fixTime: t,
        valid: true,
        latitude: 25.2 + rnd.int(-50_000, 50_000) / 1e6,
        longitude: 55.27 + rnd.int(-50_000, 50_000) / 1e6,
        altitude: rnd.int(0, 60),
        speed: rnd.int(0, 120),
        course: rnd.int(0, 359),
        satellites: rnd.int(4, 20),
        priority: 0,
        eventId: 0,
        io,
      });
    }
    packets.push(records);
  }
  return packets;
}

function toFrame(bytes: Uint8Array): Frame {
  const session = createTeltonikaSession();
  session.decode(encodeTeltonikaImei(IMEI));
  const decoded = session.decode(bytes);
  const msg = decoded.messages[0];
  if (decoded.error || msg?.type !== 'records')
    throw new Error(`bench frame does not decode: ${decoded.error?.message}`);
  const first = msg.records[0] as DecodedRecord;
  const buffer = Buffer.from(bytes);
  return {
    bytes,
    buffer,
    hex: buffer.toString('hex'),
    records: msg.records.length,
    lat: first.latitude,
    lon: first.longitude,
  };
}

function frameSet(codec: TeltonikaAvlCodec): Frame[] {
  const real = vectorFrames(codec === CODEC_8E ? '0x8e' : '0x08');
  const generated = generatedRecords(codec === CODEC_8E ? 8 : 88, 200).map((r) =>
    encodeTeltonikaAvl(r, codec),
  );
  return [...real, ...generated].map(toFrame);
}

type Parser = (f: Frame) => number;

const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6;

const parsers: Record<string, Parser> = {
  ours: (() => {
    const session = createTeltonikaSession();
    session.decode(encodeTeltonikaImei(IMEI));
    return (f: Frame) => {
      const r = session.decode(f.bytes);
      const m = r.messages[0];
      if (m?.type !== 'records' || r.error) throw new Error('ours failed');
      return m.records.length;
    };
  })(),
  'complete-teltonika-parser': (f) => new ProtocolParser(f.hex).Content.AVL_Datas.length,
  'teltonika-parser': (f) => new TeltonikaParser(f.buffer).getAvl().records.length,
};

/** Checks a parser against our reading of every frame (count and first coordinates). */
function supports(name: string, frames: Frame[]): boolean {
  try {
    for (const f of frames) {
      if (name === 'complete-teltonika-parser') {
        const p = new ProtocolParser(f.hex);
        const gps = p.Content.AVL_Datas[0]?.GPSelement;
        if (
          p.Content.AVL_Datas.length !== f.records ||
          !gps ||
          !close(gps.Latitude, f.lat) ||
          !close(gps.Longitude, f.lon)
        ) {
          return false;
        }
      } else if (name === 'teltonika-parser') {
        const a = new TeltonikaParser(f.buffer).getAvl();
        const gps = a.records?.[0]?.gps;
        if (
          a.records?.length !== f.records ||
          !gps ||
          !close(gps.latitude, f.lat) ||
          !close(gps.longitude, f.lon)
        ) {
          return false;
        }
      } else if ((parsers[name] as Parser)(f) !== f.records) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Best of `rounds` timed passes of at least `minMs` each; returns records per second. */
function measure(parse: Parser, frames: Frame[], minMs = 700, rounds = 3): number {
  let sink = 0;
  for (let i = 0; i < 3; i++) for (const f of frames) sink += parse(f); // warm-up
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    let records = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      for (const f of frames) records += parse(f);
      elapsed = performance.now() - start;
    } while (elapsed < minMs);
    best = Math.max(best, (records / elapsed) * 1000);
  }
  if (sink < 0) console.log(sink);
  return best;
}

function run(codec: TeltonikaAvlCodec): Record<string, number | null> {
  const frames = frameSet(codec);
  const totalRecords = frames.reduce((s, f) => s + f.records, 0);
  const bytes = frames.reduce((s, f) => s + f.bytes.length, 0);
  console.log(
    `\nCodec ${codec === CODEC_8E ? '8 Extended' : '8'}: ${frames.length} frames, ${totalRecords} records, ${bytes} bytes`,
  );
  const out: Record<string, number | null> = {};
  for (const name of Object.keys(parsers)) {
    if (!supports(name, frames)) {
      console.log(`  ${name.padEnd(28)} unsupported (fails or disagrees on these frames)`);
      out[name] = null;
      continue;
    }
    const rate = measure(parsers[name] as Parser, frames);
    out[name] = Math.round(rate);
    console.log(`  ${name.padEnd(28)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} records/s`);
  }
  return out;
}

const e8 = run(CODEC_8E);
const c8 = run(CODEC_8);

function ratio(r: Record<string, number | null>): number | null {
  const others = [r['complete-teltonika-parser'], r['teltonika-parser']].filter(
    (x): x is number => typeof x === 'number',
  );
  if (others.length === 0 || !r['ours']) return null;
  return Math.round(((r['ours'] as number) / Math.max(...others)) * 100) / 100;
}

const ratio8e = ratio(e8);
const ratio8 = ratio(c8);
console.log(
  `\nCodec 8E: ours / fastest other = ${ratio8e ?? 'n/a'}x;  Codec 8: ours / fastest other = ${ratio8 ?? 'n/a'}x`,
);
console.log(
  JSON.stringify({
    benchmark: 'decode:teltonika',
    unit: 'records/s',
    codec8e: { ...e8, ratio_vs_fastest_other: ratio8e },
    codec8: { ...c8, ratio_vs_fastest_other: ratio8 },
    goal: 'Codec 8E decoder >= 2x faster than the faster of complete-teltonika-parser and teltonika-parser',
    goal_met: ratio8e !== null && ratio8e >= 2 && (ratio8 === null || ratio8 >= 2),
  }),
);
