import { expect, test, type Page } from '@playwright/test';
import { crudEntities, paths, recordGroups } from '../src/app/paths';
import { signIn, switchLanguage } from './helpers';

/**
 * Every portal route on a phone in English and Arabic, at 360, 390 and 430 px wide (the narrow
 * Androids, the common iPhone, the large phones): the document never scrolls sideways (scrollWidth <=
 * the viewport's width) and nothing sticks out past either edge, the left one included (in Arabic a
 * wide element overflows to the left, where it can be cut off without growing scrollWidth). At 390
 * x 844: lists are cards, and no control leads nowhere
 * (create and details routes fall back to the list on small screens, spec §2, so the lists offer
 * no "Add" button and no row link there).
 */
test.use({ viewport: { width: 390, height: 844 } });
test.setTimeout(600_000);

/** The list reports of reports/{kind} (list-report-page.tsx `listReportTitles`). */
const reportKinds = [
  'trip-list',
  'stops',
  'idling',
  'summary',
  'events',
  'route',
  'geofence-visits',
  'salik',
  'salik-monthly',
  'driver-activity',
  'utilisation',
  'trips',
  'violations',
];

const dashboardRoutes = [
  paths.home,
  paths.live,
  paths.liveList,
  paths.routeHistory,
  ...crudEntities.flatMap((e) => [paths.list(e), paths.create(e)]),
  ...recordGroups.map((g) => paths.list(g)),
  paths.notifications,
  paths.reports,
  paths.fuelReport,
  paths.engineReport,
  paths.wheelReport,
  ...reportKinds.map((k) => `/dashboard/reports/${k}`),
  paths.settings,
  paths.changePassword,
  paths.alertRules,
  paths.messages,
  paths.companies,
  '/dashboard/no-such-page',
];
const signedInRoutes = [paths.menu, paths.selectTransport];
const publicRoutes = [paths.login, paths.resetPassword, paths.serverUnreachable, '/no-such-page'];

/**
 * How far the document is wider than the viewport, the widest element sticking out, and the elements
 * that stick out past the left or right edge of the viewport where nothing clips them (an element
 * inside a scrolling or clipping box, such as the status tabs' scroller, a table's scroll frame or
 * the map, is that box's business, not the page's).
 */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scroll = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    const describe = (el: Element, r: DOMRect) =>
      `${el.tagName.toLowerCase()}[data-slot=${el.getAttribute('data-slot') ?? ''}].${String(el.className).slice(0, 80)} (${Math.round(r.left)}..${Math.round(r.right)})`;
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.clipPath !== 'none' || style.position === 'fixed') {
          // Clipped by a box inside the viewport (the nearest clipping box may itself sit in a
          // scroller further up, past the edge: look on up).
          const box = p.getBoundingClientRect();
          if (box.left >= -0.5 && box.right <= width + 0.5) return true;
        }
      }
      return false;
    };
    const outside: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left >= -0.5 && r.right <= width + 0.5) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      // Visually hidden (sr-only: a 1px box clipped to nothing, such as the skip link): not seen.
      if (style.clip !== 'auto' || style.clipPath !== 'none') continue;
      if (clipped(el)) continue;
      outside.push(describe(el, r));
      if (outside.length >= 3) break;
    }
    let widest = '';
    if (scroll > width) {
      let max = width;
      for (const el of document.body.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        const out = Math.max(r.right, width - r.left);
        if (out > max + 0.5 && r.width > 0) {
          max = out;
          widest = describe(el, r);
        }
      }
    }
    return { width, scroll, widest, outside };
  });
}

async function settle(page: Page) {
  // Pages with data set data-page-ready; the others (forms, settings) are ready when drawn.
  await page
    .locator('html[data-page-ready="true"]')
    .waitFor({ timeout: 8_000 })
    .catch(() => undefined);
  await expect(page.locator('#root')).not.toBeEmpty();
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(150);
}

for (const width of [390, 360, 430]) {
  test.describe(`${width} px wide`, () => {
    test.use({ viewport: { width, height: 844 } });
    for (const language of ['en-US', 'ar'] as const) {
      test(`no route scrolls sideways or sticks out on a phone ${width} px wide, ${language}`, async ({ page }) => {
        const wide: string[] = [];
        const check = async (route: string) => {
          await page.goto(route);
          await settle(page);
          const o = await overflow(page);
          if (o.scroll > o.width) wide.push(`${route}: ${o.scroll}px in ${o.width}px, ${o.widest}`);
          for (const el of o.outside) wide.push(`${route}: past an edge of ${o.width}px: ${el}`);
        };
        await page.addInitScript((lang) => window.localStorage.setItem('locale', lang), language);
        for (const route of publicRoutes) await check(route);
        await signIn(page);
        await switchLanguage(page, language);
        for (const route of [...signedInRoutes, ...dashboardRoutes]) await check(route);
        expect(wide).toEqual([]);
      });
    }
  });
}

for (const language of ['en-US', 'ar'] as const) {
  test(`lists are cards with no dead controls on a phone, ${language}`, async ({ page }) => {
    await page.addInitScript((lang) => window.localStorage.setItem('locale', lang), language);
    await signIn(page);
    await switchLanguage(page, language);

    await page.goto(paths.list('vehicles'));
    await settle(page);
    const table = page.locator('[data-slot="data-table"]');
    await expect(table).toHaveAttribute('data-layout', 'cards');
    // Create falls back to the list here: no Add button, a note says where to add instead.
    await expect(page.getByTestId('create-button')).toHaveCount(0);
    await expect(page.getByTestId('larger-screen-note')).toBeVisible();
    const card = page.locator('[data-slot="data-table-card"]').first();
    await expect(card).toBeVisible();
    // Details fall back to the list too: the card has no link to them; it unfolds in place.
    await expect(card.locator('a[href*="/details/"]')).toHaveCount(0);
    const toggle = card.locator('[data-slot="data-table-card-toggle"]');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const details = card.locator('[data-slot="data-table-card-details"]');
    await expect(details).toBeVisible();
    expect(await details.locator('dt').count()).toBeGreaterThan(1);
    await expect(page).toHaveURL(/\/dashboard\/vehicles$/);

    await page.goto(paths.liveList);
    await settle(page);
    await expect(page.locator('[data-slot="data-table"]')).toHaveAttribute('data-layout', 'cards');
    const liveCard = page.locator('[data-slot="data-table-card"]').first();
    await expect(liveCard).toBeVisible();

    // Toasts sit at the top edge on a phone, away from the pager and the actions at the bottom.
    const toasts = page.locator('[data-slot="toast-viewport"]');
    const pager = page.locator('[data-slot="data-table-pagination"]');
    await pager.scrollIntoViewIfNeeded();
    const toastBox = (await toasts.boundingBox())!;
    const pagerBox = (await pager.boundingBox())!;
    expect(toastBox.y).toBeLessThan(80);
    expect(pagerBox.y).toBeGreaterThan(toastBox.y + 56);

    // A card's plate opens the vehicle on the map: the map fills the screen, the vehicle is in a
    // bottom sheet (no popup over the marker), inside the viewport.
    await liveCard.locator('a[href*="/dashboard/live?vehicle="]').first().click();
    await expect(page).toHaveURL(/\/dashboard\/live\?vehicle=/);
    const sheet = page.getByTestId('live-sheet');
    await expect(sheet).toBeVisible();
    await expect(page.locator('.leaflet-popup')).toHaveCount(0);
    const map = (await page.locator('[data-slot="map-view"]').boundingBox())!;
    expect(map.height).toBeGreaterThan(844 * 0.55);
    expect(map.width).toBeGreaterThan(390 - 40);
    const sheetBox = (await sheet.boundingBox())!;
    expect(sheetBox.y + sheetBox.height).toBeLessThanOrEqual(844 + 1);
    await expect(page.getByTestId('live-fit')).toBeInViewport();
    await page.getByTestId('live-sheet-close').click();
    await expect(sheet).toHaveCount(0);
    await expect(page).toHaveURL(/\/dashboard\/live$/);
  });
}
