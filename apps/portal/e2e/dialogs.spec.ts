import { expect, test } from '@playwright/test';
import { pageReady, signIn, unique } from './helpers';

/**
 * The kit's status update and delete confirmation dialogs on a record's details page (spec §2), on a
 * driver this test creates so the seeded data stays as it is.
 */
test('update a record status, then delete it through the confirmation', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/drivers/create');
  await pageReady(page);
  const name = unique('Dialog');
  await page.locator('#field-first_name').fill(name);
  await page.locator('#field-last_name').fill('Driver');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/dashboard\/drivers\/details\//);
  await pageReady(page);
  const badge = page.locator('[data-slot="detail-layout"] [data-slot="status-badge"]');
  await expect(badge).toHaveAttribute('data-tone', 'live');
  await expect(badge).toHaveText('Active');

  // Status: the dialog preselects the current status; choose "Inactive" and save.
  await page.getByTestId('status-button').click();
  const statusDialog = page.getByRole('dialog');
  await expect(statusDialog.getByRole('radio', { name: 'Active', exact: true })).toBeChecked();
  await statusDialog.getByRole('radio', { name: 'Inactive', exact: true }).click();
  await statusDialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(statusDialog).toBeHidden();
  await expect(badge).toHaveText('Inactive');
  await expect(badge).toHaveAttribute('data-tone', 'inactive');

  // Delete: Cancel keeps the record; Delete removes it and goes back to the list.
  await page.getByTestId('delete-button').click();
  const deleteDialog = page.getByRole('dialog');
  await expect(deleteDialog).toContainText(name);
  await deleteDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(deleteDialog).toBeHidden();
  await expect(page).toHaveURL(/\/dashboard\/drivers\/details\//);
  await page.getByTestId('delete-button').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/drivers$/);
  await pageReady(page);
  await expect(page.locator('[data-slot="data-table-row"]').filter({ hasText: name })).toHaveCount(0);
});
