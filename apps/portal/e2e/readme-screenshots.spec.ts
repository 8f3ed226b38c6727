import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pageReady, signIn, switchLanguage } from './helpers';

/**
 * Generator, not a check: the README's screenshots of the live console and the vehicle overview in
 * English and Arabic (docs/screenshots/*.png), taken from the real server and the production build like
 * every e2e spec. It runs only when asked: `npm run screenshots:readme -w @fleet/portal` (sets
 * README_SHOTS=1); a plain e2e run skips it so the committed images only change on purpose.
 */
test.skip(
  !process.env.README_SHOTS,
  'README screenshots are generated on request (npm run screenshots:readme)',
);
test.use({ viewport: { width: 1440, height: 900 } });

const out = (name: string) => resolve(import.meta.dirname, '../../../docs/screenshots', `${name}.png`);

async function settle(page: Page) {
  await pageReady(page);
  // Tiles and the canvas layer draw after the data; give them a moment, then hide the caret.
  await page.waitForTimeout(1500);
}

test('live console and vehicle overview, English and Arabic', async ({ page }) => {
  await signIn(page);
  for (const language of ['en-US', 'ar'] as const) {
    const suffix = language === 'ar' ? 'ar' : 'en';
    await page.goto('/dashboard/live');
    await pageReady(page);
    await switchLanguage(page, language);
    const list = page.locator('[data-slot="fleet-list-plate"]');
    await expect(list.first()).toBeVisible();
    await list.first().click();
    await settle(page);
    await page.screenshot({ path: out(`live-console-${suffix}`), animations: 'disabled', caret: 'hide' });

    // The overview of the selected vehicle, its documents tab open.
    const uuid = new URL(page.url()).searchParams.get('vehicle');
    expect(uuid).toBeTruthy();
    await page.goto(`/dashboard/vehicles/details/${uuid}?tab=documents`);
    await settle(page);
    await expect(page.getByTestId('vehicle-live-card')).toBeVisible();
    await page.screenshot({
      path: out(`vehicle-overview-${suffix}`),
      fullPage: true,
      animations: 'disabled',
      caret: 'hide',
    });
    await switchLanguage(page, 'en-US');
  }
});
