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
  const card = page.getByTestId('notification-item').first();
  await expect(card).toBeVisible({ timeout: 60_000 });
  const uuid = await card.getAttribute('data-uuid');
  // A click in the middle of the card, on the message text (the title link covers the whole card).
  const box = (await card.locator('p').first().boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page).toHaveURL(new RegExp(`/dashboard/notifications/details/${uuid}`));
});
