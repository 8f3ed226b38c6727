import { startOutboxLoop } from '../storage/outbox-loop';
import fp from 'fastify-plugin';
import type { PartPlugin } from '../parts/part';
import type { Queryable } from '../storage/db';
import type { Bus } from '../realtime/bus';
import { loadPushConfig, type PushConfig } from './config';
import { FcmSender, type PushSender } from './fcm';
import { PushOutbox } from './outbox';

export interface PushService {
  stop(): Promise<void>;
  /** Null when push is disabled (no service account configured). */
  outbox: PushOutbox | null;
  config: PushConfig;
}

export interface StartPushOptions {
  env: Record<string, string | undefined>;
  db: Queryable;
  log: (line: string) => void;
  now?: () => Date;
  random?: () => number;
  /** Replaces the FCM sender (tests); by default one is built from the configuration. */
  sender?: PushSender;
  /**
   * When given, a realtime `notification` event wakes the worker at once instead of waiting for the
   * next poll (the poll stays: it catches rows stored by other processes and retries coming due).
   */
  bus?: Bus;
}

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Mobile push: when a service account is configured, a worker polls the push outbox every
 * PUSH_POLL_MS and delivers due rows through FCM's HTTP v1 API. Without credentials it logs one line
 * and does nothing (notifications are still stored and delivered over the WebSocket; their queued
 * pushes wait, and are dropped as stale after PUSH_MAX_AGE_MS once push is configured).
 */
export async function startPush(o: StartPushOptions): Promise<PushService> {
  const config = loadPushConfig(o.env);
  if (!config.account) {
    o.log(
      'push: off (set FCM_SERVICE_ACCOUNT_FILE or FCM_SERVICE_ACCOUNT_JSON to send mobile push through FCM)',
    );
    return { outbox: null, config, stop: async () => undefined };
  }
  const now = o.now ?? (() => new Date());
  const sender =
    o.sender ??
    new FcmSender({
      account: config.account,
      endpoint: config.endpoint,
      tokenUri: config.tokenUri,
      projectId: config.projectId,
      now: () => now().getTime(),
    });
  const outbox = new PushOutbox({
    db: o.db,
    sender,
    now,
    ...(o.random ? { random: o.random } : {}),
    maxAttempts: config.maxAttempts,
    retryBaseMs: config.retryBaseMs,
    retryMaxMs: config.retryMaxMs,
    maxAgeMs: config.maxAgeMs,
    log: o.log,
  });
  const loop = startOutboxLoop({
    drain: () => outbox.drain(),
    prune: () => outbox.prune(),
    pollMs: config.pollMs,
    pruneEveryMs: PRUNE_EVERY_MS,
    now,
    onError: (err) => o.log(`push: outbox pass failed: ${err.message}`),
  });
  const unsubscribe = o.bus?.subscribe<{ event?: string }>('realtime.*', (m) => {
    if (m?.event === 'notification') loop.wake();
  });
  o.log(`push: on (FCM project ${config.projectId ?? config.account.project_id} at ${config.endpoint})`);
  return {
    outbox,
    config,
    stop: async () => {
      unsubscribe?.();
      await loop.stop();
    },
  };
}

/** The push part (embedded mode and the worker role): the outbox worker, stopped on close. */
const pushPart: PartPlugin = async (app, { env, storage, bus, log }) => {
  const push = await startPush({ env, db: storage.db, bus, log });
  app.addHook('onClose', () => push.stop());
};

export default fp(pushPart, { name: 'push', fastify: '5.x' });
