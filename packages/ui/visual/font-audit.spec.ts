import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { canvasSystemFontUses, recordCanvasText, systemFontUses } from './font-audit.ts';

/**
 * The font audit of the screenshot suite, tested against itself: the suite's claim that no glyph
 * comes from a system font (so a machine with fonts-liberation and fonts-dejavu, or any others,
 * draws the same pixels) is only as good as the audit's ability to see a system font when one is
 * used. Here a page uses one on purpose (generic sans-serif, and a glyph the bundled face lacks),
 * and the audit must name it; the same text in the kit's bundled Inter must come out clean. Both for
 * DOM text and for text drawn on a canvas.
 */
const require = createRequire(import.meta.url);
const inter = readFileSync(require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff2'));

test.beforeEach(async ({ page }) => {
  await page.route('http://fonts.test/inter.woff2', (route) =>
    route.fulfill({ body: inter, contentType: 'font/woff2' }),
  );
  await recordCanvasText(page);
  await page.goto('about:blank');
});

const html = (body: string) => `<!doctype html><html><head><style>
  @font-face { font-family: 'Bundled'; src: url(http://fonts.test/inter.woff2) format('woff2'); }
  .bundled { font-family: 'Bundled'; }
  .system { font-family: sans-serif; }
</style></head><body>${body}</body></html>`;

test('DOM text: a system font is reported, the bundled face is not', async ({ page }) => {
  await page.setContent(html('<p class="bundled">Zoom in + 12</p><p class="system">Zoom out</p>'));
  await page.evaluate(() => document.fonts.load("16px 'Bundled'", 'Zoom').then(() => document.fonts.ready));
  const uses = await systemFontUses(page);
  expect(uses.map((u) => u.text)).toEqual(['Zoom out']);
  // A glyph the bundled latin subset lacks falls back to the machine's fonts, inside bundled text.
  await page.setContent(html('<p class="bundled">Dubai ☂ Sharjah</p>'));
  await page.evaluate(() => document.fonts.load("16px 'Bundled'", 'Dubai').then(() => document.fonts.ready));
  const fallback = await systemFontUses(page);
  expect(fallback).toHaveLength(1);
  expect(fallback[0]!.fonts.length).toBeGreaterThan(0);
});

test('canvas text: a system font is reported, the bundled face is not, and the probes are gone', async ({
  page,
}) => {
  await page.setContent(html('<canvas width="300" height="80"></canvas>'));
  await page.evaluate(async () => {
    await document.fonts.load("16px 'Bundled'", 'Dubai');
    const ctx = document.querySelector('canvas')!.getContext('2d')!;
    ctx.font = "16px 'Bundled'";
    ctx.fillText('Dubai', 10, 20);
    ctx.font = '16px sans-serif';
    ctx.fillText('Sharjah', 10, 50);
  });
  const uses = await canvasSystemFontUses(page);
  expect(uses.map((u) => u.text)).toEqual(['Sharjah']);
  expect(await page.locator('[data-canvas-probe]').count()).toBe(0);
  // Only what was drawn since the last check is checked again.
  expect(await canvasSystemFontUses(page)).toEqual([]);
});
