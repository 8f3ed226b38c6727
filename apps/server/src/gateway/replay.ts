import {
  createGoSafeSession,
  createIStartekSession,
  createRuptelaSession,
  createTeltonikaSession,
  encodeTeltonikaImei,
  parseMqttLocationPayload,
  parseOsmAndRequest,
  type DecodedRecord,
  type DecodeResult,
} from '@fleet/device-protocols';
import { subjects, type Bus } from '../realtime/bus';
import type { DeviceRef, LocationInput, Storage } from '../storage/storage';
import { listRawFrames, markReplayed, type RawFrameRow } from './raw-archive';
import { toLocationInput, withIoElements } from './records';
import { flagBeforeInstallation } from './hygiene';
import { applySensors, loadSensorSettings } from './sensors';

/**
 * Replay of archived frames (issue 19): after a decoder update, a super admin feeds a device's archived
 * frames through the decoder again. Frames that now decode are stored like live ones (the same
 * normalisation, sensors and idempotent insert: a frame replayed twice stores its records once) and
 * handed to the pipeline; each frame's row records when it was replayed and what came of it.
 */

/** A decoder for replay: the frame's bytes and the device's IMEI -> what the codec makes of them. */
export type ReplayDecoder = (bytes: Uint8Array, imei: string) => DecodeResult;

/** The decoders in use, one per protocol (overridable for a test of a decoder change). */
export const replayDecoders: Record<string, ReplayDecoder> = {
  teltonika: (bytes, imei) => {
    // A TCP session expects the IMEI handshake first; UDP datagrams carry the IMEI themselves.
    const s = createTeltonikaSession();
    s.decode(encodeTeltonikaImei(imei));
    return s.decode(bytes);
  },
  ruptela: (bytes) => createRuptelaSession().decode(bytes),
  gosafe: (bytes) => createGoSafeSession().decode(bytes),
  istartek: (bytes) => createIStartekSession().decode(bytes),
  osmand: (bytes) => {
    // Archived as `<method> <url>\n<content-type>\n\n<body>` by the gateway.
    const text = Buffer.from(bytes).toString('utf8');
    const head = text.indexOf('\n\n');
    const [requestLine = '', contentType = ''] = text.slice(0, Math.max(head, 0)).split('\n');
    const url = requestLine.split(' ')[1] ?? '/';
    const q = url.indexOf('?');
    const parsed = parseOsmAndRequest({
      query: q >= 0 ? url.slice(q + 1) : '',
      body: head >= 0 ? text.slice(head + 2) : '',
      ...(contentType ? { contentType } : {}),
    });
    if (parsed.error) return { consumed: 0, messages: [], error: parsed.error };
    return {
      consumed: bytes.length,
      messages: [{ type: 'records', protocol: 'osmand', imei: parsed.record.imei, records: [parsed.record] }],
    };
  },
  mqtt: (bytes, imei) => {
    const parsed = parseMqttLocationPayload(bytes, { imei });
    if (parsed.error) return { consumed: 0, messages: [], error: parsed.error };
    return {
      consumed: bytes.length,
      messages: [{ type: 'records', protocol: 'mqtt', imei, records: parsed.records }],
    };
  },
};

export interface ReplayOutcome {
  id: number;
  result: 'stored' | 'undecodable' | 'no-records';
  reason?: string;
  records: number;
  stored: number;
}

export interface ReplayDeps {
  storage: Pick<Storage, 'db' | 'insertLocations'>;
  bus: Bus;
  decoders?: Partial<Record<string, ReplayDecoder>>;
  now?: () => Date;
}

/** Replays frames of one device (all its archived frames, or the given ids). */
export async function replayRawFrames(
  deps: ReplayDeps,
  device: DeviceRef,
  ids?: readonly number[],
): Promise<ReplayOutcome[]> {
  const frames = await listRawFrames(deps.storage.db, device.deviceId, ids ? { ids } : { limit: 500 });
  const settings = await loadSensorSettings(deps.storage.db, device.deviceId);
  const outcomes: ReplayOutcome[] = [];
  for (const frame of frames) outcomes.push(await replayOne(deps, device, frame, settings));
  return outcomes;
}

async function replayOne(
  deps: ReplayDeps,
  device: DeviceRef,
  frame: RawFrameRow,
  settings: Awaited<ReturnType<typeof loadSensorSettings>>,
): Promise<ReplayOutcome> {
  const decode = deps.decoders?.[frame.protocol] ?? replayDecoders[frame.protocol];
  const bytes = Uint8Array.from(Buffer.from(frame.bytesHex, 'hex'));
  const fail = async (reason: string): Promise<ReplayOutcome> => {
    await markReplayed(deps.storage.db, frame.id, `undecodable: ${reason}`, 0);
    return { id: frame.id, result: 'undecodable', reason, records: 0, stored: 0 };
  };
  if (!decode) return fail(`no decoder for ${frame.protocol}`);
  let res: DecodeResult;
  try {
    res = decode(bytes, device.imei);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  if (res.error) return fail(`${res.error.code}: ${res.error.message}`);
  const still = res.messages.find((m) => m.type === 'undecodable');
  if (still?.type === 'undecodable') return fail(still.reason);
  // Only this device's records: a frame naming another IMEI is not stored under this device.
  const records: DecodedRecord[] = res.messages.flatMap((m) =>
    m.type === 'records' && m.imei.replace(/^0+/, '') === device.imei.replace(/^0+/, '') ? m.records : [],
  );
  if (records.length === 0) {
    await markReplayed(deps.storage.db, frame.id, 'no records', 0);
    return { id: frame.id, result: 'no-records', records: 0, stored: 0 };
  }
  const at = (deps.now?.() ?? new Date()).getTime();
  const inputs: LocationInput[] = records.map((r) =>
    flagBeforeInstallation(toLocationInput(applySensors(r, device.type, settings), device, at), device),
  );
  const fresh = await deps.storage.insertLocations(inputs);
  if (fresh.length > 0) {
    for (const r of fresh) withIoElements(r);
    await deps.bus.publish(subjects.locations(device.companyUuid, device.deviceUuid), {
      companyUuid: device.companyUuid,
      deviceUuid: device.deviceUuid,
      vehicleUuid: device.vehicleUuid,
      generic: frame.protocol === 'osmand' || frame.protocol === 'mqtt',
      records: fresh,
    });
  }
  await markReplayed(deps.storage.db, frame.id, 'stored', fresh.length);
  return { id: frame.id, result: 'stored', records: records.length, stored: fresh.length };
}
