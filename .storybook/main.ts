import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';
import tailwindcss from '@tailwindcss/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

const here = dirname(fileURLToPath(import.meta.url));
// Storybook's packages are installed in the ui workspace; resolve them from there so this root
// config works whatever the hoisting.
const uiRequire = createRequire(join(here, '../packages/ui/package.json'));
const pkgDir = (name: string) => dirname(uiRequire.resolve(`${name}/package.json`));

const config: StorybookConfig = {
  stories: ['../packages/ui/src/**/*.stories.tsx'],
  addons: [pkgDir('@storybook/addon-a11y'), pkgDir('@storybook/addon-vitest')],
  framework: { name: pkgDir('@storybook/react-vite') as '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  async viteFinal(viteConfig) {
    const { mergeConfig } = await import('vite');
    return mergeConfig(viteConfig, {
      plugins: [tailwindcss(), vanillaExtractPlugin()],
      resolve: { conditions: ['source', 'module', 'browser', 'import', 'default'] },
    });
  },
};

export default config;
