import { expect, test } from '@playwright/test';
import { pageReady, signIn, switchLanguage } from './helpers';

test.use({ viewport: { width: 1440, height: 900 } });

/** A missing record reads a proper bilingual "record not found" with the way back, not the URL slug. */
test('a missing record is a bilingual not-found page with the way back to its list', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/trips-app/details/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('heading', { name: 'Record not found' })).toBeVisible();
  await expect(page.getByText('trips-app', { exact: false })).toHaveCount(0);
  await switchLanguage(page, 'ar');
  await expect(page.getByRole('heading', { name: 'السجل غير موجود' })).toBeVisible();
  await page.getByTestId('record-not-found-back').click();
  await expect(page).toHaveURL(/\/dashboard\/trips-app$/);
});

/** A notification opens from anywhere on its card, not only from its title. */
test('a notification card opens from its message text', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/notifications');
  await pageReady(page);
  const first = page.getByTestId('notification-item').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  const uuid = (await first.getAttribute('data-uuid'))!;
  // That card by its uuid: the demo's alerts keep arriving at the top of the list, so "the first card"
  // can be another one by the time of the click (coordinates read before the click missed it once).
  const card = page.locator(`[data-testid="notification-item"][data-uuid="${uuid}"]`);
  // A click at the card's middle row, on the message text, where the title link's layer covers the card
  // (Playwright clicks the card itself: the link is inside it, so that layer is no interception).
  const cardBox = (await card.boundingBox())!;
  const textBox = (await card.locator('p').first().boundingBox())!;
  await card.click({
    position: {
      x: textBox.x - cardBox.x + textBox.width / 2,
      y: textBox.y - cardBox.y + textBox.height / 2,
    },
  });
  await expect(page).toHaveURL(new RegExp(`/dashboard/notifications/details/${uuid}`));
});
