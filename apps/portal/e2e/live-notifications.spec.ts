import { expect, test } from '@playwright/test';
import { pageReady, signIn } from './helpers';

/**
 * A notification made by the server from a simulated device's report (overspeed, ignition, emergency
 * ... as the demo's alert rules say) reaches the open page over the WebSocket: a toast with its title,
 * the unread badge goes up, and the list shows it without a reload. Nothing is injected by the test:
 * the simulator drives the demo fleet and the pipeline raises the alerts, so the wait is generous.
 */
test('a live alert from a simulated device arrives as a toast and bumps the unread badge', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto('/dashboard/notifications');
  await pageReady(page);
  const badge = page.getByTestId('notification-badge');
  const unreadBefore = (await badge.count()) > 0 ? Number((await badge.innerText()).replace(/\D/g, '')) : 0;

  // Only the socket's notification handler shows a warning toast on this page.
  const toast = page.locator('[data-slot="toast"][data-variant="warning"]').first();
  await expect(toast).toBeVisible({ timeout: 150_000 });
  const title = (await toast.locator('[data-slot="toast-message"]').innerText()).trim();
  expect(title.length).toBeGreaterThan(0);

  if (unreadBefore < 99) {
    await expect
      .poll(async () => Number((await badge.innerText()).replace(/\D/g, '')))
      .toBeGreaterThan(unreadBefore);
  }
  // The list was refreshed by the same event: the new notification is there, unread.
  await expect(page.getByTestId('notification-item').filter({ hasText: title }).first()).toBeVisible();
});
