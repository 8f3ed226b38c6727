#!/usr/bin/env node
// The one test command (README's second command, run by .ci/run).
// Steps run in order; any failure fails the whole run, but later steps still run so one
// report shows everything that is broken.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);

function run(name, cmd, args, env = {}) {
  if (only.length && !only.some((o) => name.includes(o))) return { name, skipped: true };
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = Math.round((Date.now() - started) / 1000);
  const ok = r.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds}s`);
  return { name, ok, seconds };
}

/** Workspaces that define a given npm script, in dependency-friendly order. */
function workspacesWith(script) {
  const out = [];
  for (const group of ['packages', 'apps']) {
    for (const dir of readdirSync(join(root, group))) {
      const file = join(root, group, dir, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.scripts?.[script]) out.push(pkg.name);
    }
  }
  return out;
}

const results = [];
results.push(run('chromium', 'bash', ['scripts/ensure-chromium.sh']));
results.push(run('typecheck', 'npx', ['turbo', 'run', 'typecheck', '--concurrency=2', '--continue']));
results.push(run('lint', 'npx', ['turbo', 'run', 'lint', '--concurrency=2', '--continue']));
results.push(run('unit', 'npx', ['turbo', 'run', 'test', '--concurrency=1', '--continue']));
// Browser, end-to-end and other long suites: each workspace exposes them as `test:browser`.
for (const ws of workspacesWith('test:browser')) {
  results.push(run(`browser ${ws}`, 'npm', ['run', 'test:browser', '-w', ws]));
}

const ran = results.filter((r) => !r.skipped);
const failed = ran.filter((r) => !r.ok);
console.log('\n=== summary');
for (const r of ran) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${r.seconds}s)`);
console.log(`steps: ${ran.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
