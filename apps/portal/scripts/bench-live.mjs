#!/usr/bin/env node
// Live map benchmark in Chromium: 1,000 vehicles painted after navigation, then every vehicle moving
// once per second over the WebSocket while frames are counted. The API and the socket are the
// contract-shaped stand-ins of fake-api.mjs (the figures measure the portal, not the server).
// Needs a build (dist/); run through `npm run bench:portal`.
import { spawn } from 'node:child_process';
import { chromium } from 'playwright';
import { COMPANY_UUID, USER_UUID } from './fake-api.mjs';
import { startFakeServer } from './fake-server.mjs';

const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const port = 14000 + Math.floor(Math.random() * 900);
const apiPort = port + 1000;
const root = new URL('..', import.meta.url).pathname;
const api = await startFakeServer({ port: apiPort, vehicles: VEHICLES });

const outDir = process.env.BENCH_OUT_DIR ? ['--outDir', process.env.BENCH_OUT_DIR] : [];
const preview = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort', ...outDir], {
  cwd: root,
  stdio: 'ignore',
  // Its own process group, so stopping it also stops the node process npx starts.
  detached: true,
  env: { ...process.env, FLEET_API: `http://127.0.0.1:${apiPort}` },
});
const stop = () => {
  try {
    process.kill(-preview.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  api.close();
};
process.on('exit', stop);

async function waitForServer() {
  for (let i = 0; i < 100; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/login`);
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('vite preview did not start');
}

await waitForServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
  process.on('exit', () => pageErrors.length && console.error('page errors:', pageErrors.slice(0, 5)));
  await page.addInitScript(
    ([company, user]) => {
      localStorage.setItem('access_token', 'bench-token');
      localStorage.setItem('transport_uuid', company);
      localStorage.setItem('user_uuid', user);
    },
    [COMPANY_UUID, USER_UUID],
  );
  // Map tiles are not reachable offline; answer them with nothing.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 204, body: '' }));
  // Warm the app shell (first load compiles nothing in preview, but fetches chunks), then measure.
  await page.goto(`http://127.0.0.1:${port}/dashboard`);
  await page.waitForSelector('html[data-page-ready="true"]', { timeout: 30_000 });
  const started = Date.now();
  let cdp = null;
  if (process.env.BENCH_PROFILE) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // Client-side navigation from the side menu, as a user does.
  await page.locator('aside a[href="/dashboard/live"]').click();
  await page.waitForSelector('[data-testid="live-map"] canvas', { timeout: 30_000 }).catch(async (e) => {
    await page.screenshot({ path: '/tmp/bench-live.png' });
    console.error(
      await page
        .locator('[data-testid="live-map"]')
        .innerHTML()
        .catch(() => 'no live-map'),
    );
    throw e;
  });
  await page.waitForFunction(() => document.documentElement.dataset.pageReady === 'true');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const paintMs = Date.now() - started;
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
    });
    console.log(
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([k, v]) => `${Math.round(v / 1000)}ms ${k}`)
        .join('\n'),
    );
  }

  const frames = await page.evaluate(
    (seconds) =>
      new Promise((resolve) => {
        let count = 0;
        let longTasks = 0;
        let worst = 0;
        let last = performance.now();
        const observer = new PerformanceObserver((list) => {
          longTasks += list.getEntries().length;
        });
        try {
          observer.observe({ entryTypes: ['longtask'] });
        } catch {
          /* not supported */
        }
        const end = last + seconds * 1000;
        const step = (t) => {
          count += 1;
          worst = Math.max(worst, t - last);
          last = t;
          if (t < end) requestAnimationFrame(step);
          else {
            observer.disconnect();
            resolve({ fps: count / seconds, worstFrameMs: worst, longTasks });
          }
        };
        requestAnimationFrame(step);
      }),
    SECONDS,
  );
  const sent = api.sent();
  // The "all" tab's count (the kit's StatusTabs, first tab).
  const counts = await page.locator('[data-slot="status-tab-count"]').first().innerText();
  const fps = Math.round(frames.fps * 10) / 10;
  console.log(
    `vehicles: ${VEHICLES} (tab count ${counts}), map painted ${paintMs} ms after navigation (goal < 2000 ms)`,
  );
  console.log(
    `updates: ${sent} socket messages over the run; ${fps} fps while every vehicle moved each second (goal 60), worst frame ${Math.round(frames.worstFrameMs)} ms, long tasks ${frames.longTasks}`,
  );
  console.log(
    JSON.stringify({
      bench: 'portal-live',
      vehicles: VEHICLES,
      paint_ms: paintMs,
      fps,
      worst_frame_ms: Math.round(frames.worstFrameMs),
      long_tasks: frames.longTasks,
      goal: { paint_ms_max: 2000, fps_min: 60 },
      // 60 fps is the display's own rate here, so the measured rate can only fall short of it: within
      // 2 % (about one dropped frame a second) counts as holding it.
      pass: paintMs < 2000 && fps >= 60 * 0.98,
    }),
  );
} finally {
  await browser.close();
  stop();
}
