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
 * Queries whose text is assembled at run time (filters, sort columns) cannot be described without
 * running the code; they are counted, and their share is held to the floor below so that moving
 * queries out of the checked set does not go unnoticed.
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

/** At least this share of the row-typed queries must have a text known at compile time. */
const MIN_CHECKED_SHARE = 0.6;

interface Found {
  where: string;
  sql: string | null;
  props: { name: string; optional: boolean; kinds: Set<Kind> }[] | null;
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

/** The value of a string expression known at compile time, or null. */
function constantText(node: ts.Expression, checker: ts.TypeChecker, depth = 0): string | null {
  if (depth > 20) return null;
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
    return constantText(node.expression, checker, depth + 1);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const part = constantText(span.expression, checker, depth + 1);
      if (part === null) return null;
      text += part + span.literal.text;
    }
    return text;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const a = constantText(node.left, checker, depth + 1);
    const b = a === null ? null : constantText(node.right, checker, depth + 1);
    return a === null || b === null ? null : a + b;
  }
  const type = checker.getTypeAtLocation(node);
  if (type.isStringLiteral()) return type.value;
  if (type.isNumberLiteral()) return String(type.value);
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
      return constantText(decl.initializer, checker, depth + 1);
    if (decl && ts.isPropertyAssignment(decl)) return constantText(decl.initializer, checker, depth + 1);
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
        found.push({ where, sql: constantText(node.arguments[0]!, checker), props });
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
}, 120_000);
afterAll(() => pglite?.close());

describe.skipIf(secondPass)('row types beside raw SQL agree with the migrated database', () => {
  it('finds the row-typed queries and knows the text of most of them', () => {
    expect(found.length).toBeGreaterThan(100);
    const known = found.filter((f) => f.sql !== null).length;
    expect(known / found.length).toBeGreaterThanOrEqual(MIN_CHECKED_SHARE);
  });

  it('every column a row type names is returned by its query, with a fitting type', async () => {
    const problems: string[] = [];
    for (const f of found) {
      if (f.sql === null) continue;
      let fields: { name: string; dataTypeID: number }[];
      try {
        fields = (await pglite.describeQuery(f.sql)).resultFields;
      } catch (e) {
        problems.push(`${f.where}: the database rejects the query: ${(e as Error).message}`);
        continue;
      }
      if (!f.props) continue;
      const byName = new Map(fields.map((c) => [c.name, c.dataTypeID]));
      for (const p of f.props) {
        const oid = byName.get(p.name);
        if (oid === undefined) {
          if (!p.optional) problems.push(`${f.where}: no column "${p.name}" in the result`);
          continue;
        }
        const fits = FITS[oid];
        if (!fits) {
          problems.push(`${f.where}: column "${p.name}" has a type (oid ${oid}) this test does not know`);
          continue;
        }
        if (p.kinds.has('unknown')) continue;
        // A union (`Date | string`) is the code accepting more than one shape; one must fit.
        if (![...p.kinds].some((k) => fits.includes(k)))
          problems.push(
            `${f.where}: column "${p.name}" (oid ${oid}) is typed ${[...p.kinds].join(' | ')} in the code`,
          );
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
