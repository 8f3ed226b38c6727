import type { Queryable } from '../../../storage/db';
import type { DeviceStateStore } from '../ports';

/**
 * The engines' state per device (`pipeline_device_state`, opaque JSON), saved by scale-out workers
 * before every ack so a node taking a partition over goes on from it (service/recovery.ts).
 */
export class SqlDeviceStateStore implements DeviceStateStore {
  constructor(private readonly db: Queryable) {}

  async loadDeviceStates(deviceUuids: readonly string[]): Promise<Map<string, unknown>> {
    if (deviceUuids.length === 0) return new Map();
    const rows = await this.db.query<{ device_uuid: string; state: unknown }>(
      `SELECT device_uuid::text AS device_uuid, state FROM pipeline_device_state
       WHERE device_uuid = ANY($1::uuid[])`,
      [deviceUuids],
    );
    return new Map(
      rows.map((r) => [r.device_uuid, typeof r.state === 'string' ? JSON.parse(r.state) : r.state]),
    );
  }

  async saveDeviceStates(
    rows: readonly { deviceUuid: string; lastTime: number | null; state: unknown }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO pipeline_device_state (device_uuid, last_time, state)
       SELECT u, t, s FROM unnest($1::uuid[], $2::float8[], $3::jsonb[]) AS x(u, t, s)
       ON CONFLICT (device_uuid) DO UPDATE SET last_time = EXCLUDED.last_time, state = EXCLUDED.state,
         updated_at = now()
       WHERE pipeline_device_state.last_time IS NULL OR EXCLUDED.last_time IS NULL
          OR pipeline_device_state.last_time <= EXCLUDED.last_time`,
      [rows.map((r) => r.deviceUuid), rows.map((r) => r.lastTime), rows.map((r) => JSON.stringify(r.state))],
    );
  }
}
