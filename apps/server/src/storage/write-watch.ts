import type { Database, Queryable } from './db';

/**
 * Called for a statement that writes to a watched table: once before it runs ('start') and once
 * after it is committed or failed ('end'; for a statement inside a transaction, after the
 * transaction ended). Caches built from those tables drop their entries on both, so a reader that
 * raced with the write cannot keep what it read before the commit.
 */
export type WriteListener = (phase: 'start' | 'end', sql: string) => void;

export interface WriteWatch {
  /** Listen for writes to any of `tables`; returns the unsubscribe function. */
  onWrite(tables: readonly string[], listener: WriteListener): () => void;
}

interface Watcher {
  re: RegExp;
  listener: WriteListener;
}

const ident = (t: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(t)) throw new Error(`bad table name ${t}`);
  return t;
};

/**
 * A statement writes a table when it names it after INSERT INTO, UPDATE, DELETE FROM, TRUNCATE,
 * ALTER TABLE or DROP TABLE (anywhere in the text, so data-modifying CTEs count), optionally
 * schema-qualified or quoted. Writes that reach a table only through a foreign key (ON DELETE
 * CASCADE from a parent) are seen through the parent, which callers list too.
 */
export function writeRegExp(tables: readonly string[]): RegExp {
  const names = tables.map(ident).join('|');
  const name = String.raw`(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\s*\.\s*)?"?`;
  const single = String.raw`(?:insert\s+into|update|delete\s+from|alter\s+table)\s+${name}`;
  // TRUNCATE and DROP TABLE take a list: any table of it counts.
  const list = String.raw`(?:truncate(?:\s+table)?|drop\s+table(?:\s+if\s+exists)?)\s+(?:${name}[a-z0-9_]+"?\s*,\s*)*${name}`;
  return new RegExp(String.raw`\b(?:${single}|${list})(?:${names})"?(?![a-z0-9_])`, 'i');
}

/**
 * Wraps a database so every statement passing through `query`, `exec` and `transaction` is checked
 * against the watched tables. The check is one regular expression per watcher on the SQL text; it
 * costs microseconds next to the statement itself.
 */
export function withWriteWatch<D extends Omit<Database, keyof WriteWatch>>(db: D): D & WriteWatch {
  const watchers = new Set<Watcher>();
  const matching = (sql: string) => {
    if (watchers.size === 0) return [];
    const hit: Watcher[] = [];
    for (const w of watchers) if (w.re.test(sql)) hit.push(w);
    return hit;
  };
  const notify = (ws: Watcher[], phase: 'start' | 'end', sql: string) => {
    for (const w of ws) w.listener(phase, sql);
  };
  const around = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const ws = matching(sql);
    if (ws.length === 0) return run();
    notify(ws, 'start', sql);
    try {
      return await run();
    } finally {
      notify(ws, 'end', sql);
    }
  };
  return {
    ...db,
    query: <T>(text: string, params?: readonly unknown[]) => around(text, () => db.query<T>(text, params)),
    // The urgent lane is the same database: its writes are watched as well.
    ...(db.urgent
      ? {
          urgent: {
            query: <T>(text: string, params?: readonly unknown[]) =>
              around(text, () => db.urgent!.query<T>(text, params)),
          },
        }
      : {}),
    exec: (text: string) => around(text, () => db.exec(text)),
    transaction: async <T>(
      fn: (tx: Queryable & { exec(text: string): Promise<void> }) => Promise<T>,
    ): Promise<T> => {
      // Watchers touched inside the transaction hear 'end' once it committed or rolled back.
      const touched = new Map<Watcher, string>();
      try {
        return await db.transaction((tx) => {
          const seen = (sql: string) => {
            const ws = matching(sql);
            for (const w of ws) touched.set(w, sql);
            notify(ws, 'start', sql);
          };
          return fn({
            query: <R>(text: string, params?: readonly unknown[]) => {
              seen(text);
              return tx.query<R>(text, params);
            },
            exec: (text: string) => {
              seen(text);
              return tx.exec(text);
            },
          });
        });
      } finally {
        for (const [w, sql] of touched) w.listener('end', sql);
      }
    },
    onWrite: (tables: readonly string[], listener: WriteListener) => {
      const w: Watcher = { re: writeRegExp(tables), listener };
      watchers.add(w);
      return () => {
        watchers.delete(w);
      };
    },
  };
}
