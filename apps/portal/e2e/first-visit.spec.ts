import { expect, test } from '@playwright/test';

/**
 * A first visit in Chromium through the real server and the production build: the portal's files are
 * sent compressed (brotli, written once at build time) and the sign-in page's scripts weigh under
 * 250 KB on the wire (issue 22). The server suite checks the same through inject when the build
 * exists; this runs where the build always exists, so it cannot be skipped.
 */
test('a first visit transfers under 250 KB of script, brotli-compressed', async ({ browser }) => {
  const context = await browser.newContext(); // no cache, no service worker yet
  const page = await context.newPage();
  const scripts: { url: string; response: Promise<number> }[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    scripts.push({
      url: request.url(),
      response: request.sizes().then((s) => s.responseBodySize),
    });
  });
  const encodings = new Map<string, string | undefined>();
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script')
      encodings.set(response.url(), (await response.allHeaders())['content-encoding']);
  });
  await page.goto('/login');
  await expect(page.locator('#login-identifier')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  const sizes = await Promise.all(scripts.map((s) => s.response));
  const total = sizes.reduce((a, b) => a + b, 0);
  console.log(`first visit: ${scripts.length} scripts, ${Math.round(total / 1024)} KB on the wire`);
  expect(total).toBeLessThan(250 * 1024);
  // Every script the build compressed (all but files under 1 KB, see scripts/compress-dist.mjs)
  // arrives as brotli: a plain one of 1 KB or more means the precompressed copy was not used.
  scripts.forEach((s, i) => {
    if (encodings.get(s.url) !== 'br') expect(sizes[i]!, s.url).toBeLessThan(1024);
  });
  expect(scripts.filter((s) => encodings.get(s.url) === 'br').length).toBeGreaterThan(0);
  await context.close();
});
