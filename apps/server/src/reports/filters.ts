/**
 * The vehicle selection every report shares: one vehicle, or the vehicles of a station (sub company),
 * a branch or a school. These conditions only ever narrow the rows that the tenant's scope
 * (`scopeSql`) already allows; a uuid of another company's group matches no vehicle of this one.
 */
export interface ReportSelection {
  readonly vehicle_uuid?: string | undefined;
  readonly station_uuid?: string | undefined;
  readonly branch_uuid?: string | undefined;
  readonly school_uuid?: string | undefined;
}

/** SQL conditions on the vehicles alias `v` for the selection (parameters appended to `params`). */
export function selectionSql(alias: string, q: ReportSelection, params: unknown[]): string[] {
  const out: string[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (q.vehicle_uuid) out.push(`${alias}.uuid = ${p(q.vehicle_uuid)}`);
  if (q.station_uuid) {
    out.push(`${alias}.sub_company_id = (SELECT id FROM sub_companies WHERE uuid = ${p(q.station_uuid)})`);
  }
  if (q.branch_uuid)
    out.push(`${alias}.branch_id = (SELECT id FROM branches WHERE uuid = ${p(q.branch_uuid)})`);
  if (q.school_uuid)
    out.push(`${alias}.school_id = (SELECT id FROM schools WHERE uuid = ${p(q.school_uuid)})`);
  return out;
}

/** The selection as ` AND ...` (empty when the whole scope is asked for). */
export function selectionAnd(alias: string, q: ReportSelection, params: unknown[]): string {
  return selectionSql(alias, q, params)
    .map((c) => ` AND ${c}`)
    .join('');
}
