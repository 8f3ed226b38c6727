import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../storage/db';

/**
 * Signed unsubscribe links of guardian messages: `<guardian uuid>.<channel>.<signature>`, the signature
 * an HMAC-SHA256 (first 16 bytes, base64url) under the key `guardian_unsubscribe` of `signing_keys`
 * (made by migration 0026 from the database's random source, shared by every process). Nothing is stored
 * per link: any number of messages carry the same link, and it keeps working as long as the key does.
 * The uuid is not a secret on its own; without the key no one can make a valid signature for it.
 */
export type UnsubscribeChannel = 'email' | 'sms';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const keys = new WeakMap<Queryable, Promise<Buffer>>();

function keyOf(db: Queryable): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = db
      .query<{ secret: string }>(`SELECT secret FROM signing_keys WHERE name = 'guardian_unsubscribe'`)
      .then((rows) => {
        if (!rows[0]) throw new Error('signing key guardian_unsubscribe is missing (migration 0026)');
        return Buffer.from(rows[0].secret, 'hex');
      });
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

function signature(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${payload}`).digest().subarray(0, 16);
}

export async function signUnsubscribe(
  db: Queryable,
  guardianUuid: string,
  channel: UnsubscribeChannel,
): Promise<string> {
  const payload = `${guardianUuid}.${channel}`;
  return `${payload}.${signature(await keyOf(db), payload).toString('base64url')}`;
}

/** The guardian and channel of a genuine token; null for anything else (forged, malformed). */
export async function verifyUnsubscribe(
  db: Queryable,
  token: string,
): Promise<{ guardianUuid: string; channel: UnsubscribeChannel } | null> {
  if (token.length > 200) return null;
  const [uuid, channel, sig, ...rest] = token.split('.');
  if (rest.length || !uuid || !sig || !UUID.test(uuid) || (channel !== 'email' && channel !== 'sms'))
    return null;
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(await keyOf(db), `${uuid}.${channel}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { guardianUuid: uuid, channel };
}
