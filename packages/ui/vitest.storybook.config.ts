import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig, type Plugin } from 'vitest/config';
import { modeNames } from '../../.storybook/modes.ts';
import { chromiumArgs, chromiumPath } from './visual/chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const configDir = join(here, '../../.storybook');

// The addon roots Vite at the parent of .storybook/ (the repo root), but Storybook is installed in
// this workspace's node_modules; re-root the project here so its bare imports resolve.
const rootHere: Plugin = {
  name: 'fleet:storybook-root',
  enforce: 'post',
  config(config) {
    const previousRoot = config.root ?? here;
    const rebase = (patterns?: string[]) =>
      patterns?.map((p) => relative(here, resolve(previousRoot, p)).split(sep).join('/'));
    config.root = here;
    const test = (config as { test?: { include?: string[]; exclude?: string[] } }).test;
    if (test) {
      test.include = rebase(test.include);
      test.exclude = rebase(test.exclude);
    }
  },
};

const prebundle = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  '@radix-ui/react-dialog',
  '@radix-ui/react-tabs',
  '@radix-ui/react-direction',
  '@radix-ui/react-popover',
  '@radix-ui/react-checkbox',
  '@radix-ui/react-switch',
  '@radix-ui/react-radio-group',
  '@radix-ui/react-select',
  '@radix-ui/react-slot',
  '@radix-ui/react-visually-hidden',
  'class-variance-authority',
  'clsx',
  'tailwind-merge',
  'dayjs',
  'zod',
  'leaflet',
  'uplot',
  '@tanstack/react-table',
  '@tanstack/react-virtual',
];

/**
 * Every story as a test in real Chromium: render, `play`, then axe (`a11y.test: 'error'` in
 * preview.tsx). One Vitest project per review mode (light-en, dark-en, light-ar, dark-ar), so
 * behaviour and accessibility (contrast in dark, RTL keyboard order) are checked in all four.
 * Select one with `--project storybook:dark-ar`.
 */
export default defineConfig({
  test: {
    projects: modeNames.map((mode) => ({
      extends: true,
      // Pre-bundle everything stories import, so Vite never re-optimises (and reloads) mid-run.
      optimizeDeps: { include: prebundle },
      plugins: [storybookTest({ configDir, initialGlobals: { mode } }), rootHere],
      test: {
        name: `storybook:${mode}`,
        browser: {
          enabled: true,
          headless: true,
          // `as never`: the repo holds two vitest copies (root 4.1.11, this workspace 4.1.12), whose
          // provider types are nominally different though identical at runtime.
          provider: playwright({
            launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
          }) as never,
          instances: [{ browser: 'chromium' as const }],
        },
      },
    })),
    fileParallelism: false,
    maxWorkers: 1,
  },
});
