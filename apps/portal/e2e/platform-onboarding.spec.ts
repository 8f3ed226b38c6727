import { expect, test } from '@playwright/test';
import { pageReady, signIn, switchLanguage, unique } from './helpers';

/**
 * Platform onboarding (issue 18 finding 10), in the browser against the real server: the demo super
 * admin onboards a second transport company from the Transport companies page, a repeat is refused on
 * its fields in Arabic, and the new company admin follows the invitation from the message outbox, chooses
 * a password, signs in and sees only the new company (and no platform page).
 */
test('a super admin onboards a company; its admin signs in through the invitation', async ({ page, browser }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Transport companies' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/platform\/companies$/);
  await pageReady(page);
  const name = unique('Gulf Buses ');
  const email = `${name.replace(/\W+/g, '').toLowerCase()}@onboard.test`;
  const fill = async () => {
    await page.locator('#co-name').fill(name);
    await page.locator('#co-country').fill('ae');
    await page.locator('#co-admin-email').fill(email);
    await page.locator('#co-admin-name').fill('Mona Owner');
  };
  await fill();
  await page.getByTestId('company-create-submit').click();
  await expect(page.getByTestId('company-created')).toContainText(email);
  await expect(page.getByTestId('company-item').filter({ hasText: name })).toContainText('AE');

  // The same company again, in Arabic: refused on its fields, in Arabic, nothing created.
  await switchLanguage(page, 'ar');
  await fill();
  await page.getByTestId('company-create-submit').click();
  await expect(page.locator('#co-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('platform-companies').locator('form')).toContainText(/[\u0600-\u06ff]/);
  await expect(page.getByTestId('company-item').filter({ hasText: name })).toHaveCount(1);

  // The invitation, as the local mailbox keeps it (the super admin may read message contents).
  const token = await page.evaluate(() => window.localStorage.getItem('access_token'));
  const headers = { authorization: `Bearer ${token}` };
  const list = await page.request.get('/v1/messages?limit=50', { headers });
  const sent = (await list.json()).data as { uuid: string; recipient: string; kind: string }[];
  const invite = sent.find((m) => m.recipient === email && m.kind === 'set_password');
  expect(invite).toBeTruthy();
  const shown = await page.request.get(`/v1/messages/${invite!.uuid}`, { headers });
  const body = (await shown.json()).data as { body_text: string };
  const link = /\/set-password\/[\w-]+/.exec(body.body_text)?.[0];
  expect(link).toBeTruthy();

  const context = await browser.newContext();
  const admin = await context.newPage();
  await admin.goto(link!);
  await admin.locator('#sp-password').fill('Chosen pass 77');
  await admin.locator('#sp-confirm').fill('Chosen pass 77');
  await admin.locator('form button[type="submit"]').click();
  await admin.goto('/login');
  await admin.locator('#login-identifier').fill(email);
  await admin.locator('#login-password').fill('Chosen pass 77');
  await admin.locator('form button[type="submit"]').click();
  await admin.waitForURL(/\/dashboard/);
  await pageReady(admin);
  const adminToken = await admin.evaluate(() => window.localStorage.getItem('access_token'));
  const me = await admin.request.get('/v1/auth', { headers: { authorization: `Bearer ${adminToken}` } });
  const companies = (await me.json()).data.transport_companies as { name: string }[];
  expect(companies.map((c) => c.name)).toEqual([name]);
  await expect(admin.getByRole('link', { name: 'Transport companies' })).toHaveCount(0);
  await context.close();
});
