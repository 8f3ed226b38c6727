import { expect, test, type Page } from '@playwright/test';

/**
 * Screenshots of key pages in English (LTR) and Arabic (RTL), compared with the baselines committed
 * next to this file (`npx playwright test -c playwright.config.ts e2e/screens.spec.ts
 * --update-snapshots` after an intended change). Only pages whose content is fixed are shot whole;
 * the live parts of the shell (the unread badge, which the simulator keeps moving) are masked, live
 * toasts hidden, and the clock is frozen so nothing time-based drifts between runs.
 */
const FROZEN = new Date('2026-11-21T08:00:00+04:00');

for (const language of ['en-US', 'ar'] as const) {
  test.describe(`screens (${language})`, () => {
    test.beforeEach(async ({ page }) => {
      await page.clock.install({ time: FROZEN });
      await page.addInitScript((lang) => window.localStorage.setItem('locale', lang), language);
    });

    const shoot = async (page: Page, name: string) => {
      await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
      await page.evaluate(() => document.fonts.ready);
      // Toasts come and go (live notifications once signed in); they are not part of the page.
      await page.addStyleTag({ content: '[data-slot="toast-viewport"] { visibility: hidden; }' });
      await expect(page).toHaveScreenshot(`${name}-${language}.png`, {
        fullPage: true,
        mask: [page.getByTestId('notification-badge')],
      });
    };

    test('login', async ({ page }) => {
      await page.goto('/login');
      await expect(page.locator('#login-identifier')).toBeVisible();
      await shoot(page, 'login');
    });

    test('not found', async ({ page }) => {
      await page.goto('/no-such-page');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await shoot(page, 'not-found');
    });
  });
}
