/**
 * Guardians' message preference and its edges: bad input as field errors in both languages, the
 * default of guardians saved before the preference existed, the trigger's choice of recipients, the
 * signed unsubscribe links, and the templates' header safety and SMS length.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';
import { renderMessage } from '../messaging/templates';
import { signUnsubscribe, verifyUnsubscribe } from './signing';
import { etaMinutes } from './routes';
import { channelsOf } from './render';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('guardians');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const post = (url: string, body: unknown, locale: 'en' | 'ar' = 'en') =>
  call(h.app, {
    method: 'POST',
    url,
    token: w.users.adminA.token,
    company: w.a.uuid,
    body,
    headers: { 'x-locale': locale },
  });

const guardian = (over: Record<string, unknown> = {}) => ({
  first_name: 'Huda',
  last_name: 'Salem',
  phone: '+971500000001',
  relationship: 'mother',
  ...over,
});

describe('guardian form input', () => {
  it.each([
    [
      'e-mail messages without an address',
      { message_channel: 'email' },
      'email',
      'Email is required',
      'البريد الإلكتروني مطلوب',
    ],
    [
      'an address that is not one',
      { email: 'not an address' },
      'email',
      'Please enter a valid Email',
      'يرجى إدخال بريد إلكتروني صالح',
    ],
    [
      'a header line in the address',
      { email: 'h@family.test\r\nBcc: x@evil.test' },
      'email',
      'Please enter a valid Email',
      'يرجى إدخال بريد إلكتروني صالح',
    ],
    [
      'a phone with letters',
      { phone: '+9715abc' },
      'phone',
      'Please enter a valid Phone',
      'يرجى إدخال رقم هاتف صالح',
    ],
    ['no phone', { phone: '' }, 'phone', 'Phone is required', 'رقم الهاتف مطلوب'],
    [
      'an unknown channel',
      { message_channel: 'fax' },
      'message_channel',
      'Please enter a valid Message channel',
      'يرجى إدخال قناة رسائل صالحة',
    ],
    [
      'an unknown language',
      { language: 'fr' },
      'language',
      'Please enter a valid Language',
      'يرجى إدخال لغة صالحة',
    ],
  ])('%s is a field error in English and Arabic', async (_name, over, field, en, ar) => {
    const r = await post('/v1/guardians', guardian(over));
    expect(r.statusCode, r.body).toBe(422);
    // The first message is the one the form shows under the field.
    expect(r.json().errors[field][0]).toBe(en);
    const a = await post('/v1/guardians', guardian(over), 'ar');
    expect(a.statusCode).toBe(422);
    expect(a.json().errors[field][0]).toBe(ar);
  });

  it('a huge passenger list is refused', async () => {
    const many = Array.from(
      { length: 51 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const r = await post('/v1/guardians', guardian({ passenger_uuids: many }));
    expect(r.statusCode).toBe(422);
    expect(Object.keys(r.json().errors)).toEqual(['passenger_uuids']);
  });

  it('saved with a preference and a language; guardians from before read as e-mail (with an address) or SMS', async () => {
    const r = await post(
      '/v1/guardians',
      guardian({ email: 'H@Family.test', message_channel: 'both', language: 'ar' }),
    );
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({ email: 'h@family.test', message_channel: 'both', language: 'ar' });
    await h.storage.db.query(
      `INSERT INTO guardians (company_id, first_name, last_name, phone, email, data) VALUES
         ($1, 'Old', 'Mail', '+971500000008', 'old@family.test', '{"relationship": "father", "notify_on_approach": true}'),
         ($1, 'Old', 'Phone', '+971500000009', NULL, '{"relationship": "father", "notify_on_approach": true}')`,
      [w.a.id],
    );
    const list = await call(h.app, {
      method: 'GET',
      url: '/v1/guardians?search=Old&sort=name',
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(list.statusCode, list.body).toBe(200);
    const rows = (list.json().data as { last_name: string; message_channel: string; language: string }[])
      .map((g) => [g.last_name, g.message_channel, g.language])
      .sort();
    expect(rows).toEqual([
      ['Mail', 'email', 'en'],
      ['Phone', 'sms', 'en'],
    ]);
  });
});

describe('who the trigger queues messages for', () => {
  it('per channel preference, active guardians and passengers of the company, approach opt-out, once per change', async () => {
    const db = h.storage.db;
    const mk = async (over: Record<string, unknown>) => {
      const r = await post('/v1/guardians', guardian(over));
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.uuid as string;
    };
    const email = await mk({ email: 'e@family.test', first_name: 'Email' });
    const sms = await mk({ message_channel: 'sms', phone: '+971500000002' });
    const none = await mk({ email: 'n@family.test', message_channel: 'none' });
    const quiet = await mk({ email: 'q@family.test', notify_on_approach: false });
    const inactive = await mk({ email: 'i@family.test' });
    await db.query(`UPDATE guardians SET status = 'inactive' WHERE uuid = $1`, [inactive]);
    const kid = await post('/v1/passengers', {
      first_name: 'Layla',
      last_name: 'Salem',
      school_uuid: w.a.schools[0]!.uuid,
      guardian_uuids: [email, sms, none, quiet, inactive],
    });
    expect(kid.statusCode, kid.body).toBe(201);
    const kidUuid = kid.json().data.uuid as string;
    // An instance row as the pipeline writes it (one stop, the passenger at it).
    const instance = (nearing: string[]) =>
      JSON.stringify({
        instance_id: 'st:2026-11-20:departure',
        instance: {
          stops: [{ id: 'stop-1', name: 'Palm', lat: 25.2, lon: 55.2, passengerIds: [kidUuid] }],
          nearingSent: nearing,
          date: '2026-11-20',
        },
      });
    const [t] = await db.query<{ id: number }>(
      `INSERT INTO trips (company_id, name, status, start_at, data) VALUES ($1, 'Run', 'pending', now(), $2::jsonb)
       RETURNING id`,
      [w.a.id, instance([])],
    );
    const rows = () =>
      db.query<{ kind: string; channel: string; recipient: string }>(
        'SELECT kind, channel, recipient FROM message_outbox ORDER BY id',
      );
    expect(await rows()).toEqual([]);
    await db.query(`UPDATE trips SET status = 'started', data = $2::jsonb WHERE id = $1`, [
      t!.id,
      instance(['stop-1']),
    ]);
    expect(await rows()).toEqual([
      { kind: 'guardian_approaching', channel: 'email', recipient: 'e@family.test' },
      { kind: 'guardian_approaching', channel: 'sms', recipient: '+971500000002' },
    ]);
    // The same state written again (a replay, another node): nothing more.
    await db.query(`UPDATE trips SET updated_at = now(), data = $2::jsonb WHERE id = $1`, [
      t!.id,
      instance(['stop-1']),
    ]);
    expect(await rows()).toHaveLength(2);
    // Delayed reaches the guardian without approach messages too; the inactive one and 'none' never.
    await db.query(`UPDATE trips SET status = 'delayed' WHERE id = $1`, [t!.id]);
    expect((await rows()).filter((r) => r.kind === 'guardian_delayed').map((r) => r.recipient)).toEqual([
      'e@family.test',
      '+971500000002',
      'q@family.test',
    ]);
    // Missed: told for an instance that existed before its planned end, not for one made after it.
    const missedRows = async () => (await rows()).filter((r) => r.kind === 'guardian_missed');
    const made = async (id: string, plannedEnd: number) =>
      (
        await db.query<{ id: number }>(
          `INSERT INTO trips (company_id, name, status, start_at, data)
           VALUES ($1, 'Run', 'pending', now(), jsonb_set($2::jsonb, '{instance,plannedEnd}', to_jsonb($3::bigint)))
           RETURNING id`,
          [w.a.id, instance([]).replace('st:2026-11-20', id), plannedEnd],
        )
      )[0]!.id;
    const late = await made('after-end', Date.now() - 3_600_000);
    await db.query(`UPDATE trips SET status = 'missed' WHERE id = $1`, [late]);
    expect(await missedRows()).toEqual([]);
    const known = await made('before-end', Date.now() + 3_600_000);
    await db.query(`UPDATE trips SET status = 'missed' WHERE id = $1`, [known]);
    expect((await missedRows()).map((r) => r.recipient)).toEqual([
      'e@family.test',
      '+971500000002',
      'q@family.test',
    ]);
    // Another company's trip naming this passenger queues nothing.
    await db.query(
      `INSERT INTO trips (company_id, name, status, start_at, data) VALUES ($1, 'Other', 'cancelled', now(), $2::jsonb)`,
      [w.b.id, instance([]).replace('st:2026', 'other:2026')],
    );
    expect((await rows()).filter((r) => r.kind === 'guardian_cancelled')).toEqual([]);
  });
});

describe('unsubscribe links', () => {
  it('only a genuine signature for that guardian and channel is accepted', async () => {
    const db = h.storage.db;
    const g = '6f1c1b2a-0000-4000-8000-000000000001';
    const token = await signUnsubscribe(db, g, 'email');
    expect(await verifyUnsubscribe(db, token)).toEqual({ guardianUuid: g, channel: 'email' });
    const [, , sig] = token.split('.');
    for (const forged of [
      `${g}.sms.${sig}`,
      `6f1c1b2a-0000-4000-8000-000000000002.email.${sig}`,
      `${g}.email.${sig!.slice(0, -2)}AA`,
      `${g}.email`,
      `${token}.x`,
      'x'.repeat(500),
    ])
      expect(await verifyUnsubscribe(db, forged), forged).toBeNull();
  });

  it("'both' loses the link's channel; an unknown guardian is a 404", async () => {
    const r = await post('/v1/guardians', guardian({ email: 'b@family.test', message_channel: 'both' }));
    const uuid = r.json().data.uuid as string;
    const token = await signUnsubscribe(h.storage.db, uuid, 'email');
    const done = await call(h.app, { method: 'POST', url: `/v1/unsubscribe/${token}` });
    expect(done.json().data).toEqual({
      channel: 'email',
      subscribed: false,
      message_channel: 'sms',
      language: 'en',
    });
    const other = await signUnsubscribe(h.storage.db, '6f1c1b2a-0000-4000-8000-000000000009', 'sms');
    expect((await call(h.app, { method: 'GET', url: `/v1/unsubscribe/${other}` })).statusCode).toBe(404);
  });
});

describe('guardian templates', () => {
  it.each(['guardian_approaching', 'guardian_delayed', 'guardian_cancelled', 'guardian_missed'] as const)(
    '%s: names stay one header line, the unsubscribe link is in every form, SMS never loses it',
    (kind) => {
      for (const locale of ['en', 'ar'] as const) {
        const r = renderMessage(
          kind,
          locale,
          {
            title: 'Run\r\nBcc: x@evil.test',
            passenger: 'Layla\nSalem',
            stop: 'Palm\r\nStreet',
            detail: '2026-11-20',
            link: 'https://x.test/track/abc',
            unsubscribe: 'https://x.test/unsubscribe/u.email.s',
          },
          'Fleet',
        );
        expect(r.subject).not.toMatch(/[\r\n]/);
        expect(r.text).toContain('https://x.test/unsubscribe/u.email.s');
        expect(r.html).toContain('https://x.test/unsubscribe/u.email.s');
        expect(r.sms.endsWith('https://x.test/unsubscribe/u.email.s')).toBe(true);
        const long = renderMessage(
          kind,
          locale,
          { stop: 'S'.repeat(600), unsubscribe: 'https://x.test/u' },
          'Fleet',
        );
        expect(long.sms.length).toBeLessThanOrEqual(480);
        expect(long.sms.endsWith('https://x.test/u')).toBe(true);
      }
    },
  );
});

describe('small rules', () => {
  it.each([
    ['700 m at 36 km/h', 700, 36, 1],
    ['a standing bus counts as town speed (20 km/h)', 2000, 0, 6],
    ['no speed known', 1000, null, 3],
    ['at the stop', 0, 40, 0],
  ])('ETA: %s', (_name, distance, speed, minutes) => {
    expect(etaMinutes(distance, speed)).toBe(minutes);
  });

  it.each([
    ['missing, with an address', {}, 'a@b.test', ['email']],
    ['missing, without an address', {}, null, ['sms']],
    ['both', { message_channel: 'both' }, 'a@b.test', ['email', 'sms']],
    ['none', { message_channel: 'none' }, 'a@b.test', []],
  ])('channels of a guardian: %s', (_name, data, email, channels) => {
    expect(channelsOf(data, email)).toEqual(channels);
  });
});
