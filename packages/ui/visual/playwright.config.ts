import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.ts';

/** The static Storybook's port (VISUAL_PORT: a machine shared by several runs gives each its own). */
const port = Number(process.env.VISUAL_PORT ?? 6107);

/**
 * Visual regression over the static Storybook: one generated spec (stories.spec.ts) covers every
 * story in every mode. Baselines are Linux PNGs committed under visual/baselines/linux.
 * Update them deliberately with `npm run test:visual -- --update-snapshots`.
 */
export default defineConfig({
  testDir: '.',
  // The stories, and the font audit they run tested against itself (font-audit.spec.ts).
  testMatch: ['stories.spec.ts', 'font-audit.spec.ts'],
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  outputDir: '../test-results/visual',
  snapshotPathTemplate: '{testDir}/baselines/{platform}/{arg}{ext}',
  expect: {
    toHaveScreenshot: {
      animations: 'disabled',
      caret: 'hide',
      threshold: 0.05,
      maxDiffPixels: 8,
      scale: 'css',
    },
  },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 960, height: 640 },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    timezoneId: 'UTC',
    locale: 'en-US',
  },
  webServer: {
    command: `node visual/serve.mjs storybook-static ${port}`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/index.json`,
    reuseExistingServer: false,
    timeout: 20_000,
  },
});
