import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../http/errors';
import type { Queryable } from '../storage/db';
import type { Tenant } from '../tenancy/context';
import type { Principal } from '../auth/session';
import { scopeSql } from './scope';

/**
 * What an entity definition (defs/) says about a managed record and the helpers the definitions use:
 * the vocabulary between the entities and the generic CRUD (read.ts, write.ts, crud.ts).
 */

/** A `<field>_uuid` input/output that is a foreign key column of this table. */
export interface RefDef {
  table: string;
  column: string;
  label: string;
  /** Entity word of 'This {entity} is already assigned' when one row only may hold the target. */
  exclusive?: string;
}

/** A `<field>_uuids` list kept in a join table. */
export interface LinkDef {
  table: string;
  self: string;
  other: string;
  otherTable: string;
  label: string;
  /** The linked record may belong to one row of this entity only. */
  exclusive?: string;
}

/** A `<field>_uuid` stored on the other table (a driver's vehicle = vehicles.driver_id). */
export interface ReverseDef {
  otherTable: string;
  otherColumn: string;
  label: string;
  exclusive: string;
}

export interface WriteContext {
  tx: Queryable;
  tenant: Tenant;
  principal: Principal;
  req: FastifyRequest;
  /** Id of the row being updated (undefined on create). */
  id?: number;
  locale: 'en' | 'ar';
}

/** A stored row of an entity table (enriched with its references when read). */
export type Row = Record<string, unknown> & { id: number; uuid: string };

export interface EntityDef {
  /** Endpoint group of @fleet/api-client ('vehicles', 'scheduledTrips', ...). */
  name: string;
  table: string;
  /** Singular word for messages and the activity log ('vehicle'). */
  label: string;
  /** Permission prefix ('vehicles' -> vehicles.view / create / update / delete). */
  permission: string;
  item: z.ZodObject;
  /** Contract fields stored in same-named columns (the rest goes to `data`). */
  columns: string[];
  refs?: Record<string, RefDef>;
  links?: Record<string, LinkDef>;
  reverse?: Record<string, ReverseDef>;
  /** SQL expressions over alias `e` matched with ILIKE by `search`. */
  search: string[];
  /** Extra list filters: query field -> SQL with `$?` for the value (alias `e`). */
  filters?: Record<string, string>;
  /** Column compared with the list's from / to. */
  timeColumn?: string;
  /** Sortable fields -> SQL expression (alias `e`). */
  sort: Record<string, string>;
  defaultSort: string;
  /** Records that depend on a row: SQL returning a row when one exists ($1 = id). */
  dependents?: { sql: string; label: string }[];
  /** Entity-specific columns and checks before a write (geofence bbox, device IMEIs ...). */
  prepare?(input: Record<string, unknown>, ctx: WriteContext): Promise<Record<string, unknown>>;
  afterWrite?(id: number, input: Record<string, unknown>, ctx: WriteContext): Promise<void>;
  /** Extra SELECT expressions on a page row `p` ('(...) AS name'). */
  extraSelect?: string[];
  /** Final touches to the contract view. */
  view?(item: Record<string, unknown>, row: Row): Record<string, unknown>;
  /** Status values of PATCH /status that stay in `status`; default all. */
  onChange?(app: FastifyInstance, row: { uuid: string }): void;
}

export { assignedError } from '../http/errors';

export function invalidRef(field: string, label: string): HttpError {
  return new HttpError(422, 'validation.general', {}, { [field]: [`Please enter a valid ${label}`] });
}

/** Look up a record of `table` by uuid inside the tenant's scope. */
export async function findInScope(
  db: Queryable,
  table: string,
  uuid: string,
  tenant: Tenant,
): Promise<{ id: number; sub_company_id?: number | null; branch_id?: number | null } | null> {
  const params: unknown[] = [uuid];
  const rows = await db.query<{ id: number }>(
    `SELECT r.* FROM ${table} r WHERE r.uuid = $1 AND ${scopeSql(table, 'r', tenant, params)}`,
    params,
  );
  return rows[0] ?? null;
}
