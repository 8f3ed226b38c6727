import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type World } from '../../test/fixtures';

let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('notifications');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

/** A stored alert as the pipeline leaves it: text in the recipient's language at the time, keys in data. */
async function storedAlert(userId: number, withKeys: boolean) {
  const data = withKeys
    ? {
        title_key: 'alerts.overspeed.title',
        message_key: 'alerts.overspeed.message',
        params: { plate: 'A 12345', speed: 93, limit: 80 },
      }
    : {};
  await h.storage.db.query(
    `INSERT INTO notifications (company_id, user_id, type, title, message, data)
     VALUES ($1, $2, 'overspeed', 'Overspeed', 'A 12345 was driving at 93 km/h, over the 80 km/h limit.', $3::jsonb)`,
    [w.a.id, userId, JSON.stringify(data)],
  );
}

const list = (locale: string) =>
  call(h.app, {
    method: 'GET',
    url: '/v1/notifications',
    token: w.users.adminA.token,
    company: w.a.uuid,
    headers: { 'x-locale': locale },
  });

const savedLocale = async (userId: number) =>
  (await h.storage.db.query<{ locale: string }>('SELECT locale FROM users WHERE id = $1', [userId]))[0]!
    .locale;

describe('notifications in the reader language', () => {
  it('alert texts are rendered in the language of the request, old ones included', async () => {
    await storedAlert(w.users.adminA.id, true);
    const ar = (await list('ar')).json().data[0];
    expect(ar.title).toBe('تجاوز السرعة');
    expect(ar.message).toBe('كانت المركبة A 12345 تسير بسرعة 93 كم/س متجاوزة الحد 80 كم/س.');
    const en = (await list('en')).json().data[0];
    expect(en.title).toBe('Overspeed');
    expect(en.message).toBe('A 12345 was driving at 93 km/h, over the 80 km/h limit.');
    // The details and mark-read answers follow the same rule.
    const shown = await call(h.app, {
      method: 'GET',
      url: `/v1/notifications/${ar.uuid}`,
      token: w.users.adminA.token,
      company: w.a.uuid,
      headers: { 'x-locale': 'ar' },
    });
    expect(shown.json().data.title).toBe('تجاوز السرعة');
  });

  it('search finds alerts by the words the reader sees, in either language, and by their values', async () => {
    await storedAlert(w.users.adminA.id, true);
    const search = async (term: string, locale: string) => {
      const r = await call(h.app, {
        method: 'GET',
        url: `/v1/notifications?search=${encodeURIComponent(term)}`,
        token: w.users.adminA.token,
        company: w.a.uuid,
        headers: { 'x-locale': locale },
      });
      expect(r.statusCode).toBe(200);
      return (r.json() as { total: number }).total;
    };
    // Stored in English; an Arabic reader sees and searches the Arabic words.
    expect(await search('السرعة', 'ar')).toBe(1);
    expect(await search('متجاوزة', 'ar')).toBe(1);
    expect(await search('السرعة', 'en')).toBe(0);
    expect(await search('overspeed', 'en')).toBe(1);
    // Values put into the text (the plate), and nothing for words shown nowhere.
    expect(await search('A 123', 'ar')).toBe(1);
    expect(await search('plate', 'en')).toBe(0);
    expect(await search('غير موجود', 'ar')).toBe(0);
  });

  it('a notification without message keys keeps its stored text', async () => {
    await storedAlert(w.users.adminA.id, false);
    expect((await list('ar')).json().data[0].title).toBe('Overspeed');
  });

  it("the request language becomes the user's saved language (for alerts and pushes sent later)", async () => {
    expect(await savedLocale(w.users.adminA.id)).toBe('en');
    await list('ar');
    expect(await savedLocale(w.users.adminA.id)).toBe('ar');
    // A request without X-Locale changes nothing.
    await call(h.app, {
      method: 'GET',
      url: '/v1/notifications',
      token: w.users.adminA.token,
      company: w.a.uuid,
    });
    expect(await savedLocale(w.users.adminA.id)).toBe('ar');
  });
});
