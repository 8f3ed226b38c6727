import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { signIn, switchLanguage } from './helpers';

/**
 * The everyday report pages against the real server (demo company, simulated devices): the overview
 * offers them, each page answers with its table (or the empty text), the figures carry their units, the
 * route asks for a vehicle and then offers GPX/KML, and a summary export comes back as a CSV. In
 * English and Arabic.
 */

test.describe.configure({ timeout: 240_000 });

async function ready(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true', { timeout: 60_000 });
}

const kinds = [
  'trip-list',
  'summary',
  'stops',
  'events',
  'idling',
  'geofence-visits',
  'utilisation',
  'driver-activity',
  'salik-monthly',
  'salik',
  'trips',
  'violations',
] as const;

async function walk(page: Page, lang: 'en' | 'ar') {
  await page.goto('/dashboard/reports');
  await ready(page);
  for (const kind of [...kinds, 'route']) await expect(page.getByTestId(`report-card-${kind}`)).toBeVisible();
  for (const kind of kinds) {
    await page.goto(`/dashboard/reports/${kind}?range=last7Days`);
    await ready(page);
    const root = page.getByTestId(`report-${kind}`);
    await expect(root).toBeVisible();
    // A table (with rows) or the spec's empty text, never an error.
    await expect(root.getByTestId('report-table').or(root.getByTestId('report-empty'))).toBeVisible();
    await expect(root.getByRole('alert')).toHaveCount(0);
  }
  // Utilisation has a row for every day of the range, with the share in percent.
  await page.goto('/dashboard/reports/utilisation?range=last7Days');
  await ready(page);
  const table = page.getByTestId('report-table');
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(7);
  await expect(table.locator('tbody tr').first()).toContainText('%');
  await expect(page.getByTestId('report-chart')).toBeVisible();
  // The demo drives today: the summary shows km and km/h figures.
  await page.goto('/dashboard/reports/summary?range=today');
  await ready(page);
  const summary = page.getByTestId('report-table');
  await expect(summary).toBeVisible();
  await expect(summary).toContainText(lang === 'ar' ? 'كم/س' : 'km/h');
  // The route asks for a vehicle, then lists positions with GPX and KML.
  await page.goto('/dashboard/reports/route?range=today');
  await ready(page);
  await expect(page.getByTestId('report-choose-vehicle')).toBeVisible();
  const select = page.locator('#report-vehicle');
  const first = await select.locator('option').nth(1).getAttribute('value');
  await select.selectOption(first!);
  await ready(page);
  await expect(page.getByTestId('report-table').or(page.getByTestId('report-empty'))).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('route-file-gpx').click()]);
  const gpx = (await readFile(await download.path())).toString('utf8');
  expect(gpx).toContain('<gpx version="1.1"');
}

test('report pages in English', async ({ page }) => {
  await signIn(page);
  await walk(page, 'en');
  await expect(page.getByTestId('route-file-kml')).toHaveText('Download KML');
  // Schedule the summary by e-mail, see it listed with its next sending time, stop it.
  await page.goto('/dashboard/reports/summary?range=today');
  await ready(page);
  const schedule = page.getByTestId('report-schedule');
  await schedule.locator('#report-schedule-frequency').selectOption('daily');
  await schedule.getByTestId('report-schedule-save').click();
  await expect(schedule.getByTestId('report-schedule-list')).toContainText('Daily');
  await schedule.getByTestId('report-schedule-delete').click();
  await expect(schedule.getByTestId('report-schedule-list')).toHaveCount(0);
});

test('report pages in Arabic, and a summary export in Arabic', async ({ page }) => {
  await signIn(page);
  await switchLanguage(page, 'ar');
  await walk(page, 'ar');
  await expect(page.getByTestId('route-file-kml')).toHaveText('تنزيل KML');
  await page.goto('/dashboard/reports/summary?range=today');
  await ready(page);
  const control = page.getByTestId('report-export');
  await control.getByTestId('report-export-start').click();
  const link = control.getByTestId('report-export-download');
  await expect(link).toBeVisible({ timeout: 120_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const csv = (await readFile(await download.path())).toString('utf8');
  expect(csv.slice(1).split('\r\n')[0]).toBe(
    'المركبة,اليوم,المسافة (كم),تشغيل المحرك (ساعة),القيادة (ساعة),التباطؤ (ساعة),الوقود المستهلك (لتر),أقصى سرعة (كم/س),الرحلات,المخالفات',
  );
});
