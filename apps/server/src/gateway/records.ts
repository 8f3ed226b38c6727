import {
  digitalOutputOf,
  ignitionOf,
  ioElementsJson,
  isIdle,
  unpluggedOf,
  type DecodedRecord,
  type IoValue,
} from '@fleet/device-protocols';
import type { LiveLocation } from '@fleet/api-client';
import type { DeviceRef, LocationInput } from '../storage/storage';

/** Oldest and newest fix time accepted as a position (older: GPS week rollover, newer: clock drift). */
const MIN_FIX_MS = Date.UTC(2000, 0, 1);
const MAX_FUTURE_MS = 24 * 3600 * 1000;

/**
 * A decoded record as the spec's location record (created_at = fix time, ignition, is_idle, latitude,
 * longitude, speed, io_elements by numeric id `{value}`, digital_output1/2) plus the storage keys.
 *
 * Design decisions (the spec does not say):
 * - A record without a GPS fix (`valid` false) or with impossible coordinates is stored with null
 *   coordinates, so live updates keep the previous position (spec section 4); its IO data is kept.
 * - A fix time before 2000 or more than `maxFutureMs` (GATEWAY_MAX_FUTURE_S, default a day) in the future
 *   is stored as `valid: false` (raw only): it can never become the vehicle's latest position, and the
 *   pipeline ignores it (no trips, reports or live updates from it).
 * - Ignition absent from the record counts as off; `is_idle` is ignition on and speed under 3 km/h.
 */
export function toLocationInput(
  record: DecodedRecord,
  device: DeviceRef,
  now: number,
  maxFutureMs = MAX_FUTURE_MS,
): LocationInput {
  const hasFix =
    record.valid &&
    Number.isFinite(record.latitude) &&
    Number.isFinite(record.longitude) &&
    Math.abs(record.latitude) <= 90 &&
    Math.abs(record.longitude) <= 180 &&
    !(record.latitude === 0 && record.longitude === 0);
  const timeOk = record.fixTime >= MIN_FIX_MS && record.fixTime <= now + maxFutureMs;
  const ioJson = ioElementsJson(record.io);
  return {
    deviceId: device.deviceId,
    vehicleId: device.vehicleId,
    companyId: device.companyId,
    fixTime: new Date(timeOk ? record.fixTime : Math.min(Math.max(record.fixTime, 0), now)),
    latitude: hasFix ? record.latitude : null,
    longitude: hasFix ? record.longitude : null,
    altitude: Number.isFinite(record.altitude) ? record.altitude : null,
    speed: Number.isFinite(record.speed) ? Math.max(0, record.speed) : null,
    course: Number.isFinite(record.course) ? record.course : null,
    satellites: Number.isFinite(record.satellites) ? Math.min(record.satellites, 255) : null,
    ignition: ignitionOf(record) ?? false,
    isIdle: isIdle(record) ?? false,
    digitalOutput1: digitalOutputOf(record, 1) ?? 0,
    digitalOutput2: digitalOutputOf(record, 2) ?? 0,
    ioJson,
    valid: timeOk,
    source: record.protocol,
  };
}

/*
 * IO is serialised once, by ioElementsJson of @fleet/device-protocols, into `LocationInput.ioJson`.
 *
 * Why a string and not the object: a batch lives from decode until its commit (hundreds of ms under
 * load), long enough for V8 to promote whatever it holds to the old generation, and profiling the
 * PostgreSQL ingest showed garbage collection as the largest single cost (~40% of the gateway's busy
 * time). One flat string per record is one object to carry instead of ~20; storage writes it to the
 * jsonb column as it is. The object is parsed from that text only for records that were stored and
 * are published ({@link withIoElements}), and dies young: the pipeline reads IO from that object and
 * the live message carries it, encoded again only as part of the whole message by the bus (NATS) and
 * the socket. Splicing the stored text into the outgoing frame instead would tie the hub's framing
 * and the bus codec to this one field for a saving only on records that are published live.
 */

/** The io_elements object and its JSON (tests; the gateway keeps only the JSON until publishing). */
export function ioElementsOf(io: Record<number, IoValue>): {
  ioElements: Record<string, { value: number | string }>;
  ioJson: string;
} {
  const ioJson = ioElementsJson(io);
  return { ioElements: JSON.parse(ioJson) as Record<string, { value: number | string }>, ioJson };
}

/** Fills `ioElements` from `ioJson` (stored records about to be published). */
export function withIoElements(input: LocationInput): LocationInput {
  if (!input.ioElements) {
    input.ioElements = input.ioJson
      ? (JSON.parse(input.ioJson) as Record<string, { value: number | string }>)
      : {};
  }
  return input;
}

/** Power state a batch of records reports: true = unplugged, false = powered, undefined = not said. */
export function powerCutOf(records: readonly DecodedRecord[]): boolean | undefined {
  let state: boolean | undefined;
  for (const r of records) {
    const u = unpluggedOf(r);
    if (u !== undefined) state = u;
  }
  return state;
}

/**
 * Realtime `data` of device-location / generic-device-location: the location record naming its vehicle,
 * checked against the contract's schema type (api-client `LiveLocation`) at compile time.
 */
export function liveLocation(input: LocationInput, device: DeviceRef, vehicleUuid: string) {
  return {
    created_at: input.fixTime.toISOString(),
    ignition: input.ignition ? (1 as const) : (0 as const),
    is_idle: input.isIdle === true,
    latitude: input.latitude,
    longitude: input.longitude,
    speed: Math.max(0, input.speed ?? 0),
    io_elements: input.ioElements ?? {},
    digital_output1: input.digitalOutput1 === 1 ? (1 as const) : (0 as const),
    digital_output2: input.digitalOutput2 === 1 ? (1 as const) : (0 as const),
    vehicle_uuid: vehicleUuid,
    device_imei: device.imei,
    heading: input.course === null || input.course === undefined ? null : ((input.course % 360) + 360) % 360,
    altitude: input.altitude ?? null,
    satellites: input.satellites ?? null,
  } satisfies LiveLocation;
}
