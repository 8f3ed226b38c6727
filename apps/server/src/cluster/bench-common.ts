import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * What the modes of bench:cluster share (bench.ts: load and drain; bench-day.ts: the simulated day):
 * the command line, the run's own PostgreSQL schema and NATS prefix, and /proc readings of a node.
 */
export const args = process.argv.slice(2);
export const num = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : def;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
};
export const DEVICES = args.includes('--full') ? 10_000 : num('devices', 2000);
export const SECONDS = num('seconds', 60);
export const INTERVAL_MS = num('interval', 10) * 1000;
export const BURST_EVERY_MS = 20_000;
export const dbUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const run = randomBytes(3).toString('hex');
export const schema = `bench_cluster_${run}`;
export const prefix = `b${run}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function cpuTicks(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return Number(parts[11]) + Number(parts[12]);
}
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}
/** The local nats-server's pid (its CPU is reported next to the nodes'), if one runs here. */
export function natsServerPid(): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'nats-server') return Number(d);
    } catch {
      /* gone */
    }
  }
  return null;
}
export const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
