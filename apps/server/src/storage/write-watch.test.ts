import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStorage } from '../../test/db';
import type { Storage } from './storage';
import { writeRegExp } from './write-watch';

describe('writeRegExp', () => {
  const re = writeRegExp(['sessions', 'users']);
  it.each([
    'UPDATE sessions SET revoked_at = now() WHERE id = $1',
    'update  "users" set status = $2',
    'DELETE FROM users WHERE id = $1',
    'INSERT INTO sessions (user_id) VALUES ($1)',
    'UPDATE ONLY public.users SET name = $1',
    'WITH x AS (UPDATE users SET name = $1 RETURNING id) SELECT * FROM x',
    'TRUNCATE share_links, activity_log, sessions, memberships RESTART IDENTITY CASCADE',
    'truncate table "t_x".users',
    'ALTER TABLE users ADD COLUMN x int',
    'DROP TABLE IF EXISTS a, users',
  ])('sees a write in %s', (sql) => expect(re.test(sql)).toBe(true));

  it.each([
    'SELECT * FROM sessions s JOIN users u ON u.id = s.user_id',
    'UPDATE users_archive SET x = 1',
    'INSERT INTO user_sessions (x) VALUES (1)',
    'UPDATE vehicles SET users = 1',
    'TRUNCATE vehicles, devices',
    'SELECT id FROM users FOR UPDATE',
  ])('no write in %s', (sql) => expect(re.test(sql)).toBe(false));
});

describe('onWrite on a real database', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await openTestStorage('write_watch');
  });
  afterAll(() => storage.close());

  it('reports a statement before it runs and after it ran; a transaction after it committed', async () => {
    const db = storage.db;
    const events: string[] = [];
    const off = db.onWrite(['users'], (phase) => events.push(phase));
    try {
      await db.query(`INSERT INTO users (email, name) VALUES ('w@fleet.test', 'W')`);
      expect(events).toEqual(['start', 'end']);
      events.length = 0;
      await db.query('SELECT count(*) FROM users');
      expect(events).toEqual([]);
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE users SET name = 'X'`);
        // Inside the transaction: 'start' only, 'end' waits for the commit.
        expect(events).toEqual(['start']);
        await tx.query('SELECT 1');
      });
      expect(events).toEqual(['start', 'end']);
      events.length = 0;
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`DELETE FROM users`);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(events).toEqual(['start', 'end']);
      const [n] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(n!.n).toBe(1);
    } finally {
      off();
    }
    events.length = 0;
    await db.query(`UPDATE users SET name = 'Y'`);
    expect(events).toEqual([]);
    await db.query('DELETE FROM users');
  });
});
