import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// End-to-end journey against the REAL server (apps/server, embedded PGlite, demo seed, simulated
// devices) serving the production build of the portal from its own origin, exactly as `npm start`
// does: same headers, content security policy and service worker as users get. A fresh data folder
// per run keeps the demo (and its password) pristine.
const apiPort = Number(process.env.E2E_API_PORT ?? 18080);
/** The Teltonika listener, fixed so a spec can drive a device over the real gateway (alert-rules.spec.ts). */
export const teltonikaPort = Number(process.env.E2E_TELTONIKA_PORT ?? apiPort + 1);
/**
 * Where the server finds its Nominatim-compatible geocoder (GEOCODER_URL): a stand-in on loopback that
 * addresses.spec.ts runs itself. For every other spec nothing listens there, which the server handles
 * as a geocoder that is down: addresses are empty and the coordinates are shown, as without one.
 */
export const geocoderPort = Number(process.env.E2E_GEOCODER_PORT ?? apiPort + 2);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'fleet-e2e-'));
// The build to serve: `vite build --outDir <dir>` with E2E_OUT_DIR, so a run is not broken half-way by
// another build replacing dist/ (lazy chunks are content-hashed: the old names would 404).
const portalDist = resolve(process.env.E2E_OUT_DIR ?? join(dirname(fileURLToPath(import.meta.url)), 'dist'));

export default defineConfig({
  testDir: './e2e',
  timeout: 90_000,
  expect: {
    timeout: 15_000,
    toHaveScreenshot: { maxDiffPixelRatio: 0.02, threshold: 0.1, animations: 'disabled' },
  },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${apiPort}`,
    trace: 'retain-on-failure',
    locale: 'en-US',
    timezoneId: 'Asia/Dubai',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 860 } } },
  ],
  webServer: [
    {
      command: 'npm run start -w @fleet/server',
      cwd: '../..',
      url: `http://127.0.0.1:${apiPort}/login`,
      timeout: 180_000,
      reuseExistingServer: false,
      env: {
        PORT: String(apiPort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PORTAL_DIST: portalDist,
        // The embedded database and bus, whatever the shell has (CI exports DATABASE_URL, NATS_URL and
        // MQTT_URL for the server suite): empty means unset, so every run starts from a fresh demo
        // instead of sharing, and changing, one PostgreSQL schema between runs.
        DATABASE_URL: '',
        NATS_URL: '',
        MQTT_URL: '',
        SIMULATOR: 'on',
        GEOCODER_URL: `http://127.0.0.1:${geocoderPort}`,
        // The stand-in answers at once: no need to space requests as a public Nominatim requires.
        GEOCODER_RATE_PER_SEC: '50',
        // No month of demo history (seed/history.ts): it would add up to minutes to every run's start.
        FLEET_DEMO_HISTORY_DAYS: '0',
        // The device listeners take free ports so the run never clashes with another server; Teltonika's
        // is known (apiPort + 1 unless E2E_TELTONIKA_PORT says) so a spec can connect a device to it.
        GATEWAY_TELTONIKA_PORT: String(teltonikaPort),
        GATEWAY_RUPTELA_PORT: '0',
        GATEWAY_GOSAFE_PORT: '0',
        GATEWAY_ISTARTEK_PORT: '0',
        GATEWAY_OSMAND_PORT: '0',
      },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
