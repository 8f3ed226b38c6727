import { randomBytes } from 'node:crypto';
import type { Queryable } from '../storage/db';

interface Column {
  column_name: string;
  data_type: string;
}

/**
 * Insert one row into `table` for `companyId`, filling every NOT NULL column without a default with a
 * plain value of its type (text 'sec-…', numbers 1, dates, '{}' JSON), plus `values`. Used to give the
 * "other company" one record of every table behind an endpoint of the contract, without knowing each
 * entity's input shape; the storage layer's own constraints still apply.
 */
export async function insertMinimal(
  db: Queryable,
  table: string,
  values: Record<string, unknown>,
): Promise<{ id: number; uuid: string }> {
  const cols = await db.query<Column>(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_nullable = 'NO' AND column_default IS NULL
       AND is_identity = 'NO' AND is_generated = 'NEVER'`,
    [table],
  );
  const row: Record<string, unknown> = {};
  for (const c of cols) {
    if (c.column_name in values) continue;
    const t = c.data_type;
    if (/char|text/.test(t)) row[c.column_name] = `sec-${randomBytes(4).toString('hex')}`;
    else if (/int|numeric|real|double/.test(t)) row[c.column_name] = 1;
    else if (t === 'boolean') row[c.column_name] = false;
    else if (t === 'date') row[c.column_name] = '2026-01-01';
    else if (t.startsWith('timestamp')) row[c.column_name] = '2026-11-01T00:00:00Z';
    else if (t.startsWith('time')) row[c.column_name] = '08:00';
    else if (t === 'jsonb' || t === 'json') row[c.column_name] = '{}';
    else if (t === 'ARRAY') row[c.column_name] = '{}';
    else throw new Error(`insertMinimal: no default for ${table}.${c.column_name} (${t})`);
  }
  Object.assign(row, values);
  const names = Object.keys(row);
  const [r] = await db.query<{ id: number; uuid: string }>(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id, uuid`,
    names.map((n) => row[n]),
  );
  return r!;
}
