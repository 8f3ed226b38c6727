import { PGlite } from '@electric-sql/pglite';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db';
import { migrate } from './migrate';

/**
 * The tables are described once, by the SQL migrations. The code reads them with raw SQL and names
 * what it expects back in a row type beside each query (`db.query<{ id: number; ... }>(sql)`).
 *
 * This test is what keeps the two from drifting apart. It finds every such call in the server's
 * source with the TypeScript compiler, rebuilds the SQL text when it is known at compile time
 * (literals, templates and `+` over constant strings), asks a freshly migrated PGlite to describe
 * the statement (parse and plan, nothing runs), and then checks each property of the row type
 * against the columns the database says the statement returns: the column must exist and its
 * PostgreSQL type must fit the TypeScript type (number for the integer and numeric types the
 * drivers parse to numbers, string for text and uuid, boolean, Date for timestamps, objects and
 * arrays for json and arrays). A renamed or dropped column, a table that no migration creates, or a
 * type changed under the code fails here with the file and line of the query.
 *
 * Texts assembled at run time are followed as far as the compiler can see (issue 22: from 143 to 191
 * of 215 queries): every branch of a conditional and every member of a union of string literals is a
 * variant of its own, each described; the expressions a list may sort by (`sortExpression`, a constant
 * map of sorts) are variants too; a local helper that returns a template is read through; and the
 * fragments of known kind (tenant scope, date ranges, conditions joined with AND, parameter numbers
 * counted at run time) stand in as `TRUE` / `NULL`, which leaves the result columns as they are.
 * What is still built out of sight (a table name from an entity definition, a select list passed in)
 * is listed by file with the reason in NOT_KNOWN, and the known share is held to the floor below so
 * that moving queries out of the checked set does not go unnoticed.
 *
 * Why not drizzle: storage/schema.ts held a drizzle copy of every table that no query used, a
 * third description nothing compared with the other two. Moving 200-odd hand-tuned queries
 * (partitions, LATERAL joins, ON CONFLICT upserts, window functions) onto a query builder would
 * change the SQL the planner sees for no gain in behaviour; checking the row types against the
 * migrated database gives the same safety with the SQL left as it is.
 */

const SRC = fileURLToPath(new URL('..', import.meta.url));

/**
 * The check reads source and migrations, not data, so it runs once: in the PGlite pass of `npm test`
 * (scripts/test.mjs), not again in the PostgreSQL pass.
 */
const secondPass = process.env.FLEET_TEST_DB === 'pg';

/** At least this share of the row-typed queries must have a text known at compile time (191 of 215 in session 8). */
const MIN_CHECKED_SHARE = 0.85;

/**
 * The files whose row-typed queries are (partly) built at run time in a way this test cannot follow,
 * and why. A query not known in a file that is not listed here fails the test: say why beside it, or
 * build it so that it can be described. A listed file left with nothing unknown fails too (the list
 * must not go stale).
 */
const NOT_KNOWN: Record<string, string> = {
  'cluster/figures.ts': 'one count per outbox: the table and its waiting condition come from the outbox list',
  'entities/crud.ts': 'the generic entity CRUD: table and columns come from the entity definition',
  'entities/entity-def.ts': 'the generic entity lookup: the table comes from the entity definition',
  'entities/read.ts': 'the generic entity list/show: table, columns and sort come from the entity definition',
  'entities/defs/notification-rules.ts':
    'the referenced table (users, vehicles, geofences...) comes from the field',
  'modules/device-events.ts':
    'geofence and Salik events share one list: table, time column and sorts come from the route',
  'modules/locations.ts':
    'the history page is composed from sub-query text (per-device branches, cursor, count) built beside it',
  'pipeline/bench/soak-db.ts': 'benchmark: counts the rows of each table it lists, in a loop',
  'reports/bench-everyday.ts': 'benchmark: counts the rows of each table in a loop',
  'reports/queries.ts': 'a shared report query: each report passes its own select list and HAVING',
  'reports/sensors.ts':
    'a shared sensor report query: each report passes its own select list, HAVING or filter',
  'security-tests/fixtures.ts': 'test fixture: inserts into any table',
  'seed/demo.ts': "a one-row helper: the statement is its caller's",
  'storage/db.ts': 'the drivers: any statement passes through',
  'storage/query-stats.ts': 'the per-statement timing of benchmarks: any statement passes through',
  'storage/write-watch.ts': 'the write watch: any statement passes through',
};

interface Found {
  where: string;
  /** The texts the query can run with (null: not known at compile time). */
  texts: Texts | null;
  props: { name: string; optional: boolean; kinds: Set<Kind> }[] | null;
  /** Per text: the result columns the database describes, or why it refused the statement. */
  described?: ({ fields: { name: string; dataTypeID: number }[] } | { error: string })[];
}

type Kind = 'number' | 'string' | 'boolean' | 'date' | 'object' | 'array' | 'unknown' | 'bigint';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.ts$/.test(name) && !/\.(test|bench)\.ts$|test-helpers\.ts$|\.d\.ts$/.test(name))
      out.push(full);
  }
  return out;
}

/** At most this many texts per query (every combination of its conditionals is described). */
const MAX_VARIANTS = 64;

/**
 * Helpers that build a piece of a statement at run time, and what each stands as here: the tenant
 * scope (entities/scope.ts), the rollup day/hour ranges (reports/range.ts) and the report's vehicle
 * selection, appended as ` AND ...` conditions or nothing (reports/filters.ts); the keyset paging of
 * reports (reports/queries.ts): the "after the cursor" condition, the cursor's extra `seek_<n>` columns
 * (read by cursorOf, never part of a row type: left out), the ORDER BY list of the sort keys (stands as
 * the first column) and the LIMIT/OFFSET of the page.
 */
const PREDICATE_HELPERS: Record<string, string> = {
  scopeSql: 'TRUE',
  rangeSql: 'TRUE',
  hourlySql: 'TRUE',
  selectionAnd: '',
  seekSql: 'TRUE',
  seekColumns: '',
  seekOrder: '1',
  limitSql: 'LIMIT NULL',
};

/** The expression a `const` name stands for (followed through names), or the expression itself. */
function resolveConst(node: ts.Expression, checker: ts.TypeChecker, depth = 0): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) e = e.expression;
  if (depth > 10 || !ts.isIdentifier(e)) return e;
  const decl = checker.getSymbolAtLocation(e)?.valueDeclaration;
  if (
    decl &&
    ts.isVariableDeclaration(decl) &&
    decl.initializer &&
    ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const
  )
    return resolveConst(decl.initializer, checker, depth + 1);
  return e;
}

/**
 * Run-time fragments of a template that stand for something of known kind, so the statement can
 * still be described. Each keeps the result columns as they are:
 *  - a predicate built at run time (the helpers above, or a list of conditions joined with AND:
 *    `where.join(' AND ')`) stands as `TRUE` (or nothing, for the appended conditions);
 *  - a parameter number computed at run time (`$${params.length}`, `$${params.push(x)}`) stands as
 *    `NULL` (a typed NULL where the query casts it).
 * What a stand-in leaves out (the parameters inside a predicate) may leave a gap in the parameter
 * numbers that the database cannot type; such a statement counts as not known (see beforeAll).
 */
function standIn(
  span: ts.Expression,
  textBefore: string,
  checker: ts.TypeChecker,
): { text: string; dropDollar: boolean } | null {
  if (textBefore.endsWith('$')) return { text: 'NULL', dropDollar: true };
  const e = resolveConst(span, checker);
  if (!ts.isCallExpression(e)) return null;
  const callee = e.expression;
  if (ts.isIdentifier(callee) && callee.text in PREDICATE_HELPERS)
    return { text: PREDICATE_HELPERS[callee.text]!, dropDollar: false };
  if (
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === 'join' &&
    e.arguments.length === 1 &&
    ts.isStringLiteral(e.arguments[0]!) &&
    e.arguments[0].text === ' AND '
  )
    return { text: 'TRUE', dropDollar: false };
  return null;
}

/** Every `a + b` of two lists of texts (null when either is unknown or there would be too many). */
function product(a: string[] | null, b: string[] | null): string[] | null {
  if (a === null || b === null || a.length * b.length > MAX_VARIANTS) return null;
  return a.flatMap((x) => b.map((y) => x + y));
}

/** Every value of an object literal (followed through `const` names and properties), or null. */
function valuesOf(node: ts.Expression, checker: ts.TypeChecker, depth: number): Texts | null {
  let obj = resolveConst(node, checker);
  if (ts.isPropertyAccessExpression(obj)) {
    const decl = checker.getSymbolAtLocation(obj)?.valueDeclaration;
    if (decl && ts.isPropertyAssignment(decl)) obj = resolveConst(decl.initializer, checker);
  }
  if (!ts.isObjectLiteralExpression(obj) || obj.properties.length > MAX_VARIANTS) return null;
  const texts: string[] = [];
  let standIns = false;
  for (const p of obj.properties) {
    const v = ts.isPropertyAssignment(p) ? constantTexts(p.initializer, checker, depth + 1) : null;
    if (!v) return null;
    texts.push(...v.texts);
    standIns ||= v.standIns;
  }
  return texts.length && texts.length <= MAX_VARIANTS ? { texts, standIns } : null;
}

interface Texts {
  texts: string[];
  /** Some fragment is a stand-in (the text is not exactly what runs). */
  standIns: boolean;
}

/**
 * The texts a string expression can have, known at compile time: literals, templates and `+` over
 * constant strings, one text per branch of each conditional (`cond ? 'A' : 'B'`) and per member of a
 * union of string literals (`'ASC' | 'DESC'`), run-time fragments of known kind replaced by their
 * stand-in (above). Null when some part is unknown.
 */
function constantTexts(node: ts.Expression, checker: ts.TypeChecker, depth = 0): Texts | null {
  if (depth > 20) return null;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
    return constantTexts(node.expression, checker, depth + 1);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { texts: [node.text], standIns: false };
  if (ts.isConditionalExpression(node)) {
    const a = constantTexts(node.whenTrue, checker, depth + 1);
    const b = a && constantTexts(node.whenFalse, checker, depth + 1);
    if (!a || !b || a.texts.length + b.texts.length > MAX_VARIANTS) return null;
    return { texts: [...a.texts, ...b.texts], standIns: a.standIns || b.standIns };
  }
  if (ts.isTemplateExpression(node)) {
    let texts: string[] | null = [node.head.text];
    let standIns = false;
    for (const span of node.templateSpans) {
      const part = constantTexts(span.expression, checker, depth + 1);
      if (part) {
        standIns ||= part.standIns;
        texts = product(texts, part.texts);
      } else {
        const stand = texts && standIn(span.expression, texts[0]!, checker);
        if (!texts || !stand) return null;
        standIns = true;
        texts = texts.map((t) => (stand.dropDollar ? t.slice(0, -1) : t) + stand.text);
      }
      texts = product(texts, [span.literal.text]);
      if (!texts) return null;
    }
    return { texts, standIns };
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const a = constantTexts(node.left, checker, depth + 1);
    const b = a && constantTexts(node.right, checker, depth + 1);
    const texts = a && b ? product(a.texts, b.texts) : null;
    return texts && a && b ? { texts, standIns: a.standIns || b.standIns } : null;
  }
  if (ts.isCallExpression(node)) {
    // A local helper `const f = (...) => `...`` : its body, with run-time parts as stand-ins.
    const fn = resolveConst(node.expression, checker);
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return constantTexts(fn.body, checker, depth + 1);
    // A list's sort key (modules/list-sort.ts): one of the expressions it allows.
    if (ts.isIdentifier(node.expression) && node.expression.text === 'sortExpression' && node.arguments[1])
      return valuesOf(node.arguments[1], checker, depth + 1);
  }
  // `sorts[key]` of a constant object: any of its values.
  if (ts.isElementAccessExpression(node)) return valuesOf(node.expression, checker, depth + 1);
  const type = checker.getTypeAtLocation(node);
  if (type.isStringLiteral()) return { texts: [type.value], standIns: false };
  if (type.isNumberLiteral()) return { texts: [String(type.value)], standIns: false };
  if (
    type.isUnion() &&
    type.types.length <= MAX_VARIANTS &&
    type.types.every((t) => t.isStringLiteral() || t.isNumberLiteral())
  )
    return {
      texts: type.types.map((t) => String((t as ts.StringLiteralType | ts.NumberLiteralType).value)),
      standIns: false,
    };
  if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const decl = symbol?.valueDeclaration;
    if (
      decl &&
      ts.isVariableDeclaration(decl) &&
      decl.initializer &&
      ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const
    )
      return constantTexts(decl.initializer, checker, depth + 1);
    if (decl && ts.isPropertyAssignment(decl)) return constantTexts(decl.initializer, checker, depth + 1);
  }
  return null;
}

function kindsOf(type: ts.Type, checker: ts.TypeChecker): Set<Kind> {
  const kinds = new Set<Kind>();
  const parts = type.isUnion() ? type.types : [type];
  for (const t of parts) {
    const f = t.flags;
    if (f & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) continue;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) kinds.add('unknown');
    else if (f & ts.TypeFlags.NumberLike) kinds.add('number');
    else if (f & ts.TypeFlags.BigIntLike) kinds.add('bigint');
    else if (f & ts.TypeFlags.StringLike) kinds.add('string');
    else if (f & ts.TypeFlags.BooleanLike) kinds.add('boolean');
    else if (checker.isArrayType(t) || checker.isTupleType(t)) kinds.add('array');
    else if (t.getSymbol()?.getName() === 'Date') kinds.add('date');
    else kinds.add('object');
  }
  return kinds;
}

function findQueries(): Found[] {
  const files = sourceFiles(SRC);
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ['source'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const found: Found[] = [];
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'query' &&
        node.typeArguments?.length === 1 &&
        node.arguments.length >= 1
      ) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
        const where = `${relative(SRC, file)}:${line + 1}`;
        const rowType = checker.getTypeFromTypeNode(node.typeArguments[0]!);
        // Record<string, unknown> and friends name no column: nothing to check.
        const props =
          checker.getIndexInfosOfType(rowType).length > 0
            ? null
            : checker.getPropertiesOfType(rowType).map((p) => ({
                name: p.getName(),
                optional: (p.flags & ts.SymbolFlags.Optional) !== 0,
                kinds: kindsOf(checker.getTypeOfSymbol(p), checker),
              }));
        found.push({ where, texts: constantTexts(node.arguments[0]!, checker), props });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** PostgreSQL type OIDs and the TypeScript kinds the two drivers (db.ts) hand back for them. */
const FITS: Record<number, readonly Kind[]> = {
  16: ['boolean'], // bool
  17: ['object'], // bytea (Uint8Array / Buffer)
  18: ['string'], // char
  19: ['string'], // name
  20: ['number'], // int8, parsed to number in db.ts
  21: ['number'], // int2
  23: ['number'], // int4
  25: ['string'], // text
  26: ['number'], // oid
  114: ['object', 'array', 'string', 'number', 'boolean'], // json
  700: ['number'], // float4
  701: ['number'], // float8
  869: ['string'], // inet
  1042: ['string'], // bpchar
  1043: ['string'], // varchar
  1082: ['date'], // date (both drivers give a Date)
  1083: ['string'], // time
  1114: ['date'], // timestamp
  1184: ['date'], // timestamptz
  1186: ['string', 'object'], // interval
  1700: ['number'], // numeric, parsed to number in db.ts
  2950: ['string'], // uuid
  3802: ['object', 'array', 'string', 'number', 'boolean'], // jsonb
  // Arrays of the above.
  1000: ['array'],
  1005: ['array'],
  1007: ['array'],
  1016: ['array'],
  1009: ['array'],
  1015: ['array'],
  1021: ['array'],
  1022: ['array'],
  1231: ['array'],
  1185: ['array'],
  1115: ['array'],
  2951: ['array'],
  3807: ['array'],
};

let pglite: PGlite;
let found: Found[];

beforeAll(async () => {
  if (secondPass) return;
  pglite = await PGlite.create();
  await pglite.exec(`SET TimeZone = 'UTC'`);
  // Only what migrate() uses of a Database (the PGlite path: exec, query, transaction).
  const db = {
    driver: 'pglite',
    schema: 'public',
    query: async (text: string, params?: unknown[]) => (await pglite.query(text, params)).rows,
    exec: async (text: string) => void (await pglite.exec(text)),
    transaction: (fn: (tx: unknown) => Promise<unknown>) =>
      pglite.transaction((tx) =>
        fn({
          query: async (text: string, params?: unknown[]) => (await tx.query(text, params)).rows,
          exec: async (text: string) => void (await tx.exec(text)),
        }),
      ),
  } as unknown as Database;
  await migrate(db);
  found = findQueries();
  for (const f of found) {
    if (!f.texts) continue;
    f.described = [];
    for (const text of f.texts.texts) {
      try {
        f.described.push({ fields: (await pglite.describeQuery(text)).resultFields });
      } catch (e) {
        f.described.push({ error: (e as Error).message });
      }
    }
    // A stand-in left out parameters the statement needs typed: not known after all.
    if (
      f.texts.standIns &&
      f.described.some((d) => 'error' in d && /could not determine data type of parameter/.test(d.error))
    ) {
      f.texts = null;
      delete f.described;
    }
  }
}, 180_000);
afterAll(() => pglite?.close());

describe.skipIf(secondPass)('row types beside raw SQL agree with the migrated database', () => {
  it('finds the row-typed queries and knows the text of most of them', () => {
    expect(found.length).toBeGreaterThan(100);
    const known = found.filter((f) => f.texts !== null).length;
    expect(known / found.length).toBeGreaterThanOrEqual(MIN_CHECKED_SHARE);
  });

  it('says why each query it cannot know is built at run time', () => {
    const unknownFiles = new Set(
      found.filter((f) => f.texts === null).map((f) => f.where.replace(/:\d+$/, '')),
    );
    expect([...unknownFiles].filter((f) => !(f in NOT_KNOWN)).sort()).toEqual([]);
    expect(
      Object.keys(NOT_KNOWN)
        .filter((f) => !unknownFiles.has(f))
        .sort(),
    ).toEqual([]);
  });

  it('every column a row type names is returned by its query, with a fitting type', async () => {
    const problems: string[] = [];
    for (const f of found) {
      for (const d of f.described ?? []) {
        if ('error' in d) {
          problems.push(`${f.where}: the database rejects the query: ${d.error}`);
          continue;
        }
        if (f.props) problems.push(...columnProblems(f.where, f.props, d.fields));
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

/** What does not fit between a row type and the columns the database says its statement returns. */
function columnProblems(
  where: string,
  props: NonNullable<Found['props']>,
  fields: { name: string; dataTypeID: number }[],
): string[] {
  const problems: string[] = [];
  const byName = new Map(fields.map((c) => [c.name, c.dataTypeID]));
  for (const p of props) {
    const oid = byName.get(p.name);
    if (oid === undefined) {
      if (!p.optional) problems.push(`${where}: no column "${p.name}" in the result`);
      continue;
    }
    const fits = FITS[oid];
    if (!fits) {
      problems.push(`${where}: column "${p.name}" has a type (oid ${oid}) this test does not know`);
      continue;
    }
    if (p.kinds.has('unknown')) continue;
    // A union (`Date | string`) is the code accepting more than one shape; one must fit.
    if (![...p.kinds].some((k) => fits.includes(k)))
      problems.push(
        `${where}: column "${p.name}" (oid ${oid}) is typed ${[...p.kinds].join(' | ')} in the code`,
      );
  }
  return problems;
}
