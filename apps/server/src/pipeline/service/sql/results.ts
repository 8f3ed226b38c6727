import type { Queryable } from '../../../storage/db';
import type { DayRollups } from '../../rollups/rollups';
import type { TripDetection } from '../../trips/trips';
import { WrittenRows, type WriteBatch } from '../../incremental/write-changed';
import type { ResultStore } from '../ports';
import { type RollupDayWrite, writeRollupDays, SqlViolations } from './rollups';
import { type TripDayWrite, tripDevices, writeTripDays } from './trips';

/** The vehicle rows a flush needs (internal id and company of each vehicle uuid). */
export interface VehicleRow {
  readonly id: number;
  readonly uuid: string;
  readonly company_id: number;
}

/**
 * The writes of a flush, collected to be sent afterwards (`writeResultsIn`). Only for the writers of
 * trips and rollups (trips.ts, rollups.ts, incremental/write-changed.ts), whose statements return no
 * rows they read: a query here answers no rows.
 */
class WriteList implements Queryable {
  readonly statements: { text: string; params: readonly unknown[] }[] = [];
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]> {
    this.statements.push({ text, params: params ?? [] });
    return Promise.resolve([]);
  }
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
    // Sent together only on the embedded database (below): node-postgres deprecates a second query on a
    // client that is still running one, and PostgreSQL runs other connections' work meanwhile anyway.
    const together = (db as { driver?: string }).driver === 'pglite';
    if (typeof db.transaction === 'function')
      await db.transaction((tx) => this.writeResultsIn(tx, trips, rollups, batch, together));
    else await this.writeResultsIn(db, trips, rollups, batch, false);
    batch?.commit();
  }

  /**
   * The flush's reads first (vehicle and device ids), then its writes. With `together` (a transaction
   * on the embedded database) the writes are sent at once, each without waiting for the one before:
   * PGlite runs a transaction's statements in the order sent, and the first failure fails the rest and
   * the transaction. Waiting for each reply before sending the next kept the transaction open for a
   * turn of the server's event loop per statement, and PGlite's one connection is what every device's
   * insert waits for: ~40 % of the time a flush held it (bench:soak at 1,000 devices: 2.2 s of
   * transactions per 20 s, 1.4 s of them executing statements).
   */
  private async writeResultsIn(
    db: Queryable,
    trips: readonly TripDayWrite[],
    rollups: readonly RollupDayWrite[],
    batch: WriteBatch | undefined,
    together: boolean,
  ): Promise<void> {
    const vehicleUuids = [
      ...new Set([
        ...trips.map((t) => t.ref.vehicleUuid).filter((v): v is string => !!v),
        ...rollups.map((r) => r.ref.vehicleUuid),
      ]),
    ];
    const readVehicles = () =>
      vehicleUuids.length
        ? db.query<VehicleRow>('SELECT id, uuid, company_id FROM vehicles WHERE uuid = ANY($1::uuid[])', [
            vehicleUuids,
          ])
        : Promise.resolve([]);
    // Together on the embedded database; one after the other on a node-postgres client (see above).
    const [vehicleRows, devices] = together
      ? await Promise.all([readVehicles(), tripDevices(db, trips)])
      : [await readVehicles(), await tripDevices(db, trips)];
    const vehicles = new Map(vehicleRows.map((v) => [v.uuid, v]));
    const writes = new WriteList();
    if (trips.length) await writeTripDays(writes, trips, vehicles, devices, batch);
    if (rollups.length) await writeRollupDays(writes, rollups, vehicles, batch);
    if (together) await Promise.all(writes.statements.map((w) => db.query(w.text, w.params)));
    else for (const w of writes.statements) await db.query(w.text, w.params);
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
