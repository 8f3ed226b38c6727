import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../storage/storage';
import { NatsBus } from '../realtime/nats-bus';
import { seedFleet } from './harness';
import { clockPasses } from './lease';
import { startNode, type ClusterNode } from './node';
import { generateKeyPairSync } from 'node:crypto';
import { FcmStandIn } from '../push/fcm-stand-in';

/**
 * Clock-work leader lease and partition ownership with two worker nodes (in this process, each with
 * its own PostgreSQL pool, lock session and NATS connection) on the PostgreSQL of DATABASE_URL and the
 * NATS of NATS_URL. The clock work is the real pipeline plug-in's minute tick, run every 300 ms here
 * (PIPELINE_TICK_MS); offline alerts are the clock alerts counted.
 */
const dbUrl = process.env.DATABASE_URL;
const natsUrl = process.env.NATS_URL;
const enabled = Boolean(dbUrl && natsUrl);
if (!enabled) console.log('cluster leases: DATABASE_URL and NATS_URL are not both set, tests skipped');

const run = randomBytes(3).toString('hex');
const schema = `t_lease_${run}`;
const prefix = `l${run}`;
const PARTITIONS = 6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

let storage: Storage;
let fcm: FcmStandIn;
const PRIVATE_PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
let fleet: Awaited<ReturnType<typeof seedFleet>>;
const nodes: Record<string, ClusterNode> = {};

function env(name: string): Record<string, string> {
  return {
    ROLE: 'worker',
    NODE_NAME: name,
    DATABASE_URL: dbUrl!,
    DATABASE_SCHEMA: schema,
    NATS_URL: natsUrl!,
    NATS_PREFIX: prefix,
    NATS_PARTITIONS: String(PARTITIONS),
    NATS_ACK_WAIT_MS: '2000',
    LEASE_CHECK_MS: '250',
    PIPELINE_TICK_MS: '300',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // Mobile push from the workers, to an FCM stand-in; a short poll so both workers compete.
    FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({
      project_id: 'fleet-cluster',
      private_key: PRIVATE_PEM,
      client_email: 'push@fleet-cluster.iam.gserviceaccount.com',
      token_uri: `${fcm.url}/token`,
    }),
    FCM_ENDPOINT: fcm.url,
    PUSH_POLL_MS: '200',
  };
}

async function offlineAlerts(): Promise<{ rows: number; keys: number }> {
  const [r] = await storage.db.query<{ rows: number; keys: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT (user_id, data->>'dedupe_key'))::int AS keys
     FROM notifications WHERE type = 'device_offline'`,
  );
  return r!;
}

/** Makes device i silent since two hours (its vehicle becomes "offline" at the next clock pass). */
async function goSilent(i: number): Promise<void> {
  const d = fleet.devices[i]!;
  await storage.db.query(
    `INSERT INTO latest_locations (device_id, vehicle_id, company_id, fix_time, latitude, longitude)
     SELECT $1, v.id, $2, now() - interval '2 hours', 25.2, 55.3 FROM vehicles v WHERE v.uuid = $3`,
    [d.id, fleet.company.id, d.vehicleUuid],
  );
}

const leaders = () => Object.values(nodes).filter((n) => n.leader?.isLeader);

describe.skipIf(!enabled)('cluster leases (PostgreSQL advisory locks, two workers)', () => {
  beforeAll(async () => {
    storage = await openStorage({ url: dbUrl, schema });
    fleet = await seedFleet(storage.db, 5, 356_307_050_000_000);
    await storage.db.query(
      `INSERT INTO notification_rules (company_id, name, type, params)
       VALUES ($1, 'Offline', 'device_offline', '{"duration_minutes": 1}')`,
      [fleet.company.id],
    );
    await storage.db.query(
      `INSERT INTO fcm_tokens (user_id, company_id, token, platform)
       SELECT u.id, $2, 'phone-of-admin', 'android' FROM users u WHERE u.uuid = $1`,
      [fleet.admin.uuid, fleet.company.id],
    );
    fcm = await new FcmStandIn().listen();
    for (const i of [0, 1, 2]) await goSilent(i);
    nodes.w1 = await startNode({ env: env('w1'), log: () => undefined });
    nodes.w2 = await startNode({ env: env('w2'), log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    for (const n of Object.values(nodes)) await n.close().catch(() => undefined);
    await fcm?.close();
    if (natsUrl) {
      const bus = await NatsBus.connect({ servers: natsUrl, prefix });
      for (const s of Object.values(bus.streamNames)) await bus.jsm.streams.delete(s).catch(() => undefined);
      await bus.close();
    }
    if (storage) {
      await storage.db.exec(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
      await storage.close();
    }
  }, 60_000);

  it('runs the clock work on one node only: each offline alert is produced once', async () => {
    await until('three offline alerts', async () => (await offlineAlerts()).rows >= 3);
    // Let many more clock passes go by: a second node doing clock work would show up here.
    const leader = leaders()[0]!;
    const start = clockPasses(leader.storage);
    await until('ten more clock passes', () => clockPasses(leader.storage) >= start + 10);
    expect(leaders()).toHaveLength(1);
    const other = Object.values(nodes).find((n) => n !== leader)!;
    expect(clockPasses(other.storage)).toBe(0);
    expect(await offlineAlerts()).toEqual({ rows: 3, keys: 3 });
  }, 60_000);

  it('splits the partitions between the two workers, each partition owned once', async () => {
    await until('both workers own partitions', () =>
      Object.values(nodes).every((n) => (n.worker?.partitions.length ?? 0) === PARTITIONS / 2),
    );
    const all = Object.values(nodes).flatMap((n) => n.worker!.partitions);
    expect(all.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  }, 30_000);

  it('sends the push outbox from the workers, each row once although both compete', async () => {
    // 30 more notifications stored directly (as the API does): the trigger queues their pushes.
    await storage.db.query(
      `INSERT INTO notifications (company_id, user_id, type, title, message, data)
       SELECT $1, u.id, 'custom', 'Note ' || i, 'Push ' || i, '{}'::jsonb
       FROM users u, generate_series(1, 30) AS i WHERE u.uuid = $2`,
      [fleet.company.id, fleet.admin.uuid],
    );
    const status = async () =>
      storage.db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM push_outbox GROUP BY status ORDER BY status',
      );
    await until('every push sent', async () => {
      const s = await status();
      return s.length === 1 && s[0]!.status === 'sent';
    });
    expect(await status()).toEqual([{ status: 'sent', n: 33 }]);
    const sent = fcm.sendRequests.map(
      (r) =>
        (JSON.parse(r.body) as { message: { data: { notification_uuid: string } } }).message.data
          .notification_uuid,
    );
    expect(sent).toHaveLength(33);
    expect(new Set(sent).size).toBe(33);
  }, 30_000);

  it('fails over when the leader loses its PostgreSQL session, and again when it shuts down', async () => {
    const old = leaders()[0]!;
    const next = Object.values(nodes).find((n) => n !== old)!;
    const pid = await old.session!.backendPid();
    expect(pid).not.toBeNull();
    // The leader's session dies (as when its process or its network goes): it steps down at once,
    // the other node takes the lease on its next check.
    await storage.db.query('SELECT pg_terminate_backend($1)', [pid]);
    await until('the other node leads', () => next.leader!.isLeader && !old.leader!.isLeader);
    expect(leaders()).toEqual([next]);
    const oldPasses = clockPasses(old.storage);
    await goSilent(3);
    await until('the fourth offline alert', async () => (await offlineAlerts()).rows >= 4);
    // Its own session is back, but the lease stays with the new leader.
    await until('old node reconnected', () => old.session!.up && old.session!.generations >= 2);
    const passes = clockPasses(next.storage);
    await until('more clock passes', () => clockPasses(next.storage) >= passes + 5);
    expect(leaders()).toEqual([next]);
    expect(clockPasses(old.storage)).toBe(oldPasses);
    expect(await offlineAlerts()).toEqual({ rows: 4, keys: 4 });
    // The partitions of the lost session came back to the cluster: still each owned once.
    await until('partitions rebalanced', () => {
      const all = Object.values(nodes).flatMap((n) => n.worker!.partitions);
      return all.length === PARTITIONS && new Set(all).size === PARTITIONS;
    });

    // Graceful shutdown of the leader: the lease and its partitions pass to the remaining node.
    await next.close();
    delete nodes[next.name];
    await until('the first node leads again', () => old.leader!.isLeader);
    await goSilent(4);
    await until('the fifth offline alert', async () => (await offlineAlerts()).rows >= 5);
    await until('one worker owns every partition', () => old.worker!.partitions.length === PARTITIONS);
    expect(await offlineAlerts()).toEqual({ rows: 5, keys: 5 });
  }, 90_000);
});
