import { expect, test } from '@playwright/test';
import { pageReady, signIn } from './helpers';

test('unknown paths show the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('404')).toBeVisible();
  await signIn(page);
  await page.goto('/dashboard/no-such-page');
  await expect(page.getByText('404')).toBeVisible();
});

test('signed-out users are sent to login; a 401 logs out', async ({ page }) => {
  await page.goto('/dashboard/vehicles');
  await expect(page).toHaveURL(/\/login$/);
  await page.evaluate(() => {
    window.localStorage.setItem('access_token', 'forged-token-forged-token');
    window.localStorage.setItem('transport_uuid', '00000000-0000-4000-8000-000000000000');
  });
  await page.goto('/dashboard/vehicles');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
});

test('on small screens create and details routes fall back to the list', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/dashboard/vehicles/create');
  await expect(page).toHaveURL(/\/dashboard\/vehicles$/);
  await page.goto('/dashboard/drivers/details/00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/dashboard\/drivers$/);
  await page.goto('/menu');
  await expect(page.getByRole('link', { name: 'Vehicles' })).toBeVisible();
});

test('server unreachable: countdown, then back by itself when the API answers', async ({ page }) => {
  await signIn(page);
  // The API is made unreachable for this page (every /v1 request fails at the network level) ...
  await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
  await page.goto('/dashboard/drivers');
  await expect(page).toHaveURL(/\/server-unreachable/);
  await expect(page.getByText("Our servers are currently unreachable. We're working on it!")).toBeVisible();
  await expect(page.getByTestId('retry-countdown')).toContainText(
    /Automatically retrying in \d+ seconds\.\.\./,
  );
  // ... and reachable again: the page leaves by itself at the next retry.
  await page.unroute('**/v1/**');
  await expect(page).toHaveURL(/\/dashboard\/drivers/, { timeout: 20_000 });
  await pageReady(page);
});

test('page-ready resets on navigation and the page scrolls to the top', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/vehicles');
  await pageReady(page);
  await page.evaluate(() => window.scrollTo(0, 500));
  await page.getByRole('link', { name: 'Drivers' }).first().click();
  // The old page's flag is still "true" until the new route commits: wait for the drivers page itself.
  await expect(page).toHaveURL(/\/dashboard\/drivers$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Drivers');
  await pageReady(page);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('with the service worker active, deep links and reloads still open the page', async ({ page }) => {
  await signIn(page);
  // The installed app's worker takes over navigations once it is active (it claims open pages).
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 })
    .toBe(true);
  await page.goto('/dashboard/drivers');
  await pageReady(page);
  await page.reload();
  await pageReady(page);
  await expect(page).toHaveURL(/\/dashboard\/drivers$/);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
});
