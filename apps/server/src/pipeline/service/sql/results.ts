import type { Queryable } from '../../../storage/db';
import type { DayRollups } from '../../rollups/rollups';
import type { TripDetection } from '../../trips/trips';
import { WrittenRows, type WriteBatch } from '../../incremental/write-changed';
import type { ResultStore } from '../ports';
import { type RollupDayWrite, writeRollupDays, SqlViolations } from './rollups';
import { type TripDayWrite, writeTripDays } from './trips';

/** The vehicle rows a flush needs (internal id and company of each vehicle uuid). */
export interface VehicleRow {
  readonly id: number;
  readonly uuid: string;
  readonly company_id: number;
}

/**
 * What the incremental pipeline writes: trips, stops and idling (trips.ts) and rollups with fuel
 * events (rollups.ts), in one transaction per flush; the violation counts the rollups read.
 */
export class SqlResultStore implements ResultStore {
  private readonly violations: SqlViolations;
  /** `rememberWrites`: this process is the only writer of trips and rollups (embedded; see write-changed.ts). */
  private readonly written: WrittenRows | null;

  constructor(
    private readonly db: Queryable,
    opts: { rememberWrites?: boolean } = {},
  ) {
    this.violations = new SqlViolations(db);
    this.written = opts.rememberWrites ? new WrittenRows() : null;
  }

  async replaceDeviceDay(
    ref: { companyUuid: string; deviceUuid: string; vehicleUuid: string | null },
    date: string,
    det: TripDetection,
  ): Promise<void> {
    await this.writeResults([{ ref, date, detection: det }], []);
  }

  async replaceRollups(ref: { companyUuid: string; vehicleUuid: string }, day: DayRollups): Promise<void> {
    await this.writeResults([], [{ ref, day }]);
  }

  /**
   * One flush: the device-days' trips and the vehicle-days' rollups and fuel events, replaced for all of
   * them at once (only changed rows written), in one transaction when the connection has them. An unknown device or vehicle (deleted meanwhile) is an error, as a single write was.
   */
  async writeResults(trips: readonly TripDayWrite[], rollups: readonly RollupDayWrite[]): Promise<void> {
    if (trips.length === 0 && rollups.length === 0) return;
    const db = this.db as Queryable & { transaction?: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> };
    // The memory of what was written moves on only once the transaction has committed.
    const batch = this.written?.begin();
    const run = (q: Queryable) => this.writeResultsIn(q, trips, rollups, batch);
    if (typeof db.transaction === 'function') await db.transaction(run);
    else await run(db);
    batch?.commit();
  }

  private async writeResultsIn(
    db: Queryable,
    trips: readonly TripDayWrite[],
    rollups: readonly RollupDayWrite[],
    batch?: WriteBatch,
  ): Promise<void> {
    const vehicleUuids = [
      ...new Set([
        ...trips.map((t) => t.ref.vehicleUuid).filter((v): v is string => !!v),
        ...rollups.map((r) => r.ref.vehicleUuid),
      ]),
    ];
    const vehicles = new Map(
      vehicleUuids.length
        ? (
            await db.query<{ id: number; uuid: string; company_id: number }>(
              'SELECT id, uuid, company_id FROM vehicles WHERE uuid = ANY($1::uuid[])',
              [vehicleUuids],
            )
          ).map((v) => [v.uuid, v])
        : [],
    );
    if (trips.length) await writeTripDays(db, trips, vehicles, batch);
    if (rollups.length) await writeRollupDays(db, rollups, vehicles, batch);
  }

  violationTimesMany(
    vehicleUuids: readonly string[],
    from: number,
    to: number,
  ): Promise<Map<string, number[]>> {
    return this.violations.violationTimesMany(vehicleUuids, from, to);
  }

  violationTimes(vehicleUuid: string, from: number, to: number): Promise<number[]> {
    return this.violations.violationTimes(vehicleUuid, from, to);
  }
}
