/**
 * The call site for repairing stored data after a back-dated sensor change (issue 19).
 *
 * A sensor setting that applies from a time in the past changes how records already stored in that
 * window should read (ignition, odometer, fuel litres), and so the trips, idling, engine hours and fuel
 * derived from them. The pipeline's repair job (issue 13: `repair(deviceId, from, to)`) recomputes a
 * device's window; it is wired here with {@link setSensorRepairJob} when the server starts. Until a job
 * is wired the request is logged and recorded as pending (nothing else changes).
 */
export type SensorRepairJob = (deviceId: number, from: Date, to: Date) => Promise<void>;

let job: SensorRepairJob | undefined;
const pending: { deviceId: number; from: Date; to: Date }[] = [];

export function setSensorRepairJob(fn: SensorRepairJob | undefined): void {
  job = fn;
}

/** Repair requests made while no job was wired (newest last; at most 1000 kept). */
export function pendingSensorRepairs(): readonly { deviceId: number; from: Date; to: Date }[] {
  return pending;
}

export async function requestSensorRepair(deviceId: number, from: Date, to: Date): Promise<void> {
  if (job) {
    await job(deviceId, from, to);
    return;
  }
  pending.push({ deviceId, from, to });
  if (pending.length > 1000) pending.shift();
}
