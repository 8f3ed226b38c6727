#!/usr/bin/env node
// `npm start`: build the portal when it exists, then run the server (embedded PGlite, demo seed,
// simulated devices, portal served from the same origin).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const hasScript = (dir, s) =>
  existsSync(`${root}${dir}/package.json`) &&
  Boolean(JSON.parse(readFileSync(`${root}${dir}/package.json`, 'utf8')).scripts?.[s]);

if (hasScript('apps/portal', 'build') && !process.env.SKIP_PORTAL_BUILD) {
  const r = spawnSync('npm', ['run', 'build', '-w', '@fleet/portal'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The workspace script runs in apps/server: the data folder is the repository's ./data unless set, and a
// relative DATA_DIR means relative to where `npm start` was run.
const env = { ...process.env, DATA_DIR: resolve(process.env.DATA_DIR ?? `${root}data`) };
const server = spawn('npm', ['run', 'start', '-w', '@fleet/server'], { cwd: root, stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
