import type { Queryable } from '../storage/db';
import type { GatewayPorts } from '../gateway/gateway';
import { startSimulatedFleet, type SimulatedFleet } from './fleet';
import type { SimProtocol } from './device';

/** The devices the demo simulates (bench:demo reads them before the server holds the database). */
export const DEMO_FLEET_DEVICES_SQL = `SELECT imei, type FROM devices WHERE type IN ('teltonika', 'ruptela', 'gosafe', 'istartek')
       AND status = 'active' ORDER BY id LIMIT 500`;

/**
 * The demo's moving vehicles: one simulated tracker per seeded device that speaks a wire protocol
 * (door_technologies has no public protocol and is skipped), driving against this process's own
 * gateway over loopback. Called by the composition root when SIMULATOR=on (the default) and the demo
 * company is seeded. Returns null when there is nothing to simulate.
 */
export async function startDemoFleet(opts: {
  db: Queryable;
  ports: GatewayPorts;
  intervalMs?: number;
  seed?: number;
  log?: (msg: string) => void;
  /** Only every `of`-th device from `index` (start:cluster --demo spreads the fleet over its gateways). */
  share?: { index: number; of: number };
  /**
   * bench:demo replays a simulated day: fix times on a virtual clock from `startMs`, one demo interval
   * (5 s) per report, reports every `intervalMs` of wall time. Absent: the real clock (the demo).
   */
  virtualDay?: { startMs: number };
}): Promise<SimulatedFleet | null> {
  const rows = await opts.db.query<{ imei: string; type: string }>(DEMO_FLEET_DEVICES_SQL);
  const ports: Partial<Record<SimProtocol, number>> = {};
  if (opts.ports.teltonika !== undefined) ports.teltonika = opts.ports.teltonika;
  if (opts.ports.ruptela !== undefined) ports.ruptela = opts.ports.ruptela;
  if (opts.ports.gosafe !== undefined) ports.gosafe = opts.ports.gosafe;
  if (opts.ports.istartek !== undefined) ports.istartek = opts.ports.istartek;
  const devices: { imei: string; protocol: SimProtocol; from?: { latitude: number; longitude: number } }[] =
    rows
      .filter((r) => ports[r.type as SimProtocol] !== undefined)
      .filter((_, i) => !opts.share || i % opts.share.of === opts.share.index)
      .map((r) => ({ imei: r.imei, protocol: r.type as SimProtocol }));
  if (devices.length === 0) return null;
  // Each vehicle goes on from where its tracker last reported (the seeded history's depot bay), not
  // from a random point of a route that may lie in another city. bench:demo's virtual day starts before
  // any stored history and keeps the routes as they were.
  if (!opts.virtualDay) {
    const last = await opts.db.query<{ imei: string; latitude: number; longitude: number }>(
      `SELECT d.imei, l.latitude, l.longitude FROM latest_locations l JOIN devices d ON d.id = l.device_id
       WHERE d.imei = ANY($1::text[]) AND l.latitude IS NOT NULL AND l.longitude IS NOT NULL`,
      [devices.map((d) => d.imei)],
    );
    const at = new Map(last.map((r) => [r.imei, { latitude: r.latitude, longitude: r.longitude }]));
    for (const d of devices) {
      const from = at.get(d.imei);
      if (from) d.from = from;
    }
  }
  opts.log?.(`simulator: ${devices.length} demo devices driving against the gateway`);
  return startSimulatedFleet({
    devices,
    host: '127.0.0.1',
    ports,
    intervalMs: opts.intervalMs ?? 5000,
    seed: opts.seed ?? 2026,
    ...(opts.virtualDay
      ? { clock: 'virtual' as const, virtualStartMs: opts.virtualDay.startMs, virtualStepMs: 5000 }
      : { clock: 'real' as const }),
    ...(opts.log ? { log: opts.log } : {}),
  });
}
