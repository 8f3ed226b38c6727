import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { call, createHarness, type Harness } from '../../test/harness';
import { buildWorld, type Actor, type World } from '../../test/fixtures';

/**
 * Who may download what from GET /v1/file/{kind}/{name} (modules/files.ts): uploaded avatars,
 * images and documents go to members of the owning company and super admins; a report export
 * only to the user who asked for it. Everyone else gets the same 404 as a name that does not exist.
 */
let h: Harness;
let w: World;
beforeAll(async () => {
  h = await createHarness('files_access');
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  w = await buildWorld(h.storage.db);
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 3),
]);

async function upload(actor: Actor, company: string, kind: string): Promise<string> {
  const boundary = '----filesaccess';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await h.app.inject({
    method: 'POST',
    url: `/v1/files/${kind}`,
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${actor.token}`,
      'x-transport-uuid': company,
    },
  });
  expect(r.statusCode, r.body).toBe(201);
  return (r.json() as { data: { url: string } }).data.url;
}

/** An export file as the report runner stores it (kind 'exports', company and requesting user). */
async function storedExport(owner: Actor, companyId: number): Promise<string> {
  const content = Buffer.from('a,b\n1,2\n');
  const name = `fuel-${createHash('md5').update(owner.email).digest('hex')}.csv`;
  await h.storage.db.query(
    `INSERT INTO files (company_id, kind, name, content_type, size, sha256, content, created_by)
     VALUES ($1, 'exports', $2, 'text/csv', $3, $4, $5, $6)`,
    [companyId, name, content.length, createHash('sha256').update(content).digest('hex'), content, owner.id],
  );
  return `/v1/file/exports/${name}`;
}

const get = (url: string, actor: Actor, via: 'header' | 'query' = 'header') =>
  via === 'header'
    ? call(h.app, { method: 'GET', url, token: actor.token })
    : call(h.app, { method: 'GET', url: `${url}?token=${actor.token}` });

describe('export downloads', () => {
  it('only the user who asked for the export downloads it', async () => {
    const url = await storedExport(w.users.adminA, w.a.id);
    const own = await get(url, w.users.adminA);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toMatch(/^text\/csv/);
    expect(own.headers['content-disposition']).toMatch(/^attachment;/);
    expect(own.body).toBe('a,b\n1,2\n');
    expect((await get(url, w.users.adminA, 'query')).statusCode).toBe(200);

    const missing = await get('/v1/file/exports/fuel-00000000000000000000000000000000.csv', w.users.adminA);
    expect(missing.statusCode).toBe(404);
    // Same company, other users (another admin, a branch admin, a member of both companies).
    for (const other of [w.users.multi, w.users.branchA1, w.users.stationA1, w.users.schoolA1]) {
      for (const via of ['header', 'query'] as const) {
        const r = await get(url, other, via);
        expect(r.statusCode).toBe(404);
        expect(r.json()).toEqual(missing.json());
      }
    }
    // Another company, and a super admin (who may act in any company but did not ask for it).
    expect((await get(url, w.users.adminB)).statusCode).toBe(404);
    expect((await get(url, w.users.super)).statusCode).toBe(404);
    // Without a token: 401.
    expect((await call(h.app, { method: 'GET', url })).statusCode).toBe(401);
  });

  it("a super admin's own export is theirs; a user who left the company loses theirs", async () => {
    const mine = await storedExport(w.users.super, w.a.id);
    expect((await get(mine, w.users.super)).statusCode).toBe(200);
    expect((await get(mine, w.users.adminA)).statusCode).toBe(404);

    const url = await storedExport(w.users.multi, w.b.id);
    expect((await get(url, w.users.multi)).statusCode).toBe(200);
    expect((await get(url, w.users.adminB)).statusCode).toBe(404);
    await h.storage.db.query('DELETE FROM memberships WHERE user_id = $1 AND company_id = $2', [
      w.users.multi.id,
      w.b.id,
    ]);
    expect((await get(url, w.users.multi)).statusCode).toBe(404);
  });
});

describe('uploaded files', () => {
  it.each(['avatars', 'images', 'documents'])(
    '%s: members of the company (any role) and super admins; nobody else',
    async (kind) => {
      const url = await upload(w.users.branchA1, w.a.uuid, kind);
      for (const member of [
        w.users.branchA1,
        w.users.adminA,
        w.users.branchA2,
        w.users.multi,
        w.users.super,
      ]) {
        const r = await get(url, member, 'query');
        expect(r.statusCode).toBe(200);
        expect(r.headers['content-type']).toBe('image/png');
        expect(r.headers['x-content-type-options']).toBe('nosniff');
        expect(r.rawPayload.equals(PNG)).toBe(true);
      }
      const foreign = await get(url, w.users.adminB);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).not.toContain('png');
      expect((await get(url, w.users.adminB, 'query')).statusCode).toBe(404);
    },
  );

  it('exports cannot be uploaded', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/v1/files/exports',
      payload: Buffer.from('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--b--\r\n'),
      headers: {
        'content-type': 'multipart/form-data; boundary=b',
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
      },
    });
    expect(r.statusCode).toBe(422);
  });

  it('a disabled user or a revoked token gets 401', async () => {
    const url = await upload(w.users.adminA, w.a.uuid, 'images');
    expect((await get(url, w.users.multi)).statusCode).toBe(200);
    await h.storage.db.query(`UPDATE users SET status = 'inactive' WHERE id = $1`, [w.users.multi.id]);
    expect((await get(url, w.users.multi, 'query')).statusCode).toBe(401);
    await h.storage.db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [
      w.users.adminA.id,
    ]);
    expect((await get(url, w.users.adminA)).statusCode).toBe(401);
  });
});

describe('upload refusals in the language of the request', () => {
  const send = (content: Buffer, locale: 'en' | 'ar') => {
    const boundary = '----fileslocale';
    return h.app.inject({
      method: 'POST',
      url: '/v1/files/images',
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
        'x-locale': locale,
      },
    });
  };

  it('a file of a refused type: message and field message in English or Arabic', async () => {
    const en = await send(Buffer.from('<script>alert(1)</script>'), 'en');
    expect(en.statusCode).toBe(422);
    expect(en.json()).toEqual({
      message: 'This file type is not allowed.',
      errors: { file: ['This file type is not allowed.'] },
    });
    const ar = await send(Buffer.from('<script>alert(1)</script>'), 'ar');
    expect(ar.json()).toEqual({
      message: 'نوع الملف هذا غير مسموح به.',
      errors: { file: ['نوع الملف هذا غير مسموح به.'] },
    });
  });

  it('a file over the limit: 413 with the limit in the field message, in Arabic too', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(h.config.UPLOAD_LIMIT + 1)]);
    const ar = await send(big, 'ar');
    expect(ar.statusCode).toBe(413);
    const mb = Math.floor(h.config.UPLOAD_LIMIT / 1048576);
    expect(ar.json().errors.file).toEqual([`الملف كبير جدًا (الحد الأقصى ${mb} ميغابايت).`]);
    const en = await send(big, 'en');
    expect(en.json().errors.file).toEqual([`The file is too large (at most ${mb} MB).`]);
  });
});

describe('multipart bodies (@fastify/multipart)', () => {
  const post = (payload: Buffer | string, boundary = '----parts') =>
    h.app.inject({
      method: 'POST',
      url: '/v1/files/images',
      payload,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
      },
    });
  const part = (name: string, content: Buffer | string, filename?: string) =>
    Buffer.concat([
      Buffer.from(
        `------parts\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
          `${filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
      ),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from('\r\n'),
    ]);

  it('takes the part named file among fields and other files', async () => {
    const r = await post(
      Buffer.concat([
        part('caption', 'a field'),
        part('other', Buffer.from('not an image'), 'notes.txt'),
        part('file', PNG, 'a.png'),
        Buffer.from('------parts--\r\n'),
      ]),
    );
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().data).toMatchObject({ size: PNG.length, content_type: 'image/png' });
  });

  it('answers a truncated body or a body without its file part with 422, never a 500', async () => {
    const truncated = await post(Buffer.concat([part('file', PNG, 'a.png')]).subarray(0, 60));
    expect(truncated.statusCode).toBe(422);
    const fieldOnly = await post(Buffer.concat([part('file', 'x'), Buffer.from('------parts--\r\n')]));
    expect(fieldOnly.statusCode).toBe(422);
    const noBoundary = await h.app.inject({
      method: 'POST',
      url: '/v1/files/images',
      payload: 'whatever',
      headers: {
        'content-type': 'multipart/form-data',
        authorization: `Bearer ${w.users.adminA.token}`,
        'x-transport-uuid': w.a.uuid,
      },
    });
    expect(noBoundary.statusCode).toBe(422);
  });
});
