import { DAY0 } from './soak-gen';

/**
 * Pipeline lag as bench:soak and bench:cluster --day measure it: the engine report of a probe vehicle
 * (ignition always on, see soak-gen.ts) over the simulated day says up to which fix its rollups have
 * gone; the frame that carried that fix was sent at a known wall time. Returns the lag now (ms): 0 when
 * everything sent is visible, else the age of the oldest frame whose last fix is not visible yet
 * (frames before it were visible at an earlier probe). Null when the report could not be read.
 *
 * `sends`: [probe index, last fix time in the frame, wall time sent], as the generator reports them.
 */
export async function probeLag(opts: {
  http: string;
  headers: Record<string, string>;
  vehicleUuid: string;
  probe: number;
  sends: readonly [number, number, number][];
  intervalS: number;
}): Promise<number | null> {
  const q =
    `from=${new Date(DAY0).toISOString()}&to=${new Date(DAY0 + 86_400_000).toISOString()}` +
    `&vehicle_uuid=${opts.vehicleUuid}`;
  const r = await fetch(`${opts.http}/v1/reports/engine?${q}`, { headers: opts.headers });
  if (!r.ok) return null;
  const body = (await r.json()) as { data?: { engine_hours?: number }[] };
  const hoursOn = body.data?.[0]?.engine_hours;
  if (hoursOn === undefined) return null;
  const mine = opts.sends.filter((s) => s[0] === opts.probe);
  if (mine.length === 0) return null;
  // Probes start within the first interval of the day; engine hours are rounded in the report.
  const reached = DAY0 + hoursOn * 3_600_000;
  const pending = mine.find((s) => s[1] > reached + Math.max(opts.intervalS * 2000, 40_000));
  return pending ? Date.now() - pending[2] : 0;
}
