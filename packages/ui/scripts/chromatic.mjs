#!/usr/bin/env node
// Publishes the static Storybook to Chromatic, which snapshots the same stories in the four modes
// declared in .storybook/modes.ts (parameters.chromatic.modes in preview.tsx). Needs network and a
// CHROMATIC_PROJECT_TOKEN; without the token it says so and exits 0, so offline runs stay green.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!process.env.CHROMATIC_PROJECT_TOKEN) {
  console.log(
    'chromatic: CHROMATIC_PROJECT_TOKEN is not set; skipping upload (visual checks run offline in test:visual).',
  );
  process.exit(0);
}
if (!existsSync('storybook-static/index.json')) {
  console.error('chromatic: storybook-static missing; run `npm run build-storybook` first.');
  process.exit(1);
}
const r = spawnSync('npx', ['chromatic', '--config-file', 'chromatic.config.json'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
