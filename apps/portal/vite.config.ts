import { defineConfig, defaultClientConditions, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';

// The API server (apps/server) listens on 8080; in dev the portal proxies /v1 and /ws to it so that
// the browser always talks to the same origin (the production build is served by that server).
const api = process.env.FLEET_API ?? 'http://127.0.0.1:8080';
const proxy = {
  '/v1': { target: api, changeOrigin: true },
  '/ws': { target: api, ws: true, changeOrigin: true },
};

/**
 * @fleet/core declares `"sideEffects": false`, but its format/dayjs.ts registers the utc/timezone
 * plugins by side effect; the bundler then skips that module and `dayjs().tz` is missing in the build.
 * Until core lists the file in `sideEffects`, mark it as having side effects here.
 */
const coreDayjsSideEffects: Plugin = {
  name: 'fleet-core-dayjs-side-effects',
  transform(code, id) {
    if (/fleet-core\/src\/format\/dayjs\.ts$/.test(id)) return { code, moduleSideEffects: true };
    return null;
  },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), vanillaExtractPlugin(), coreDayjsSideEffects],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  server: { host: '127.0.0.1', port: 5173, proxy },
  // `vite preview` serves the production build with the same proxy (end-to-end tests, benchmark).
  preview: { host: '127.0.0.1', port: 4173, proxy },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
