import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, pageReady, signIn, switchLanguage } from './helpers';

test.use({ viewport: { width: 1440, height: 900 } });

/**
 * A command that wipes the device (format SD card) asks first, naming the device and what will be lost,
 * in the user's language; cancelling sends nothing; confirming asks for the password (the step-up every
 * device-wiping command needs, issue 18) and then sends it.
 */
test('format SD card asks for confirmation naming the device and the consequence', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/devices?type=teltonika');
  await pageReady(page);
  await page.locator('main a[href*="/dashboard/devices/details/"]').first().click();
  await pageReady(page);
  const imei = (await page.getByTestId('details-title').innerText()).trim();
  const panel = page.getByTestId('commands-panel');
  await panel.locator('#command-type').selectOption('format_sd');
  await panel.getByTestId('command-send').click();

  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Format SD card on \u2068${imei}\u2069?`);
  await expect(dialog).toContainText('This cannot be undone.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('command-result')).toHaveCount(0);

  await switchLanguage(page, 'ar');
  await panel.getByTestId('command-send').click();
  await expect(page.getByRole('dialog')).toContainText('تهيئة');
  await expect(page.getByRole('dialog')).toContainText('لا يمكن التراجع عن ذلك');
  await page.getByTestId('command-confirm').click();
  // The step-up: nothing is sent until the password is verified.
  const verify = page.getByRole('dialog');
  await expect(verify.locator('input[type="password"]')).toBeVisible();
  await expect(page.getByTestId('command-result')).toHaveCount(0);
  await verify.locator('input[type="password"]').fill(DEMO_PASSWORD);
  await verify.locator('button[type="submit"]').click();
  await expect(page.getByTestId('command-result')).toBeVisible();
});
