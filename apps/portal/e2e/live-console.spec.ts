import { expect, test } from '@playwright/test';
import { pageReady, signIn } from './helpers';

/**
 * The live console on a desktop: the searchable vehicle list beside the map. Choosing a row far down the
 * list flies the map to that vehicle and opens its card over it; "Show the whole fleet" and follow mode
 * are there; returning to the page keeps the user's view instead of fitting the fleet again.
 */
test.use({ viewport: { width: 1440, height: 900 } });

test('select a vehicle in the list: the map flies to it and opens its card', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard/live');
  await pageReady(page);
  const list = page.getByRole('listbox', { name: 'Vehicles beside the map' });
  await expect(list).toBeVisible();
  // A vehicle with a position: a live one (its row shows a speed in km/h).
  await page.getByRole('tab', { name: /Live/ }).click();
  const options = list.getByRole('option');
  await expect(options.first()).toBeVisible();
  const plate = (await options.last().locator('[data-slot="fleet-list-plate"]').innerText()).trim();

  // Search narrows the list to that plate, a click selects it.
  await page.getByRole('searchbox', { name: 'Search plate or driver' }).fill(plate);
  await expect(options).toHaveCount(1);
  await options.first().click();
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/[?&]vehicle=[0-9a-f-]{36}/);

  // The card of that vehicle is open, inside the map: the map went to it.
  const card = page.getByTestId('vehicle-summary');
  await expect(card).toBeVisible();
  await expect(card).toContainText(plate);
  const map = page.getByTestId('live-console').locator('.leaflet-container');
  const [cardBox, mapBox] = [await card.boundingBox(), await map.boundingBox()];
  expect(cardBox && mapBox).toBeTruthy();
  expect(cardBox!.y).toBeGreaterThanOrEqual(mapBox!.y - 1);
  expect(cardBox!.x).toBeGreaterThanOrEqual(mapBox!.x - 1);
  expect(cardBox!.x + cardBox!.width).toBeLessThanOrEqual(mapBox!.x + mapBox!.width + 1);

  // The chosen vehicle stays, card and row, when it is no longer in the open tab (a live bus parks
  // while the user looks at it; opening a tab it is not in shows the same thing at once).
  await page.getByRole('tab', { name: /Inactive/ }).click();
  await expect(card).toBeVisible();
  await expect(card).toContainText(plate);
  await expect(options).toHaveCount(1);
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: /Live/ }).click();

  // Follow mode toggles on the chosen vehicle.
  const follow = page.getByTestId('live-follow');
  await follow.click();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(follow).toContainText(plate);
  // A drag on the map turns following off (the user looks elsewhere); the toggle turns it on again.
  const mapEl = page.getByTestId('live-console').locator('.leaflet-container');
  await expect(mapEl).toHaveAttribute('data-follow', 'on');
  const box = (await mapEl.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.75);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height * 0.75 - 40, { steps: 6 });
  await page.mouse.up();
  await expect(mapEl).toHaveAttribute('data-follow', 'off');
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await follow.focus();
  await page.keyboard.press('Enter');
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  await expect(mapEl).toHaveAttribute('data-follow', 'on');

  // The list is resizable from the keyboard (window splitter).
  const splitter = page.getByRole('separator', { name: 'Resize the vehicle list' });
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 20));
});

test('a link to one vehicle on the live map opens on that vehicle, not on the whole fleet', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/dashboard/live');
  await pageReady(page);
  // A vehicle far down the list (the fleet fit would show it as part of a cluster, if at all).
  await page.getByRole('tab', { name: /Live/ }).click();
  const list = page.getByRole('listbox', { name: 'Vehicles beside the map' });
  const last = list.getByRole('option').last();
  const plate = (await last.locator('[data-slot="fleet-list-plate"]').innerText()).trim();
  // The option of that plate, not `last` again: the Live tab's list changes as vehicles stop and go,
  // and a lazy `last()` clicked whichever vehicle was last by then (a CI failure on a loaded machine).
  const exact = new RegExp(`^${plate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await list
    .getByRole('option')
    .filter({ has: page.locator('[data-slot="fleet-list-plate"]', { hasText: exact }) })
    .click();
  const url = page.url();
  // Opened afresh from its link, with the whole fleet fitted before in this tab: the map is on the vehicle
  // and its card is open over it, inside the map.
  await page.goto('/dashboard/live');
  await pageReady(page);
  await page.getByRole('button', { name: 'Show the whole fleet' }).click();
  await page.goto(url);
  await pageReady(page);
  const card = page.getByTestId('vehicle-summary');
  await expect(card).toBeVisible();
  await expect(card).toContainText(plate);
  // Street level (the fleet fit is far out), not the view kept from before.
  await expect(page.getByTestId('live-console').locator('[data-slot="map-view"]')).toHaveAttribute(
    'data-zoom',
    /^(1[5-9]|2\d)$/,
  );
  const map = page.getByTestId('live-console').locator('.leaflet-container');
  const [cardBox, mapBox] = [(await card.boundingBox())!, (await map.boundingBox())!];
  expect(cardBox.y).toBeGreaterThanOrEqual(mapBox.y - 1);
  expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(mapBox.y + mapBox.height + 1);
  expect(cardBox.x).toBeGreaterThanOrEqual(mapBox.x - 1);
  expect(cardBox.x + cardBox.width).toBeLessThanOrEqual(mapBox.x + mapBox.width + 1);
});
