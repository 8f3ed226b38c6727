import { expect, test, type APIRequestContext } from '@playwright/test';
import type { DecodedRecord } from '../../../packages/device-protocols/src/index';
import { sendOverGateway } from './gateway-device';
import { chooseDay, DEMO_EMAIL, DEMO_PASSWORD, pageReady, signIn, switchLanguage } from './helpers';

/**
 * The vehicle overview a manager opens on the first day: the live card with its mini-map and latest
 * values, names (never UUIDs) for branch, station and driver, no "Open vehicle" link to the page itself,
 * and the tabs: trips, alerts, documents with their expiry state, commands, route history. Then the
 * vehicle list: server-side sorting by plate and the new filters (live status, branch).
 */
test.use({ viewport: { width: 1440, height: 900 } });

/**
 * One fix for a demo device sent through the real gateway, so the test does not depend on the simulator
 * happening to move this vehicle (a parked or idling demo vehicle keeps its place for minutes).
 */
function fix(imei: string, lat: number, lng: number, speed: number): DecodedRecord {
  return {
    imei,
    protocol: 'teltonika',
    fixTime: Date.now(),
    valid: true,
    latitude: lat,
    longitude: lng,
    altitude: 10,
    speed,
    course: 90,
    satellites: 12,
    eventId: 0,
    io: { 239: 1, 240: 1 },
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

async function apiSession(request: APIRequestContext) {
  const login = await request.post('/v1/login', { data: { email: DEMO_EMAIL, password: DEMO_PASSWORD } });
  expect(login.ok()).toBe(true);
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const me = await request.get('/v1/auth', { headers: { Authorization: `Bearer ${token}` } });
  const companies = ((await me.json()) as { data: { transport_companies: { uuid: string; name: string }[] } })
    .data.transport_companies;
  const company = companies.find((c) => c.name === 'Demo Transport') ?? companies[0]!;
  return { Authorization: `Bearer ${token}`, 'X-Transport-Uuid': company.uuid };
}

/** A calendar day counted in the demo company's zone (Asia/Dubai), as the portal counts expiry days. */
const isoDay = (offsetDays: number) => {
  const d = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Dubai' }).format(d);
};

test('vehicle overview: live card, names, tabs and documents with expiry', async ({ page, request }) => {
  const headers = await apiSession(request);
  // A live demo vehicle with a tracker, a branch and a station.
  const live = await request.get('/v1/vehicles/live?live_status=live&limit=50', { headers });
  const vehicles = (
    (await live.json()) as { data: { uuid: string; location: unknown; device_imei: string | null }[] }
  ).data;
  const target = vehicles.find((v) => v.location && v.device_imei)!;
  expect(target).toBeTruthy();
  const record = (
    (await (await request.get(`/v1/vehicles/${target.uuid}`, { headers })).json()) as {
      data: Record<string, unknown>;
    }
  ).data;
  // Insurance runs out in 5 days, registration has passed: the documents tab says so.
  const { uuid: _uuid, created_at: _c, updated_at: _u, ...body } = record;
  const put = await request.put(`/v1/vehicles/${target.uuid}`, {
    headers,
    data: { ...body, insurance_expiry: isoDay(5), registration_expiry: isoDay(-2) },
  });
  expect(put.ok(), await put.text()).toBe(true);

  await signIn(page);
  await page.goto(`/dashboard/vehicles/details/${target.uuid}`);
  await pageReady(page);

  // Live card: the map with the vehicle's marker layer and the latest values.
  const card = page.getByTestId('vehicle-live-card');
  await expect(card).toBeVisible();
  const miniMap = card.getByTestId('vehicle-mini-map').locator('.leaflet-container');
  await expect(miniMap).toBeVisible();
  // The mini-map follows the vehicle: the map pans to each new fix (here one sent over the gateway
  // about a kilometre east of where it stands)...
  await expect(miniMap).toHaveAttribute('data-follow', 'on');
  const firstCentre = (await miniMap.getAttribute('data-centre'))!;
  expect(firstCentre).toMatch(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/);
  const [lat, lng] = firstCentre.split(',').map(Number) as [number, number];
  await sendOverGateway(target.device_imei!, [fix(target.device_imei!, lat, lng + 0.01, 42)]);
  await expect(miniMap).not.toHaveAttribute('data-centre', firstCentre, { timeout: 30_000 });
  // ...until the user drags the map: then it stays where they put it while the vehicle moves on.
  const mapBox = (await miniMap.boundingBox())!;
  await page.mouse.move(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(mapBox.x + mapBox.width / 2 + 60, mapBox.y + mapBox.height / 2 + 30, { steps: 6 });
  await page.mouse.up();
  await expect(miniMap).toHaveAttribute('data-follow', 'off');
  const heldCentre = (await miniMap.getAttribute('data-centre'))!;
  const summaryText = await card.getByTestId('vehicle-summary').innerText();
  await sendOverGateway(target.device_imei!, [fix(target.device_imei!, lat + 0.01, lng + 0.02, 57)]);
  await expect(card.getByTestId('vehicle-summary')).not.toHaveText(summaryText, { timeout: 30_000 });
  await expect(miniMap).toHaveAttribute('data-centre', heldCentre);
  // The "Follow" toggle in the map's corner, from the keyboard: following is on again and the map
  // recentres on the latest fix.
  const followButton = card.getByRole('button', { name: `Follow ${String(record.license_plate_number)}` });
  await expect(followButton).toHaveAttribute('aria-pressed', 'false');
  await followButton.focus();
  await page.keyboard.press('Enter');
  await expect(followButton).toHaveAttribute('aria-pressed', 'true');
  await expect(miniMap).toHaveAttribute('data-follow', 'on');
  await expect(miniMap).not.toHaveAttribute('data-centre', heldCentre);
  await expect(card.getByTestId('vehicle-summary')).toContainText(String(record.license_plate_number));
  await expect(card.getByText('Speed')).toBeVisible();
  await expect(card.getByText('Ignition')).toBeVisible();
  // This is the vehicle's page: no link to itself.
  await expect(card.getByRole('link', { name: 'Open vehicle' })).toHaveCount(0);

  // Branch and station read as names linked to their records; no UUID anywhere in the details.
  await expect(page.getByTestId('record-ref').filter({ hasText: /.+/ }).first()).toBeVisible();
  await expect(page.locator('[data-entity="branches"]')).toHaveCount(1);
  await expect(page.locator('[data-entity="stations"]')).toHaveCount(1);
  await expect(page.getByTestId('record-ref-loading')).toHaveCount(0);
  expect(await page.locator('[data-slot="description-list"]').innerText()).not.toMatch(UUID);

  // Tabs: trips first, then each one opens its panel (kept in the URL).
  const tabs = page.getByRole('tablist', { name: 'Vehicle sections' });
  await expect(tabs.getByRole('tab')).toHaveText([
    'Trips',
    'Alerts',
    /^Documents\s*2$/,
    'Commands',
    'Route history',
  ]);
  await expect(page.getByTestId('vehicle-trips')).toBeVisible();

  await tabs.getByRole('tab', { name: 'Alerts' }).click();
  await expect(page).toHaveURL(/[?&]tab=alerts/);
  await expect(page.getByTestId('vehicle-alerts')).toBeVisible();

  await tabs.getByRole('tab', { name: /Documents/ }).click();
  const docs = page.getByTestId('vehicle-documents');
  await expect(docs.getByTestId('document-vehicle_insurance')).toHaveAttribute('data-state', 'dueThisWeek');
  await expect(docs.getByTestId('document-vehicle_insurance')).toContainText('Expires this week');
  await expect(docs.getByTestId('document-vehicle_insurance')).toContainText('in 5 days');
  await expect(docs.getByTestId('document-vehicle_registration')).toHaveAttribute('data-state', 'expired');

  await tabs.getByRole('tab', { name: 'Commands' }).click();
  await expect(page.getByTestId('section-panel-commands').getByRole('combobox').first()).toBeVisible();

  await tabs.getByRole('tab', { name: 'Route history' }).click();
  await expect(page.getByTestId('vehicle-history-link')).toHaveAttribute(
    'href',
    `/dashboard/live/route-history?vehicle=${target.uuid}`,
  );

  // A reload opens the same tab; Arabic names the tabs and the document states.
  await page.reload();
  await pageReady(page);
  await expect(page.getByTestId('vehicle-history-link')).toBeVisible();
  await switchLanguage(page, 'ar');
  await page.getByRole('tab', { name: /الوثائق/ }).click();
  await expect(page.getByTestId('document-vehicle_insurance')).toContainText('تنتهي هذا الأسبوع');
  await expect(page.getByTestId('document-vehicle_registration')).toContainText('منتهية');
  await switchLanguage(page, 'en-US');
});

test('vehicle list: sort by plate on the server, filter by live status and branch', async ({
  page,
  request,
}) => {
  const headers = await apiSession(request);
  await signIn(page);
  await page.goto('/dashboard/vehicles');
  await pageReady(page);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: /Live status/ })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: /Last seen/ })).toBeVisible();

  // Sorting by plate goes through the URL (server-side), ascending then descending.
  await table.getByRole('button', { name: /Plate number/ }).click();
  await expect(page).toHaveURL(/sort=license_plate_number/);
  await pageReady(page);
  const plates = async () =>
    (await table.locator('tbody tr td:first-child').allInnerTexts()).map((p) => p.trim()).filter(Boolean);
  const server = async (order: 'asc' | 'desc') =>
    (
      (await (
        await request.get(`/v1/vehicles?sort=license_plate_number&order=${order}&limit=15`, { headers })
      ).json()) as { data: { license_plate_number: string }[] }
    ).data.map((v) => v.license_plate_number);
  const order = new URL(page.url()).searchParams.get('order') === 'asc' ? 'asc' : 'desc';
  await expect.poll(plates).toEqual(await server(order));

  // Live-status filter: every row shown is live.
  await page.getByRole('button', { name: /More filters/ }).click();
  await page.locator('#filter-live_status').selectOption('live');
  await expect(page).toHaveURL(/live_status=live/);
  await pageReady(page);
  const statuses = page.getByTestId('vehicle-live-status');
  await expect(statuses.first()).toBeVisible();
  for (const s of await statuses.all()) await expect(s).toHaveAttribute('data-status', 'live');

  // Branch filter: options are names; the server answers with that branch's vehicles only.
  const branch = page.locator('#filter-branch_uuid');
  const options = await branch.locator('option').allInnerTexts();
  expect(options.length).toBeGreaterThan(1);
  for (const o of options) expect(o).not.toMatch(UUID);
  await branch.selectOption({ index: 1 });
  await expect(page).toHaveURL(/branch_uuid=/);

  // One entry per spec type in the type filter, no two with the same name.
  const types = await page.locator('#filter-type option').allInnerTexts();
  expect(types.slice(1)).toHaveLength(5);
  expect(new Set(types).size).toBe(types.length);
});

test('route history: a range of days, trips and stops beside the map, speed chart, hover shows time and speed', async ({
  page,
  request,
}) => {
  const headers = await apiSession(request);
  const live = await request.get('/v1/vehicles/live?live_status=live&limit=50', { headers });
  const target = ((await live.json()) as { data: { uuid: string; location: unknown }[] }).data.find(
    (v) => v.location,
  )!;
  expect(target).toBeTruthy();
  await signIn(page);

  // More than 7 days is refused before anything is loaded, with the reason at the field.
  await page.goto(`/dashboard/live/route-history?vehicle=${target.uuid}`);
  await pageReady(page);
  await chooseDay(page, 'history-from', isoDay(-9));
  await chooseDay(page, 'history-to', isoDay(0));
  await expect(page.getByText('Choose a range of at most 7 days.')).toBeVisible();
  await expect(page.getByTestId('history-load')).toBeDisabled();

  // Yesterday and today: the simulated vehicle drove, so there is a route.
  await chooseDay(page, 'history-from', isoDay(-1));
  await page.getByTestId('history-load').click();
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
  await pageReady(page);
  await expect(page.getByTestId('history-count')).toBeVisible();
  const breakdown = page.getByTestId('history-breakdown');
  await expect(breakdown.getByRole('heading', { name: 'Trips and stops' })).toBeVisible();
  await expect(page.getByTestId('history-speed-chart').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('history-export-gpx')).toBeVisible();

  // Hovering the route line shows the nearest point's time and speed.
  const line = page.locator('.leaflet-overlay-pane path.leaflet-interactive').first();
  await expect(line).toBeVisible();
  const box = (await line.boundingBox())!;
  // Walk along the line's box until the pointer is on the stroke.
  let shown = false;
  for (let i = 1; i < 40 && !shown; i++) {
    const at = { x: box.x + (box.width * i) / 40, y: box.y + (box.height * i) / 40 };
    await page.mouse.move(at.x, at.y);
    shown = await page.locator('[data-slot="route-point-tooltip"]').isVisible();
  }
  if (!shown) {
    // Diagonal missed the stroke (a bent route): hover the path's own first point instead.
    const start = await line.evaluate((el) => {
      const p = (el as SVGPathElement).getPointAtLength(((el as SVGPathElement).getTotalLength() || 0) / 2);
      const r = (el as SVGPathElement).ownerSVGElement!.getBoundingClientRect();
      const m = (el as SVGPathElement).getScreenCTM();
      return m ? { x: p.x * m.a + m.e, y: p.y * m.d + m.f } : { x: r.x + p.x, y: r.y + p.y };
    });
    await page.mouse.move(start.x, start.y);
  }
  await expect(page.locator('[data-slot="route-point-tooltip"]')).toContainText(/km\/h/);

  // The speed chart's playback cursor: at the hovered point while the pointer is on the line...
  const marker = page.getByTestId('history-speed-chart').locator('[data-slot="chart-marker"]');
  await expect(marker).toBeVisible();
  const hovered = Number(await marker.getAttribute('data-time'));
  // ...and at the play head otherwise: the scrubber and the replay move it.
  await page.mouse.move(5, 5);
  const scrubber = page.locator('[data-slot="route-playback-scrubber"]');
  const min = Number(await scrubber.getAttribute('min'));
  const max = Number(await scrubber.getAttribute('max'));
  const mid = min + Math.round((max - min) / 2 / 1000) * 1000;
  await scrubber.fill(String(mid));
  await expect(marker).toHaveAttribute('data-time', String(mid));
  expect(hovered).not.toBe(mid);
  await page.locator('[data-slot="route-playback-toggle"]').click();
  await expect.poll(async () => Number(await marker.getAttribute('data-time'))).toBeGreaterThan(mid);
});

/** Arabic-Indic digits (both blocks): the portal writes Arabic with Latin digits (core intlLocale). */
const EASTERN_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/;

test("route history in Arabic on a phone: the days are written in Arabic with the portal's digits and chosen from its calendar", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const headers = await apiSession(request);
  const live = await request.get('/v1/vehicles/live?live_status=live&limit=50', { headers });
  const target = ((await live.json()) as { data: { uuid: string; location: unknown }[] }).data.find(
    (v) => v.location,
  )!;
  await signIn(page);
  await switchLanguage(page, 'ar');
  await page.goto(`/dashboard/live/route-history?vehicle=${target.uuid}&from=${isoDay(-1)}&to=${isoDay(0)}`);
  await pageReady(page);

  // The fields show the day as the rest of the Arabic portal writes dates: Arabic month names, Latin
  // digits (a native date input shows the browser's own mm/dd/yyyy instead).
  const arabicDay = (day: string) =>
    new Intl.DateTimeFormat('ar-u-nu-latn', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${day}T00:00:00Z`));
  const from = page.locator('#history-from');
  await expect(from).toHaveText(arabicDay(isoDay(-1)));
  await expect(page.locator('#history-to')).toHaveText(arabicDay(isoDay(0)));

  // Keyboard in the calendar follows the reading direction: ArrowRight is the day before in Arabic.
  await from.focus();
  await page.keyboard.press('Enter');
  const calendar = page.getByRole('dialog', { name: 'التقويم' });
  await expect(calendar).toBeVisible();
  await expect(calendar.getByRole('columnheader').first()).toHaveAttribute('abbr', 'السبت');
  await expect(page.locator(':focus')).toHaveAttribute('data-day', isoDay(-1));
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveAttribute('data-day', isoDay(-2));
  await page.keyboard.press('Enter');
  await expect(calendar).toBeHidden();
  await expect(from).toHaveText(arabicDay(isoDay(-2)));
  await expect(from).toBeFocused();

  await page.getByTestId('history-load').click();
  await expect(page).toHaveURL(new RegExp(`from=${isoDay(-2)}`));
  await pageReady(page);
  // Dates, times, counts and speeds on the page: no Arabic-Indic digit beside the Latin ones.
  await expect(page.getByTestId('history-count')).toBeVisible();
  expect(await page.getByTestId('route-history').innerText()).not.toMatch(EASTERN_DIGITS);
  // No sideways pan on the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
