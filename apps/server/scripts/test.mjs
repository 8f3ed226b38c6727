#!/usr/bin/env node
// The server's test command: the suite on embedded PGlite, then, when DATABASE_URL is set, the
// same suite again on that PostgreSQL (each test file in a fresh schema, dropped afterwards).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (label, env) => {
  console.log(`\n=== @fleet/server tests on ${label}`);
  const r = spawnSync('npx', ['vitest', 'run', ...args], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return r.status ?? 1;
};
let status = run('PGlite', { FLEET_TEST_DB: 'pglite' });
if (process.env.DATABASE_URL) status = run('PostgreSQL', { FLEET_TEST_DB: 'pg' }) || status;
process.exit(status);
