/**
 * Decode throughput of the Ruptela and GoSafe codecs (records/s), to keep a refactor of their files
 * honest (issue 22: the split into framing, records and command encoding must stay within 5 %).
 *
 * Frames: seeded records (1-10 per frame, the IO a bus tracker sends) encoded with our encoders;
 * Ruptela as command 1 and as extended records (68), GoSafe as text. Each codec decodes every frame
 * through its stream session (framing, CRC, records, reply); the figure is the best of `ROUNDS` rounds
 * after a warm-up, timed in process CPU time, so it moves with the code more than with a busy neighbour.
 *
 * Run: npx tsx --conditions=source packages/device-protocols/bench/codecs.bench.ts
 */
import {
  createGoSafeSession,
  createPrng,
  createRuptelaSession,
  encodeGoSafeText,
  encodeRuptelaRecords,
  type DecodedRecord,
  type DecodeResult,
  type IoValue,
} from '../src/index';

const IMEI = '356307042441013';
const FRAMES = 2000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function records(seed: number, protocol: 'ruptela' | 'gosafe'): DecodedRecord[][] {
  const rnd = createPrng(seed);
  const out: DecodedRecord[][] = [];
  let t = Date.UTC(2026, 0, 5, 6);
  for (let f = 0; f < FRAMES; f++) {
    const list: DecodedRecord[] = [];
    for (let i = rnd.int(1, 10); i > 0; i--) {
      t += 10_000;
      const io: Record<number, IoValue> = {
        1: rnd.int(0, 1),
        2: rnd.int(0, 1),
        66: rnd.int(11_000, 14_500),
        67: rnd.int(3_900, 4_200),
        9: rnd.int(0, 5000),
        16: rnd.int(0, 9_000_000),
        21: rnd.int(0, 5),
        89: rnd.int(0, 100),
      };
      // Ruptela's command 1 carries one-byte parameter ids only (ignition 239 maps to 409).
      if (protocol !== 'ruptela') io[239] = rnd.int(0, 1);
      list.push({
        imei: IMEI,
        protocol,
        fixTime: t,
        valid: true,
        latitude: 25.2 + rnd.int(-50_000, 50_000) / 1e6,
        longitude: 55.27 + rnd.int(-50_000, 50_000) / 1e6,
        altitude: rnd.int(0, 60),
        speed: rnd.int(0, 120),
        course: rnd.int(0, 359),
        satellites: rnd.int(4, 20),
        eventId: 0,
        io,
      });
    }
    out.push(list);
  }
  return out;
}

function bench(name: string, frames: Uint8Array[], session: () => { decode(b: Uint8Array): DecodeResult }) {
  let count = 0;
  const once = () => {
    const s = session();
    let n = 0;
    for (const f of frames) {
      const r = s.decode(f);
      if (r.error) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
      for (const m of r.messages) if (m.type === 'records') n += m.records.length;
    }
    return n;
  };
  count = once();
  for (let i = 0; i < 3; i++) once();
  let best = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    // CPU time of this process (not wall time): on a shared machine the wall clock also counts the
    // time other processes held the cores.
    const c0 = process.cpuUsage();
    once();
    const c = process.cpuUsage(c0);
    best = Math.min(best, (c.user + c.system) / 1000);
  }
  const perSecond = Math.round((count / best) * 1000);
  console.log(
    `  ${name.padEnd(22)} ${perSecond.toLocaleString('en-US').padStart(12)} records/s (${count} records)`,
  );
  return perSecond;
}

const ruptela = records(1, 'ruptela');
const gosafe = records(2, 'gosafe');
const figures = {
  ruptela_cmd1: bench(
    'ruptela command 1',
    ruptela.map((r) => encodeRuptelaRecords(IMEI, r)),
    () => createRuptelaSession(),
  ),
  ruptela_extended: bench(
    'ruptela extended (68)',
    ruptela.map((r) => encodeRuptelaRecords(IMEI, r, { extended: true })),
    () => createRuptelaSession(),
  ),
  gosafe_text: bench(
    'gosafe text',
    gosafe.map((r) => encodeGoSafeText(IMEI, r)),
    () => createGoSafeSession(),
  ),
};
console.log(JSON.stringify({ benchmark: 'decode:ruptela+gosafe', unit: 'records/s', ...figures }));
