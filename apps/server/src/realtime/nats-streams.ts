import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from 'nats';
import { safeName, shortHash, type Family, type NatsSubjects } from './nats-subjects';

/**
 * The JetStream side of the bus's set-up: the streams of the two families (retention, storage,
 * de-duplication window, replicas) and the durable consumers of a queue group (ack policy, ack wait,
 * how many messages may be out). A change to retention or delivery settings is a change here.
 */

export interface StreamSettings {
  /** Stream replicas (1 on one server; 3 on a NATS cluster). */
  replicas?: number;
  /** Max age of stored locations messages in hours (default 24). */
  locationsMaxAgeHours?: number;
}

/** Creates the streams, or updates them to these settings when they exist. */
export async function ensureStreams(
  jsm: JetStreamManager,
  subjects: NatsSubjects,
  opts: StreamSettings,
): Promise<void> {
  const replicas = opts.replicas ?? 1;
  const hours = (h: number) => nanos(h * 3600_000);
  const configs: Partial<StreamConfig>[] = [
    {
      name: subjects.families[0]!.stream,
      subjects: [`${subjects.prefix}locations.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: hours(opts.locationsMaxAgeHours ?? 24),
      duplicate_window: nanos(120_000),
      num_replicas: replicas,
    },
    {
      name: subjects.families[1]!.stream,
      subjects: [`${subjects.prefix}commands.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: hours(1),
      duplicate_window: nanos(60_000),
      num_replicas: replicas,
    },
  ];
  for (const cfg of configs) {
    try {
      await jsm.streams.info(cfg.name!);
      await jsm.streams.update(cfg.name!, cfg);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await jsm.streams.add(cfg);
    }
  }
}

/**
 * The durable consumer of a queue group on one filter (one per partition of a partitioned family),
 * created or brought to the current settings.
 */
export async function durableConsumer(
  js: JetStreamClient,
  jsm: JetStreamManager,
  ackWaitMs: number,
  fam: Family,
  queue: string,
  pattern: string,
  filter: string,
  index: number,
  maxAckPending?: number,
) {
  const name = `${safeName(queue)}_${shortHash(pattern)}${fam.keyToken === null ? '' : `_p${index}`}`;
  const config = {
    durable_name: name,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(ackWaitMs),
    deliver_policy: DeliverPolicy.All,
    filter_subject: filter,
    max_deliver: -1,
    max_ack_pending: maxAckPending ?? (fam.keyToken === null ? 1000 : 1),
  };
  try {
    await jsm.consumers.add(fam.stream, config);
  } catch (err) {
    // Exists with other settings (e.g. a changed ack wait): update what may be updated.
    await jsm.consumers.update(fam.stream, name, {
      ack_wait: config.ack_wait,
      max_ack_pending: config.max_ack_pending,
      max_deliver: config.max_deliver,
    });
    void err;
  }
  return js.consumers.get(fam.stream, name);
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; api_error?: { err_code?: number }; message?: string };
  return e.api_error?.err_code === 10059 || e.code === '404' || /not found/i.test(e.message ?? '');
}
