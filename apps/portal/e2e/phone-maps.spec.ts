import { expect, test } from '@playwright/test';
import { signIn, switchLanguage } from './helpers';

/**
 * The live map on a phone (390 x 844), in English and Arabic, with no internet: the header's
 * language selector shows its value, all six status tabs can be reached, and the map draws the
 * bundled offline basemap (no tile server is configured, and nothing is fetched from outside).
 */
test.use({ viewport: { width: 390, height: 844 } });

for (const language of ['en-US', 'ar'] as const) {
  test(`live map on a phone, ${language}`, async ({ page, context }) => {
    const outside: string[] = [];
    await context.route('**/*', (route) => {
      const host = new URL(route.request().url()).hostname;
      if (host === '127.0.0.1' || host === 'localhost') return route.continue();
      outside.push(host);
      return route.abort();
    });
    await signIn(page);
    await switchLanguage(page, language);
    await page.goto('/dashboard/live');

    const select = page.getByTestId('language-switch').first();
    await expect(select).toHaveValue(language);
    // Its text fits: a squeezed select once showed an empty box here.
    const fit = await select.evaluate((el: HTMLSelectElement) => {
      const text = el.options[el.selectedIndex]?.text ?? '';
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(el).font;
      probe.textContent = text;
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      const style = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
      return { needed, room };
    });
    expect(fit.room).toBeGreaterThanOrEqual(fit.needed - 1);

    const tabs = page.locator('[data-slot="status-tab"]');
    await expect(tabs).toHaveCount(6);
    for (let i = 0; i < 6; i++) {
      const tab = tabs.nth(i);
      await tab.scrollIntoViewIfNeeded();
      // Whole but for the 1px the active underline overlaps the list's bottom border (-mb-px).
      await expect(tab).toBeInViewport({ ratio: 0.95 });
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
    }
    await tabs.first().click();

    await expect(page.locator('canvas[data-slot="offline-basemap-tile"]').first()).toBeAttached();
    await expect(page.locator('[data-slot="map-view"]')).toHaveAttribute('data-map-state', 'idle');
    // Fit-to-fleet fills the phone with the basemap's land and roads: never zoomed out so far that
    // the region shows as an inset with its faded margins (use-map-camera.ts PHONE_MIN_FIT_ZOOM).
    const shown = () =>
      page.locator('canvas[data-slot="offline-basemap-tile"]').evaluateAll((tiles) => {
        const zooms = tiles
          .filter((t) => {
            const r = t.getBoundingClientRect();
            return r.right > 0 && r.left < innerWidth && r.bottom > 0 && r.top < innerHeight;
          })
          .map((t) => Number((t as HTMLElement).dataset.zoom));
        return zooms.length ? Math.min(...zooms) : -1;
      });
    await expect.poll(shown).toBeGreaterThanOrEqual(10);
    await page.getByTestId('live-fit').click();
    await expect(page.locator('[data-slot="map-view"]')).toHaveAttribute('data-map-state', 'idle');
    await expect.poll(shown).toBeGreaterThanOrEqual(10);
    // Without configured base layers there is nothing to switch between.
    await expect(page.locator('[data-slot="map-layer-switcher"]')).toHaveCount(0);
    expect(outside).toEqual([]);
  });
}
