/**
 * The guardian journey with real parts (issue 14): a Teltonika device speaks its wire protocol to the
 * real gateway over loopback TCP, the pipeline (SQL store) moves the scheduled trip's instance, migration
 * 0026's trigger queues the guardians' messages, the message outbox sends them to a real SMTP server
 * (`smtp-server`, STARTTLS + AUTH) where `mailparser` reads them; the tracking link of the mail shows
 * the bus through the public API and stops working when the trip ends. SMS goes to the in-memory
 * stand-in of the SMS provider interface (no SMS provider can exist here).
 *
 * Time: the drive happens a few hours before the real clock (the gateway stores late records like
 * any other; the pipeline, the API and the outbox read one virtual clock set to the records' time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeTeltonikaAvl, encodeTeltonikaImei, IO, type DecodedRecord } from '@fleet/device-protocols';
import { loadConfig } from '../config/config';
import { createServer } from '../server';
import { InProcessBus } from '../realtime/bus';
import { MemoryMessenger } from '../auth/messenger';
import type { Storage } from '../storage/storage';
import { openTestStorage } from '../../test/db';
import { buildWorld, type World } from '../../test/fixtures';
import { call } from '../../test/harness';
import { TestSmtpServer } from '../../test/smtp';
import { PipelineService } from '../pipeline/service/service';
import { SqlPipelineStore } from '../pipeline/service/sql-store';
import { loadSalik } from '../pipeline/salik/load';
import { startGateway, type Gateway } from '../gateway/gateway';
import { addDevices, RawClient, waitFor } from '../gateway/test-helpers';
import { MessageOutbox } from '../messaging/outbox';
import { MemorySmsProvider, SmtpMailTransport } from '../messaging/transports';

const ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  FLEET_SEED_DEMO: 'false',
  PUBLIC_URL: 'https://fleet.example',
  GATEWAY_HOST: '127.0.0.1',
  GATEWAY_TELTONIKA_PORT: '0',
  GATEWAY_RUPTELA_PORT: 'off',
  GATEWAY_GOSAFE_PORT: 'off',
  GATEWAY_ISTARTEK_PORT: 'off',
  GATEWAY_OSMAND_PORT: 'off',
  GATEWAY_BATCH_MS: '2',
};

// Planned start on the hour, three hours before the real clock (UTC days; the pipeline runs in UTC).
const T0 = Math.floor((Date.now() - 3 * 3_600_000) / 3_600_000) * 3_600_000;
const HHMM = new Date(T0).toISOString().slice(11, 16);
// The late run starts at the next full hour: its instance exists before its planned end, as on a server
// that runs all day (one made only after its end is marked missed without telling anyone).
const T1 = Math.ceil((Date.now() + 60_000) / 3_600_000) * 3_600_000;
const STEP_MS = 30_000;
const LAT = 25.2;
// East along one latitude, 0.003 degrees of longitude (about 300 m) every 30 s: about 36 km/h.
const lonAt = (i: number) => 55.2 + 0.003 * i;
const STOP_A = 55.24;
const STOP_B = 55.28;

/** The List-Unsubscribe and List-Unsubscribe-Post headers of a raw mail (folded lines unfolded). */
function listUnsubscribe(raw: string): { url: string | undefined; post: string | undefined } {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return {
    url: /^List-Unsubscribe: *<([^>]+)>/im.exec(head)?.[1],
    post: /^List-Unsubscribe-Post: *(.+)$/im.exec(head)?.[1]?.trim(),
  };
}
/** The first test's guardians and their header links, for the one-click test. */
const oneClick: { email: string; uuid: string; url: string }[] = [];

const smtp = new TestSmtpServer();
const sms = new MemorySmsProvider();
const clock = { now: new Date(T0 - 10 * 60_000) };
let storage: Storage;
let app: FastifyInstance;
let w: World;
let gw: Gateway;
let pipeline: PipelineService;
let stopPipeline: () => void;
let outbox: MessageOutbox;
let mail: SmtpMailTransport;
const bus = new InProcessBus();

beforeAll(async () => {
  await smtp.start();
  storage = await openTestStorage('guardian_journey');
  const config = loadConfig(ENV);
  app = await createServer({
    config,
    storage,
    bus,
    messenger: new MemoryMessenger(),
    now: () => clock.now,
    logger: false,
  });
  await app.ready();
  w = await buildWorld(storage.db);
  gw = await startGateway({ config, storage, bus, counterFlushMs: 0 });
  pipeline = new PipelineService({
    store: new SqlPipelineStore(storage.db),
    bus,
    salik: loadSalik(),
    timeZone: 'UTC',
    now: () => clock.now.getTime(),
    flushDelayMs: 5,
    repairIntervalMs: 0,
  });
  stopPipeline = pipeline.start();
  mail = new SmtpMailTransport(smtp.url(), 'Fleet <no-reply@fleet.example>', 5000);
  outbox = new MessageOutbox({
    db: storage.db,
    mail,
    sms,
    now: () => clock.now,
    random: () => 0,
    publicUrl: 'https://fleet.example',
  });
}, 60_000);

afterAll(async () => {
  stopPipeline?.();
  await pipeline?.flush();
  await gw?.close();
  mail?.close();
  await app?.close();
  await storage?.close();
  await smtp.stop();
});

const admin = (locale: 'en' | 'ar' = 'en') => ({
  post: (url: string, body: unknown) =>
    call(app, {
      method: 'POST',
      url,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body,
      headers: { 'x-locale': locale },
    }),
  patch: (url: string, body: unknown) =>
    call(app, {
      method: 'PATCH',
      url,
      token: w.users.adminA.token,
      company: w.a.uuid,
      body,
      headers: { 'x-locale': locale },
    }),
});

async function created(r: Awaited<ReturnType<typeof call>>): Promise<string> {
  expect(r.statusCode, r.body).toBe(201);
  return (r.json() as { data: { uuid: string } }).data.uuid;
}

function teltonika(imei: string, i: number, t: number): DecodedRecord {
  return {
    imei,
    protocol: 'teltonika',
    fixTime: t,
    valid: true,
    latitude: LAT,
    longitude: lonAt(i),
    altitude: 10,
    speed: 36,
    course: 90,
    satellites: 9,
    eventId: 0,
    io: { [IO.ignition]: 1 },
  };
}

/** A scheduled trip at T0 (every day) with its stops; passengers by stop index. */
async function scheduledTrip(
  name: string,
  vehicleUuid: string,
  stops: { name: string; lon: number; offset: number; passengers: string[] }[],
  departure = HHMM,
): Promise<void> {
  const db = storage.db;
  const [t] = await db.query<{ id: number }>(
    `INSERT INTO scheduled_trips (company_id, name, type, vehicle_id, departure_time, data)
     SELECT $1, $2, 'one_way', v.id, $3, '{}'::jsonb FROM vehicles v WHERE v.uuid = $4 RETURNING id`,
    [w.a.id, name, departure, vehicleUuid],
  );
  for (const [k, s] of stops.entries()) {
    const [stop] = await db.query<{ id: number }>(
      `INSERT INTO scheduled_trip_stops (scheduled_trip_id, position, name, latitude, longitude, arrival_offset_minutes)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [t!.id, k, s.name, LAT, s.lon, s.offset],
    );
    for (const p of s.passengers)
      await db.query(
        `INSERT INTO scheduled_trip_passengers (scheduled_trip_id, passenger_id, stop_id)
         SELECT $1, id, $2 FROM passengers WHERE uuid = $3`,
        [t!.id, stop!.id, p],
      );
  }
}

const outboxRows = (kind: string) =>
  storage.db.query<{
    channel: string;
    recipient: string;
    locale: string;
    status: string;
    last_error: string | null;
  }>(
    'SELECT channel, recipient, locale, status, last_error FROM message_outbox WHERE kind = $1 ORDER BY id',
    [kind],
  );

const track = (token: string) => call(app, { method: 'GET', url: `/v1/track/${token}` });

describe('guardian journey against the gateway, the pipeline and a real SMTP server', () => {
  it('the bus nears the stop: each guardian is told in their language; the link shows the bus until the trip ends', async () => {
    const school = w.a.schools[0]!.uuid;
    // Guardians: Arabic by e-mail, English by e-mail and SMS, one who wants nothing, one without
    // approach messages.
    const gAr = await created(
      await admin().post('/v1/guardians', {
        first_name: 'Huda',
        last_name: 'Salem',
        email: 'huda@family.test',
        phone: '+971500000001',
        relationship: 'mother',
        message_channel: 'email',
        language: 'ar',
      }),
    );
    const gEn = await created(
      await admin().post('/v1/guardians', {
        first_name: 'Omar',
        last_name: 'Salem',
        email: 'omar@family.test',
        phone: '+971500000002',
        relationship: 'father',
        message_channel: 'both',
        language: 'en',
      }),
    );
    const gNone = await created(
      await admin().post('/v1/guardians', {
        first_name: 'Nobody',
        last_name: 'Salem',
        email: 'nobody@family.test',
        phone: '+971500000003',
        relationship: 'relative',
        message_channel: 'none',
      }),
    );
    const gQuiet = await created(
      await admin().post('/v1/guardians', {
        first_name: 'Quiet',
        last_name: 'Salem',
        email: 'quiet@family.test',
        phone: '+971500000004',
        relationship: 'sibling',
        notify_on_approach: false,
      }),
    );
    const kid = await created(
      await admin().post('/v1/passengers', {
        first_name: 'Layla',
        last_name: 'Salem',
        first_name_ar: 'ليلى',
        last_name_ar: 'سالم',
        school_uuid: school,
        guardian_uuids: [gAr, gEn, gNone, gQuiet],
      }),
    );
    const imei = '356307042441099';
    const [dev] = (await addDevices(storage.db, w.a.id, [{ imei, type: 'teltonika' }])).devices;
    await scheduledTrip('Morning run', dev!.vehicleUuid, [
      { name: 'Palm Street', lon: STOP_A, offset: 10, passengers: [kid] },
      { name: 'School gate', lon: STOP_B, offset: 20, passengers: [] },
    ]);

    // The clock work makes today's instance (pending).
    clock.now = new Date(T0 - 5 * 60_000);
    await pipeline.tick(w.a.uuid);
    const [inst] = await storage.db.query<{ uuid: string; status: string }>(
      `SELECT uuid, status FROM trips WHERE data ? 'instance'`,
    );
    expect(inst!.status).toBe('pending');
    expect(await outboxRows('guardian_approaching')).toEqual([]);

    // The device drives towards Palm Street: 12 fixes, the last about 700 m before the stop.
    const c = new RawClient(gw.ports.teltonika!);
    await c.send(encodeTeltonikaImei(imei));
    expect([...(await c.take(1))]).toEqual([1]);
    const send = async (from: number, to: number) => {
      const recs = [];
      for (let i = from; i <= to; i++) recs.push(teltonika(imei, i, T0 - 60_000 + i * STEP_MS));
      clock.now = new Date(T0 - 60_000 + to * STEP_MS + 1000);
      await c.send(encodeTeltonikaAvl(recs));
      expect((await c.take(4)).readUInt32BE(0)).toBe(recs.length);
    };
    await send(0, 11);
    const approaching = await waitFor(
      async () => {
        await pipeline.flush();
        const rows = await outboxRows('guardian_approaching');
        return rows.length >= 3 ? rows : null;
      },
      15_000,
      'approach messages',
    );
    // Arabic guardian by e-mail, English guardian by e-mail and SMS; not the one who chose none, not
    // the one without approach messages.
    expect(approaching.map((r) => [r.channel, r.recipient, r.locale]).sort()).toEqual([
      ['email', 'huda@family.test', 'ar'],
      ['email', 'omar@family.test', 'en'],
      ['sms', '+971500000002', 'en'],
    ]);

    const stats = await outbox.drain();
    expect(stats.sent).toBe(3);
    const [ar] = smtp.to('huda@family.test');
    expect(ar!.mail.subject).toBe('Fleet: الحافلة تقترب من Palm Street');
    expect(ar!.raw).toMatch(/^Subject: =\?UTF-8\?/im);
    expect(ar!.mail.html).toContain('dir="rtl"');
    expect(ar!.mail.text).toContain('ليلى سالم');
    const [, arToken] = /https:\/\/fleet\.example\/track\/([A-Za-z0-9_-]+)/.exec(ar!.mail.text ?? '') ?? [];
    expect(arToken).toBeTruthy();
    expect(ar!.mail.text).toMatch(
      /https:\/\/fleet\.example\/unsubscribe\/[0-9a-f-]{36}\.email\.[A-Za-z0-9_-]+/,
    );

    // Every guardian e-mail names the body's unsubscribe link in List-Unsubscribe, one-click (RFC 8058).
    const [en] = smtp.to('omar@family.test');
    for (const m of [ar!, en!]) {
      const [, link] = /(https:\/\/fleet\.example\/unsubscribe\/\S+)/.exec(m.mail.text ?? '') ?? [];
      expect(listUnsubscribe(m.raw)).toEqual({ url: link, post: 'List-Unsubscribe=One-Click' });
    }
    oneClick.push(
      { email: 'omar@family.test', uuid: gEn, url: listUnsubscribe(en!.raw).url! },
      { email: 'huda@family.test', uuid: gAr, url: listUnsubscribe(ar!.raw).url! },
    );
    expect(en!.mail.subject).toBe('Fleet: the bus is approaching Palm Street');
    expect(en!.mail.text).toContain('Layla Salem');
    expect(en!.mail.html).toContain('dir="ltr"');
    const [, enToken] = /https:\/\/fleet\.example\/track\/([A-Za-z0-9_-]+)/.exec(en!.mail.text ?? '') ?? [];
    expect(sms.sent).toHaveLength(1);
    expect(sms.sent[0]!.to).toBe('+971500000002');
    expect(sms.sent[0]!.text).toMatch(
      /^Fleet: the bus for Layla Salem is approaching Palm Street\. https:\/\/fleet\.example\/track\/\S+ Stop: https:\/\/fleet\.example\/unsubscribe\/\S+\.sms\.\S+$/,
    );
    // Nothing of the link reaches the log or the stored row once sent.
    const stored = await storage.db.query<{ body_text: string | null }>(
      `SELECT body_text FROM message_outbox WHERE kind = 'guardian_approaching'`,
    );
    expect(stored.every((r) => r.body_text === null)).toBe(true);

    // The link shows that bus at its latest fix, and the way to the guardian's stop.
    const shown = await track(arToken!);
    expect(shown.statusCode, shown.body).toBe(200);
    const data = shown.json().data;
    expect(data.vehicle.license_plate_number).toBe('T 10000');
    expect(data.location.latitude).toBeCloseTo(LAT, 5);
    expect(data.location.longitude).toBeCloseTo(lonAt(11), 5);
    expect(data.stop).toMatchObject({
      name: 'Palm Street',
      latitude: LAT,
      longitude: STOP_A,
      reached: false,
    });
    expect(data.distance_m).toBeGreaterThan(650);
    expect(data.distance_m).toBeLessThan(750);
    expect(data.eta_minutes).toBe(1);
    expect(data.trip).toMatchObject({ name: 'Morning run', status: 'started' });
    expect(data.passenger).toEqual({ first_name: 'Layla', first_name_ar: 'ليلى' });
    expect(data.language).toBe('ar');
    // Nothing of other passengers, guardians or the company.
    expect(Object.keys(data).sort()).toEqual([
      'distance_m',
      'eta_minutes',
      'expires_at',
      'language',
      'live_status',
      'location',
      'passenger',
      'stop',
      'trip',
      'vehicle',
    ]);
    // The same fix twice queues nothing more (one message per guardian, passenger, stop and channel).
    await send(11, 11);
    await pipeline.flush();
    expect(await outboxRows('guardian_approaching')).toHaveLength(3);

    // Staff revoke the English guardian's links: that one stops, the Arabic one keeps working.
    const revoked = await admin().post(`/v1/guardians/${gEn}/tracking-links/revoke`, {});
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.revoked).toBe(2);
    const gone = await track(enToken!);
    expect(gone.statusCode).toBe(404);
    expect((await track(arToken!)).statusCode).toBe(200);

    // The bus passes the stop and reaches the school: the trip completes and the link stops working.
    await send(12, 30);
    await waitFor(
      async () => {
        await pipeline.flush();
        const [t] = await storage.db.query<{ status: string }>('SELECT status FROM trips WHERE uuid = $1', [
          inst!.uuid,
        ]);
        return t!.status === 'completed';
      },
      15_000,
      'trip completed',
    );
    c.close();
    const after = await track(arToken!);
    expect(after.statusCode).toBe(404);
    // A forged token and a link after its trip answer the same bare 404.
    const forged = await track('A'.repeat(43));
    expect(forged.statusCode).toBe(404);
    expect(after.body).toBe(forged.body);
    expect(after.body).not.toMatch(/trip|guardian|passenger|expired|revoked/i);
    expect((await track('x')).statusCode).toBe(404);
  }, 60_000);

  it('a bus that does not leave: delayed then missed messages; a cancelled trip; the unsubscribe link', async () => {
    smtp.received.length = 0;
    const school = w.a.schools[0]!.uuid;
    const g = await created(
      await admin().post('/v1/guardians', {
        first_name: 'Mona',
        last_name: 'Ali',
        email: 'mona@family.test',
        phone: '+971500000010',
        relationship: 'mother',
      }),
    );
    const kid = await created(
      await admin().post('/v1/passengers', {
        first_name: 'Sami',
        last_name: 'Ali',
        school_uuid: school,
        guardian_uuids: [g],
      }),
    );
    const [dev] = (await addDevices(storage.db, w.a.id, [{ imei: '356307042441098', type: 'teltonika' }]))
      .devices;
    await scheduledTrip(
      'Late run',
      dev!.vehicleUuid,
      [
        { name: 'Corner', lon: STOP_A, offset: 10, passengers: [kid] },
        { name: 'School', lon: STOP_B, offset: 20, passengers: [] },
      ],
      new Date(T1).toISOString().slice(11, 16),
    );
    // A pipeline that has not made today's instances yet (the first test's one made them before this
    // trip existed): a fresh service, as after a restart.
    const fresh = new PipelineService({
      store: new SqlPipelineStore(storage.db),
      bus: new InProcessBus(),
      salik: loadSalik(),
      timeZone: 'UTC',
      now: () => clock.now.getTime(),
    });
    clock.now = new Date(T1 - 5 * 60_000);
    await fresh.tick(w.a.uuid);
    clock.now = new Date(T1 + 11 * 60_000);
    await fresh.tick(w.a.uuid);
    expect((await outboxRows('guardian_delayed')).map((r) => r.recipient)).toEqual(['mona@family.test']);
    await outbox.drain();
    const [late] = smtp.to('mona@family.test');
    expect(late!.mail.subject).toBe('Fleet: the bus for Sami Ali is late');
    const [, lateToken] =
      /https:\/\/fleet\.example\/track\/([A-Za-z0-9_-]+)/.exec(late!.mail.text ?? '') ?? [];
    const lateView = await track(lateToken!);
    expect(lateView.statusCode, lateView.body).toBe(200);
    expect(lateView.json().data.location).toBeNull();
    expect(lateView.json().data.eta_minutes).toBeNull();
    clock.now = new Date(T1 + 31 * 60_000);
    await fresh.tick(w.a.uuid);
    expect((await outboxRows('guardian_missed')).map((r) => r.recipient)).toEqual(['mona@family.test']);
    await outbox.drain();
    const missed = smtp.to('mona@family.test').find((m) => m.mail.subject?.includes('did not run'));
    expect(missed!.mail.text).toContain('did not pick up Sami Ali');
    expect(missed!.mail.text).not.toContain('/track/');
    // The missed trip ended: the delay message's link stops working.
    expect((await track(lateToken!)).statusCode).toBe(404);

    // A user cancels a trip (the trips API): its guardians are told.
    const [t] = await storage.db.query<{ uuid: string }>(
      `INSERT INTO trips (company_id, name, status, vehicle_id, start_at, data)
       SELECT $1, 'Afternoon run', 'pending', v.id, $2, jsonb_build_object('instance_id', 'manual:1', 'instance',
         jsonb_build_object('stops', jsonb_build_array(jsonb_build_object('id', 'stop-1', 'name', 'Corner',
           'lat', 25.2, 'lon', 55.24, 'passengerIds', jsonb_build_array($3::text))), 'nearingSent', '[]'::jsonb,
           'date', '2026-11-20'))
       FROM vehicles v WHERE v.uuid = $4 RETURNING uuid`,
      [w.a.id, new Date(T0 + 4 * 3_600_000).toISOString(), kid, dev!.vehicleUuid],
    );
    const cancel = await admin().patch(`/v1/trips/${t!.uuid}/status`, { status: 'cancelled' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await outbox.drain();
    const cancelled = smtp.to('mona@family.test').find((m) => m.mail.subject?.includes('cancelled'));
    expect(cancelled!.mail.subject).toBe('Fleet: Afternoon run is cancelled');
    expect(cancelled!.mail.text).toContain('of 2026-11-20 is cancelled');

    // The unsubscribe link: reading it changes nothing; confirming stops e-mail; a forged one is a 404.
    const [, unsub] = /https:\/\/fleet\.example\/unsubscribe\/(\S+)/.exec(cancelled!.mail.text ?? '') ?? [];
    const before = await call(app, { method: 'GET', url: `/v1/unsubscribe/${unsub}` });
    expect(before.json().data).toEqual({
      channel: 'email',
      subscribed: true,
      message_channel: 'email',
      language: 'en',
    });
    const done = await call(app, { method: 'POST', url: `/v1/unsubscribe/${unsub}` });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ subscribed: false, message_channel: 'none' });
    const again = await call(app, { method: 'POST', url: `/v1/unsubscribe/${unsub}` });
    expect(again.json().data).toMatchObject({ subscribed: false, message_channel: 'none' });
    const forged = unsub!.replace(/\.email\./, '.sms.');
    expect((await call(app, { method: 'GET', url: `/v1/unsubscribe/${forged}` })).statusCode).toBe(404);
    const guardian = await call(app, {
      method: 'GET',
      url: `/v1/guardians/${g}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(guardian.json().data.message_channel).toBe('none');
    const log = await storage.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM activity_log WHERE entity = 'guardian' AND entity_uuid = $1 AND action = 'updated'`,
      [g],
    );
    expect(log.map((l) => l.after)).toContainEqual({ message_channel: 'none', via: 'unsubscribe link' });

    // A message queued before the guardian unsubscribed is not sent: it fails with the reason.
    await storage.db.query(
      `INSERT INTO message_outbox (company_id, channel, kind, recipient, locale, subject, params, idempotency_key)
       VALUES ($1, 'email', 'guardian_delayed', 'mona@family.test', 'en', 'x',
               jsonb_build_object('trip_uuid', $2::text, 'guardian_uuid', $3::text, 'passenger_uuid', $4::text), 'late-queued')`,
      [w.a.id, t!.uuid, g, kid],
    );
    const sentBefore = smtp.received.length;
    await outbox.drain();
    expect(smtp.received.length).toBe(sentBefore);
    const [failed] = await storage.db.query<{ status: string; last_error: string }>(
      `SELECT status, last_error FROM message_outbox WHERE idempotency_key = 'late-queued'`,
    );
    expect(failed).toEqual({
      status: 'failed',
      last_error: 'the guardian unsubscribed from e-mail messages',
    });
  }, 60_000);

  it('one-click unsubscribe (RFC 8058): the POST a mail client sends to the List-Unsubscribe link', async () => {
    const [omar, huda] = oneClick;
    expect(omar && huda).toBeTruthy();
    const path = (url: string) => new URL(url).pathname;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const channel = async (uuid: string) =>
      (
        await call(app, {
          method: 'GET',
          url: `/v1/guardians/${uuid}`,
          token: w.users.adminA.token,
          company: w.a.uuid,
        })
      ).json().data.message_channel as string;

    // Anything but the RFC's body is refused in the request's language, and changes nothing.
    const bare = await app.inject({ method: 'POST', url: path(omar!.url) });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/one-click/);
    const wrong = await app.inject({
      method: 'POST',
      url: path(omar!.url),
      headers: { ...form, 'x-locale': 'ar' },
      payload: 'List-Unsubscribe=Maybe',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('بنقرة واحدة');
    expect(await channel(omar!.uuid)).toBe('both');

    // The form-urlencoded one-click: no cookie, no token, no page; e-mail stops, SMS stays.
    const done = await app.inject({
      method: 'POST',
      url: path(omar!.url),
      headers: form,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.headers['content-type']).toMatch(/^text\/plain/);
    expect(done.headers.location).toBeUndefined();
    expect(done.body).toBe('You will no longer receive these messages.');
    expect(await channel(omar!.uuid)).toBe('sms');
    // A second click (clients retry) changes nothing and still answers 200.
    const again = await app.inject({
      method: 'POST',
      url: path(omar!.url),
      headers: form,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(again.statusCode).toBe(200);
    expect(await channel(omar!.uuid)).toBe('sms');
    const log = await storage.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM activity_log WHERE entity = 'guardian' AND entity_uuid = $1 AND action = 'updated'`,
      [omar!.uuid],
    );
    // One entry for the two clicks (the second changed nothing); the staff's revoke of test 1 is the other.
    expect(log.map((l) => l.after).filter((a) => 'message_channel' in a)).toEqual([
      { message_channel: 'sms', via: 'one-click unsubscribe' },
    ]);

    // The multipart/form-data body the RFC prefers; the answer is in the guardian's language (Arabic).
    const boundary = '----oneclick';
    const multipart = await app.inject({
      method: 'POST',
      url: path(huda!.url),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n` +
        `--${boundary}--\r\n`,
    });
    expect(multipart.statusCode, multipart.body).toBe(200);
    expect(multipart.body).toBe('لن تصلك هذه الرسائل بعد الآن.');
    expect(await channel(huda!.uuid)).toBe('none');

    // A forged link is the bare 404 of every unknown token.
    const forged = path(omar!.url).replace(/\.email\./, '.sms.');
    const nope = await app.inject({
      method: 'POST',
      url: forged,
      headers: form,
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(nope.statusCode).toBe(404);
    expect(await channel(omar!.uuid)).toBe('sms');
  });
});
