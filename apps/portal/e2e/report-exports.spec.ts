import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { signIn, switchLanguage } from './helpers';

/**
 * Report exports end to end against the real server: the fuel report's Export control starts a CSV job,
 * the page polls it to completed, and the downloaded file is the server's CSV (UTF-8 BOM, then the header
 * row in the language of the request). Run once in English and once in Arabic.
 */

const BOM = [0xef, 0xbb, 0xbf];

// The export runs on the real server next to the simulator; on a loaded machine the 202 and the job
// can each take tens of seconds, so these tests get more time than the config's 90 s.
test.describe.configure({ timeout: 240_000 });

const headers = {
  en: 'Vehicle,Fuel used (L),Distance (km),L/100 km,L/hour,Refuels,Refuelled (L),Drops,Dropped (L)',
  ar: 'المركبة,الوقود المستهلك (لتر),المسافة (كم),لتر/100 كم,لتر/ساعة,مرات التزود,كمية التزود (لتر),مرات الانخفاض,كمية الانخفاض (لتر)',
};

async function exportCsv(page: Page, formatName: string): Promise<Buffer> {
  await page.goto('/dashboard/reports/fuel');
  // The fuel report reads a week of rollups while the simulator writes: on a loaded machine the first
  // answer can take longer than the config's 15 s expect time-out.
  await expect(page.locator('html')).toHaveAttribute('data-page-ready', 'true', { timeout: 60_000 });
  await expect(page.getByTestId('report-fuel')).toBeVisible();
  const control = page.getByTestId('report-export');
  await control.locator('#report-export-format').click();
  await page.getByRole('option', { name: formatName, exact: true }).click();
  // The 202 answer is the queued job (progress 0). Polls are held until the progressbar was checked, so
  // the check does not race a small export that finishes within the first second.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/reports/exports/*', async (route) => {
    await held;
    await route.continue();
  });
  await control.getByTestId('report-export-start').click();
  const bar = control.getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuenow', '0', { timeout: 60_000 });
  await expect(control.getByTestId('report-export-start')).toBeDisabled();
  // Released polls (and every later one) pass through; the route stays to the end of the test, since
  // removing it while a held poll is in flight makes that poll fail.
  release();
  await expect(control.getByTestId('report-export-failed')).toHaveCount(0);
  const link = control.getByTestId('report-export-download');
  await expect(link).toBeVisible({ timeout: 120_000 });
  await expect(link).toHaveAttribute('download', 'fuel-report.csv');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe('fuel-report.csv');
  return readFile(await download.path());
}

function headerOf(csv: Buffer): string {
  expect([...csv.subarray(0, 3)]).toEqual(BOM);
  return csv.subarray(3).toString('utf8').split('\r\n')[0] ?? '';
}

test('fuel report exports a CSV with a BOM and English headers', async ({ page }) => {
  await signIn(page);
  const csv = await exportCsv(page, 'CSV');
  expect(headerOf(csv)).toBe(headers.en);
});

test('fuel report exports a CSV with Arabic headers in Arabic', async ({ page }) => {
  await signIn(page);
  await switchLanguage(page, 'ar');
  const csv = await exportCsv(page, 'CSV');
  expect(headerOf(csv)).toBe(headers.ar);
  await expect(page.getByTestId('report-export-start')).toHaveText('تصدير');
});
