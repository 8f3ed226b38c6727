import type { FastifyInstance } from 'fastify';
import type { SalikGate } from '@fleet/api-client';
import { route } from '../http/route';
import { notFound } from '../http/errors';
import { sortExpression } from './list-sort';
import { loadSalik, type LoadedSalik } from '../pipeline/salik/load';
import { gatesToApi, nameUuid } from '../pipeline/salik/api-gates';
import { page } from '../http/page';

/**
 * Salik toll gates (GET /v1/salik-gates, GET /v1/salik-gates/:uuid), read-only.
 *
 * Source: the very data the pipeline's Salik detector charges with: `loadSalik()` (the bundled
 * pipeline/salik/data/salik.json and its overlay of road bearings), turned into the contract's records
 * by `gatesToApi` (pipeline/salik/api-gates.ts). A gantry charged both ways is two records on the same
 * line, one per charged direction; a linked pair (Al Mamzar, Al Safa) links the same-direction records.
 *
 * Uuids are stable and documented: a name-based uuid (version-5 layout over SHA-1) of
 * `fleet:salik-gate:<gate code>:<forward|reverse>` (`nameUuid` in api-gates.ts). The pipeline writes the
 * same uuid as `gate_uuid` into every Salik crossing, so an event's gate opens here, on every node and
 * across restarts, with no table to keep in step.
 *
 * created_at / updated_at: the gate's opening date as the data file reports it (`opened`, kept by the
 * pipeline's data schema: a year, a month or a day, read as that period's first day, midnight Dubai time). The file carries no edit
 * history; when a gate has no opening date the time the data was loaded stands in.
 *
 * Permission: the gates are public road data, not a company's, but they are only meaningful next to the
 * company's Salik crossings, so reading them needs what reading those needs (`salik-events.view`), like
 * the other read-only, pipeline-derived lists. Every company sees the same list.
 *
 * No update (decision): the gates and tariffs belong to the road authority (RTA / Salik PJSC). A
 * company-level PUT would let one tenant change the tolls charged to every tenant, and a per-company
 * copy would make a fleet's toll report disagree with the authority's statement, which is what the
 * report is checked against. Corrections (a new gantry, a surveyed position, a new tariff) ship as a
 * reviewed change of the versioned data file, covered by the pipeline's Salik tests and applied by
 * every node on deploy. The portal has no gate editor, so `salikGates.update` was removed from the
 * contract instead of being advertised and left unimplemented.
 */

type Row = SalikGate;

/** Midnight in Dubai (UTC+4, no daylight saving) of the first day of an `opened` period, or null. */
function openingTime(opened: string | undefined): string | null {
  const m = opened ? /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(opened) : null;
  if (!m) return null;
  const at = new Date(`${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}T00:00:00+04:00`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The contract records of the loaded data, in the data file's order. */
export function salikGateRecords(salik: LoadedSalik): Row[] {
  const loadedAt = new Date().toISOString();
  // The opening time of each API record, by the same name-based uuid gatesToApi gives it.
  const openedAt = new Map<string, string>();
  for (const g of salik.gates) {
    const at = openingTime(salik.data.gates.find((d) => d.code === g.code)?.opened) ?? loadedAt;
    for (const dir of g.charged) openedAt.set(nameUuid(`${g.code}:${dir}`), at);
  }
  return gatesToApi(salik.gates).map((g) => {
    const at = openedAt.get(g.uuid) ?? loadedAt;
    return {
      uuid: g.uuid,
      name: g.name,
      name_ar: g.name_ar,
      line_start: { ...g.line_start },
      line_end: { ...g.line_end },
      charged_bearing: g.charged_bearing,
      linked_gate_uuid: g.linked_gate_uuid,
      status: g.status === 'inactive' ? 'inactive' : 'active',
      created_at: at,
      updated_at: at,
    };
  });
}

const SORTS: Record<string, (a: Row, b: Row) => number> = {
  name: (a, b) => a.name.localeCompare(b.name, 'en') || a.uuid.localeCompare(b.uuid),
  charged_bearing: (a, b) => a.charged_bearing - b.charged_bearing || a.uuid.localeCompare(b.uuid),
  created_at: (a, b) => a.created_at.localeCompare(b.created_at) || a.name.localeCompare(b.name, 'en'),
  updated_at: (a, b) => a.updated_at.localeCompare(b.updated_at) || a.name.localeCompare(b.name, 'en'),
};

const SORT_NAMES = Object.fromEntries(Object.keys(SORTS).map((k) => [k, k]));

/** Case-insensitive match of the search text in the English or Arabic name. */
function matches(g: Row, search: string): boolean {
  const s = search.toLocaleLowerCase('en');
  return g.name.toLocaleLowerCase('en').includes(s) || (g.name_ar ?? '').includes(search);
}

export function registerSalikGateRoutes(app: FastifyInstance, salik: LoadedSalik = loadSalik()): void {
  const gates = salikGateRecords(salik);
  const byUuid = new Map(gates.map((g) => [g.uuid, g]));

  route(
    app,
    'salikGates.list',
    async ({ query: q }) => {
      // An unknown sort name is a 422 on `sort`, as on every other list.
      const compare = SORTS[sortExpression(q.sort, SORT_NAMES, 'name')]!;
      // Without an explicit sort the list reads A to Z (the default order 'desc' is for newest-first lists).
      const desc = q.sort !== undefined && q.order === 'desc';
      const rows = gates
        .filter(
          (g) => (q.status === undefined || g.status === q.status) && (!q.search || matches(g, q.search)),
        )
        .sort((a, b) => (desc ? -compare(a, b) : compare(a, b)));
      const start = (q.page - 1) * q.limit;
      return page(rows.slice(start, start + q.limit), rows.length, q);
    },
    { permission: 'salik-events.view' },
  );

  route(
    app,
    'salikGates.show',
    async ({ params }) => {
      const gate = byUuid.get(params.uuid.toLowerCase());
      if (!gate) throw notFound('Salik gate');
      return { data: gate };
    },
    { permission: 'salik-events.view' },
  );
}
