#!/usr/bin/env node
// The one test command (README's second command, run by .ci/run).
// Steps run in order; any failure fails the whole run, but later steps still run so one
// report shows everything that is broken.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);

/** Lines of a failed step worth repeating at the very end (CI often shows only the tail of the log). */
const telling =
  /(\u2718|\u00d7|✘|×|FAIL|Error:|Expected|Received|expect\(|Timeout|timed out|failed|AssertionError|›.*›)/;
/**
 * Lines of passing tests (after turbo's `@fleet/x:test:` prefix), which `telling` would otherwise keep:
 * Playwright's `› file › title` lines, and titles that say "failed" or "Timeout".
 */
const passing = /^(\S+:\S+:)?\s*(✓|ok\s+\d)/;
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g;

/** Runs one step, its output passed through as it comes; keeps the last lines to quote on failure. */
async function run(name, cmd, args, env = {}) {
  if (only.length && !only.some((o) => name.includes(o))) return { name, skipped: true };
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const tail = [];
  let partial = '';
  const keep = (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      tail.push(line.replace(ansi, ''));
      if (tail.length > 3000) tail.splice(0, tail.length - 3000);
    }
  };
  const code = await new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stdout.on('data', (c) => {
      process.stdout.write(c);
      keep(c);
    });
    child.stderr.on('data', (c) => {
      process.stderr.write(c);
      keep(c);
    });
    child.on('close', (status) => resolve(status));
    child.on('error', () => resolve(1));
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const ok = code === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : 'FAILED'} in ${seconds}s`);
  const why = ok
    ? []
    : tail
        .filter((line) => telling.test(line) && !passing.test(line) && !/npm (warn|error)/.test(line))
        .slice(-40);
  return { name, ok, seconds, why };
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
results.push(await run('chromium', 'bash', ['scripts/ensure-chromium.sh']));
results.push(await run('typecheck', 'npx', ['turbo', 'run', 'typecheck', '--concurrency=2', '--continue']));
results.push(await run('lint', 'npx', ['turbo', 'run', 'lint', '--concurrency=2', '--continue']));
results.push(await run('unit', 'npx', ['turbo', 'run', 'test', '--concurrency=1', '--continue']));
// Browser, end-to-end and other long suites: each workspace exposes them as `test:browser`.
for (const ws of workspacesWith('test:browser')) {
  results.push(await run(`browser ${ws}`, 'npm', ['run', 'test:browser', '-w', ws]));
}

const ran = results.filter((r) => !r.skipped);
const failed = ran.filter((r) => !r.ok);
// What failed, quoted from each failed step's own output, just above the summary: the end of the log
// is often all a CI page shows.
for (const r of failed) {
  if (!r.why?.length) continue;
  console.log(`\n--- ${r.name}: what failed (quoted from its output above)`);
  for (const line of [...new Set(r.why.map((l) => l.trim().slice(0, 200)))].slice(-10))
    console.log(`  ${line}`);
}
console.log('\n=== summary');
for (const r of ran) console.log(`${r.ok ? 'ok    ' : 'FAILED'} ${r.name} (${r.seconds}s)`);
console.log(`steps: ${ran.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
