// Bounded, seeded fuzzing of every decoder with random and mutated frames (runs in the normal `test`).
// Each protocol gets ITERATIONS inputs, alternating between its decoders (stream / whole message,
// strict / lenient). Invariants: never throws, always returns, consumed within [0, input length], nothing decoded is larger
// than the protocol's frame limit, and a session keeps working on the same state after garbage.
import { describe, expect, it } from 'vitest';
import { caseBytes, loadVectors } from '../test/vectors';
import { createPrng, type Prng } from './common/prng';
import type { DecodedMessage, DecodeResult } from './records';
import { createTeltonikaSession, encodeTeltonikaImei } from './teltonika/tcp';
import { decodeTeltonikaUdp } from './teltonika/udp';
import { TELTONIKA_MAX_FRAME_SIZE } from './teltonika/constants';
import { createRuptelaSession, decodeRuptelaMessage } from './ruptela';
import { RUPTELA_MAX_FRAME_SIZE } from './ruptela/constants';
import { createGoSafeSession, decodeGoSafeMessage, GOSAFE_MAX_FRAME_SIZE } from './gosafe';
import { createIStartekSession, ISTARTEK_MAX_FRAME_SIZE } from './istartek/codec';
import { parseOsmAndRequest } from './generic/osmand';
import { parseMqttLocationPayload } from './generic/mqtt-json';

/** Iterations per protocol (the brief's 20k; FUZZ_ITERATIONS overrides for long local runs). */
const ITERATIONS = Number(process.env['FUZZ_ITERATIONS'] ?? 20_000);

function seeds(name: 'teltonika' | 'ruptela' | 'gosafe' | 'istartek'): Uint8Array[] {
  return loadVectors(name)
    .filter((c) => c.hex !== undefined || c.text !== undefined)
    .map(caseBytes);
}

/** One mutated input derived from the seeds (or pure noise). */
function mutate(rnd: Prng, pool: Uint8Array[]): Uint8Array {
  const strategy = rnd.int(0, 9);
  const seed = rnd.pick(pool);
  switch (strategy) {
    case 0:
      return rnd.bytes(rnd.int(0, 300));
    case 1: {
      const out = seed.slice();
      for (let i = rnd.int(1, 8); i > 0 && out.length > 0; i--) {
        const at = rnd.int(0, out.length - 1);
        out[at] = (out[at] as number) ^ (1 << rnd.int(0, 7));
      }
      return out;
    }
    case 2:
      return seed.slice(0, rnd.int(0, seed.length));
    case 3: {
      const out = seed.slice();
      for (let i = rnd.int(1, 4); i > 0 && out.length > 0; i--)
        out[rnd.int(0, out.length - 1)] = rnd.int(0, 255);
      return out;
    }
    case 4: {
      // Length / count fields: overwrite a header byte with an extreme value.
      const out = seed.slice();
      if (out.length > 0) out[rnd.int(0, Math.min(out.length - 1, 12))] = rnd.pick([0x00, 0x7f, 0x80, 0xff]);
      return out;
    }
    case 5: {
      const other = rnd.pick(pool);
      const a = seed.subarray(0, rnd.int(0, seed.length));
      const b = other.subarray(rnd.int(0, other.length));
      const out = new Uint8Array(a.length + b.length);
      out.set(a);
      out.set(b, a.length);
      return out;
    }
    case 6: {
      const at = rnd.int(0, seed.length);
      const junk = rnd.bytes(rnd.int(1, 16));
      const out = new Uint8Array(seed.length + junk.length);
      out.set(seed.subarray(0, at));
      out.set(junk, at);
      out.set(seed.subarray(at), at + junk.length);
      return out;
    }
    case 7: {
      const at = rnd.int(0, seed.length);
      const n = rnd.int(1, 8);
      const out = new Uint8Array(Math.max(0, seed.length - n));
      out.set(seed.subarray(0, at).subarray(0, out.length));
      out.set(
        seed.subarray(Math.min(seed.length, at + n)).subarray(0, Math.max(0, out.length - at)),
        Math.min(at, out.length),
      );
      return out;
    }
    case 8: {
      const twice = new Uint8Array(seed.length * 2);
      twice.set(seed);
      twice.set(seed, seed.length);
      return twice;
    }
    default:
      return seed.slice();
  }
}

function largestBytes(messages: DecodedMessage[]): number {
  let max = 0;
  for (const m of messages) {
    if (m.type !== 'records') continue;
    for (const r of m.records) {
      for (const v of Object.values(r.io)) if (v instanceof Uint8Array) max = Math.max(max, v.length);
    }
  }
  return max;
}

function check(result: DecodeResult, input: Uint8Array, maxFrame: number): void {
  if (!(result.consumed >= 0 && result.consumed <= input.length)) {
    throw new Error(`consumed ${result.consumed} of ${input.length}`);
  }
  if (largestBytes(result.messages) > maxFrame) throw new Error('decoded value larger than the frame limit');
  if (result.reply && result.reply.length > input.length * 8 + 64) throw new Error('reply out of proportion');
  if (!Array.isArray(result.messages)) throw new Error('messages missing');
  // No acknowledgement without something to store: a reply never stands for undecodable frames alone,
  // and an undecodable frame is handed over whole (the gateway archives its bytes).
  if (result.reply && result.reply.length > 0 && !result.messages.some((m) => m.type !== 'undecodable'))
    throw new Error('reply for undecodable frames only');
  for (const m of result.messages) {
    if (m.type === 'undecodable' && (m.frame.length === 0 || m.frame.length > maxFrame))
      throw new Error('undecodable frame without its bytes');
  }
  if (result.reply && result.reply.length > 0 && result.messages.length === 0)
    throw new Error('reply without any decoded message');
}

/** Wall-clock timeout per fuzz test: generous because CI machines are shared; CPU time is what we bound. */
const TIMEOUT_MS = 60_000;
/** CPU budget per protocol (a hang or a quadratic path blows it; normal runs use 0.5-2 s). */
const CPU_BUDGET_MS = 8_000;

function fuzz(label: string, seed: number, pool: Uint8Array[], run: (input: Uint8Array) => void): void {
  const rnd = createPrng(seed);
  const cpu = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) {
    const input = mutate(rnd, pool);
    try {
      run(input);
    } catch (caught) {
      throw new Error(
        `${label} iteration ${i} input ${Buffer.from(input).toString('hex').slice(0, 200)}: ${String(caught)}`,
      );
    }
  }
  const used = process.cpuUsage(cpu);
  expect((used.user + used.system) / 1000, `${label} CPU ms for ${ITERATIONS} inputs`).toBeLessThan(
    CPU_BUDGET_MS,
  );
}

describe('fuzzing (seeded, bounded)', { timeout: TIMEOUT_MS }, () => {
  it('teltonika TCP session and UDP datagrams', () => {
    const pool = seeds('teltonika');
    const imei = encodeTeltonikaImei('123456789012345');
    let session = createTeltonikaSession();
    session.decode(imei);
    let n = 0;
    fuzz('teltonika', 1, pool, (input) => {
      if (++n % 64 === 0) {
        session = createTeltonikaSession({ verifyCrc: n % 128 === 0 });
        session.decode(imei);
      }
      if (n % 2 === 0) check(session.decode(input), input, TELTONIKA_MAX_FRAME_SIZE);
      else check(decodeTeltonikaUdp(input), input, TELTONIKA_MAX_FRAME_SIZE);
    });
  });

  it('ruptela stream and whole-message decoders', () => {
    const pool = seeds('ruptela');
    let session = createRuptelaSession();
    let n = 0;
    fuzz('ruptela', 2, pool, (input) => {
      if (++n % 64 === 0) session = createRuptelaSession();
      if (n % 2 === 0) check(session.decode(input), input, RUPTELA_MAX_FRAME_SIZE);
      else
        check(
          decodeRuptelaMessage(input, { acceptLengthMismatch: n % 4 === 1 }),
          input,
          RUPTELA_MAX_FRAME_SIZE,
        );
      if (session.flush().length > 255) throw new Error('held-back records unbounded');
    });
  });

  it('gosafe stream and whole-message decoders', () => {
    const pool = seeds('gosafe');
    let session = createGoSafeSession();
    let n = 0;
    fuzz('gosafe', 3, pool, (input) => {
      if (++n % 64 === 0) session = createGoSafeSession();
      if (n % 2 === 0) check(session.decode(input), input, GOSAFE_MAX_FRAME_SIZE);
      else check(decodeGoSafeMessage(input, { unescaped: n % 4 === 1 }), input, GOSAFE_MAX_FRAME_SIZE);
    });
  });

  it('istartek stream decoder (strict and lenient)', () => {
    const pool = seeds('istartek');
    let strict = createIStartekSession({ now: () => 0 });
    let lenient = createIStartekSession({ now: () => 0, verifyChecksum: false });
    let n = 0;
    fuzz('istartek', 4, pool, (input) => {
      if (++n % 64 === 0) {
        strict = createIStartekSession({ now: () => 0 });
        lenient = createIStartekSession({ now: () => 0, verifyChecksum: false });
      }
      check((n % 2 === 0 ? strict : lenient).decode(input), input, ISTARTEK_MAX_FRAME_SIZE);
    });
  });

  it('generic OsmAnd and MQTT parsers', () => {
    const enc = new TextEncoder();
    const pool = [
      enc.encode(
        'id=123456&timestamp=1763694000&lat=25.2&lon=55.27&speed=10&bearing=90&batt=80&ignition=true',
      ),
      enc.encode(
        '{"device_id":"42","location":{"timestamp":"2026-11-21T02:59:00Z","coords":{"latitude":1,"longitude":2}}}',
      ),
      enc.encode('{"imei":"356307042441013","time":1763694000000,"lat":25,"lon":55,"io":{"66":12800}}'),
      enc.encode('[{"imei":"356307042441013","time":"2026-11-21T03:00:00Z","lat":25,"lon":55}]'),
    ];
    const dec = new TextDecoder();
    let n = 0;
    fuzz('generic', 5, pool, (input) => {
      n += 1;
      if (n % 2 === 0) {
        const mqtt = parseMqttLocationPayload(input);
        if (mqtt.records.length === 0 && !mqtt.error) throw new Error('mqtt returned nothing');
        return;
      }
      const text = dec.decode(input);
      const osm = parseOsmAndRequest(n % 4 === 1 ? { query: text } : { body: text }, { now: () => 0 });
      if (!osm.record && !osm.error) throw new Error('osmand returned nothing');
    });
  });

  it('stream decoders give the same messages however the bytes are chunked', () => {
    const rnd = createPrng(99);
    const streams: Array<[string, () => { decode(b: Uint8Array): DecodeResult }, Uint8Array[]]> = [
      [
        'ruptela',
        () => createRuptelaSession(),
        seeds('ruptela').filter((b) => createRuptelaSession().decode(b).error === undefined),
      ],
      ['gosafe', () => createGoSafeSession(), seeds('gosafe').filter((b) => b[b.length - 1] === 0x23)],
      [
        'istartek',
        () => createIStartekSession({ now: () => 0 }),
        seeds('istartek').filter(
          (b) => createIStartekSession({ now: () => 0 }).decode(b).error === undefined,
        ),
      ],
    ];
    for (const [name, make, frames] of streams) {
      expect(frames.length, name).toBeGreaterThan(3);
      const whole = new Uint8Array(frames.reduce((s, f) => s + f.length, 0));
      let at = 0;
      for (const f of frames) {
        whole.set(f, at);
        at += f.length;
      }
      const reference = make().decode(whole);
      expect(reference.error, name).toBeUndefined();
      expect(reference.consumed).toBe(whole.length);
      for (let trial = 0; trial < 20; trial++) {
        const session = make();
        const messages: DecodedMessage[] = [];
        let buffer = new Uint8Array(0);
        let offset = 0;
        while (offset < whole.length) {
          const take = rnd.int(1, 97);
          const chunk = whole.subarray(offset, offset + take);
          offset += chunk.length;
          const joined = new Uint8Array(buffer.length + chunk.length);
          joined.set(buffer);
          joined.set(chunk, buffer.length);
          const r = session.decode(joined);
          expect(r.error, name).toBeUndefined();
          messages.push(...r.messages);
          buffer = joined.slice(r.consumed);
        }
        expect(buffer.length).toBe(0);
        expect(messages).toEqual(reference.messages);
      }
    }
  });
});
