import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { vanillaExtractPlugin } from '@vanilla-extract/esbuild-plugin';
import { defineConfig } from 'tsup';

/**
 * ESM + .d.ts for "." and "./tokens"; vanilla-extract styles are extracted at build time into one
 * CSS file (dist/styles.css, with the bundled @fontsource faces), never shipped as per-module
 * .vanilla.js. dist/tailwind.css is the @theme mapping for consumers' Tailwind builds.
 */
export default defineConfig({
  entry: { index: 'src/index.ts', 'tokens/index': 'src/tokens/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  splitting: true,
  treeshake: true,
  external: ['react', 'react-dom', /^@radix-ui\//, /^@fleet\//, 'leaflet', 'uplot', /^@tanstack\//],
  esbuildPlugins: [vanillaExtractPlugin({ identifiers: 'short' })],
  loader: { '.woff2': 'file', '.woff': 'file' },
  async onSuccess() {
    // esbuild writes one CSS file per entry; the tokens entry's CSS is a subset of index.css.
    if (existsSync('dist/index.css')) renameSync('dist/index.css', 'dist/styles.css');
    const fonts = readFileSync('src/styles.css', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('@import'))
      .join('\n');
    const styles = readFileSync('dist/styles.css', 'utf8');
    writeFileSync('dist/styles.css', `${fonts}\n${styles}`);
    copyFileSync('src/tailwind.css', 'dist/tailwind.css');
  },
});
