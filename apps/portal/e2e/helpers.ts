import { expect, type Page } from '@playwright/test';

export const DEMO_EMAIL = process.env.FLEET_DEMO_EMAIL ?? 'demo@fleet.test';
export const DEMO_PASSWORD = process.env.FLEET_DEMO_PASSWORD ?? 'demo12345';

/** Waits for the page-ready flag the portal sets once a page shows its first data. */
export async function pageReady(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true');
}

const handled = new WeakSet<Page>();

/**
 * The simulator presses a bus's emergency button now and then, and the portal then opens the spec's
 * emergency alert dialog over whatever page is open, as it should. A test in the middle of something
 * else acknowledges it like a user would, whenever it stands in the way of the next step.
 */
async function acknowledgeEmergencies(page: Page): Promise<void> {
  if (handled.has(page)) return;
  handled.add(page);
  await page.addLocatorHandler(page.getByTestId('emergency-acknowledge'), async (button) => {
    await button.click();
  });
}

/**
 * Signs in with the demo account and picks "Demo Transport" when the picker opens (the demo seeds a
 * second company; names are shown in the UI's language, so the Arabic name is matched too).
 */
export async function signIn(page: Page, password = DEMO_PASSWORD): Promise<void> {
  await acknowledgeEmergencies(page);
  await page.goto('/login');
  await page.locator('#login-identifier').fill(DEMO_EMAIL);
  await page.locator('#login-password').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/(dashboard|select-transport)/);
  if (page.url().includes('/select-transport')) {
    await page
      .getByTestId('company-option')
      .filter({ hasText: /Demo Transport|شركة النقل التجريبية/ })
      .first()
      .click();
    await page.locator('main button').last().click();
    await page.waitForURL(/\/dashboard/);
  }
  await pageReady(page);
}

export async function switchLanguage(page: Page, language: 'en-US' | 'ar'): Promise<void> {
  await page.getByTestId('language-switch').first().selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
}

/** A unique suffix per run so created records never collide. */
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5).toUpperCase()}`;
}

/**
 * Chooses a day ('YYYY-MM-DD') in the kit's DateField with the control `#id`: opens its calendar,
 * moves month by month towards the day and clicks it, as a user does.
 */
export async function chooseDay(page: Page, id: string, day: string): Promise<void> {
  await page.locator(`#${id}`).click();
  const calendar = page.locator('[data-slot="date-field-calendar"]');
  await expect(calendar).toBeVisible();
  for (let step = 0; step < 36; step++) {
    const cell = calendar.locator(`button[data-day="${day}"]`);
    if ((await cell.count()) > 0) {
      await cell.click();
      break;
    }
    const shown = (await calendar.locator('button[tabindex="0"]').getAttribute('data-day')) ?? '';
    await calendar
      .locator(day < shown ? '[data-slot="date-field-previous"]' : '[data-slot="date-field-next"]')
      .click();
  }
  await expect(calendar).toBeHidden();
  await expect(page.locator(`#${id}`)).toHaveAttribute('data-value', day);
}
