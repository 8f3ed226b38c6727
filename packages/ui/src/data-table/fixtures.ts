/** Deterministic demo rows for DataTable stories and the benchmark (seeded). Not part of the runtime API. */
import type { VehicleStatus } from '@fleet/core';
import { seededRandom } from '../map/fixtures';

export interface DemoVehicleRow {
  uuid: string;
  plate: string;
  type: 'bus' | 'car' | 'truck' | 'motorcycle';
  driver: string;
  status: VehicleStatus;
  speed: number;
  imei: string;
  odometer: number;
  /** ISO time of the last location. */
  updatedAt: string;
}

const drivers = [
  'Ahmed Ali',
  'Fatima Hassan',
  'John Smith',
  'Omar Khalid',
  'Sara Ibrahim',
  'Yousef Saleh',
  'Maria Garcia',
];
const types = ['bus', 'car', 'truck', 'motorcycle'] as const;
const statuses: VehicleStatus[] = ['live', 'idle', 'offline', 'inactive', 'no-data'];

export function demoVehicleRows(count: number, seed = 7): DemoVehicleRow[] {
  const rnd = seededRandom(seed);
  const base = Date.UTC(2026, 10, 20, 12, 0, 0);
  return Array.from({ length: count }, (_, i) => ({
    uuid: `veh-${String(i + 1).padStart(5, '0')}`,
    plate: `${String.fromCharCode(65 + (i % 26))} ${String(10000 + ((i * 7919) % 89999))}`,
    type: types[Math.floor(rnd() * types.length)]!,
    driver: drivers[Math.floor(rnd() * drivers.length)]!,
    status: statuses[Math.floor(rnd() * statuses.length)]!,
    speed: Math.round(rnd() * 1200) / 10,
    imei: `35${String(Math.floor(rnd() * 1e13)).padStart(13, '0')}`,
    odometer: Math.round(rnd() * 400000),
    updatedAt: new Date(base - Math.floor(rnd() * 86_400_000)).toISOString(),
  }));
}
