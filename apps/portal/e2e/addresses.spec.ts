import { createServer, type Server } from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import type { DecodedRecord } from '../../../packages/device-protocols/src/index';
import { pageReady, signIn, switchLanguage, unique } from './helpers';
import { apiSession, createTrackedVehicle, sendOverGateway } from './gateway-device';

/**
 * Addresses end to end (issue 16): the server is started with GEOCODER_URL on a loopback port
 * (playwright.config.ts `geocoderPort`), and this spec runs a stand-in Nominatim-compatible geocoder
 * there: a real HTTP server answering GET /reverse?format=jsonv2&lat=&lon=&accept-language= with a
 * display_name in the asked language. A vehicle drives a short trip and parks through the real gateway;
 * its address then shows in the live list, in its details on the live map, in the trip list report
 * (start and end) and in the route history (trip and stop), in English and in Arabic, beside
 * coordinates that stay.
 */

const apiPort = Number(process.env.E2E_API_PORT ?? 18080);
const geocoderPort = Number(process.env.E2E_GEOCODER_PORT ?? apiPort + 2);

/** The stand-in's answer for a position: the language of `accept-language`, the position rounded. */
function standInAddress(lat: number, lon: number, lang: string): string {
  const where = `${lat.toFixed(3)} ${lon.toFixed(3)}`;
  return lang.startsWith('ar') ? `طريق الاختبار ${where}، دبي` : `Test Road ${where}, Dubai`;
}

let stand: Server;
const asked: string[] = [];

test.beforeAll(async () => {
  stand = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const lat = Number(url.searchParams.get('lat'));
    const lon = Number(url.searchParams.get('lon'));
    if (url.pathname !== '/reverse' || !Number.isFinite(lat) || !Number.isFinite(lon)) {
      res.writeHead(404).end();
      return;
    }
    const lang = url.searchParams.get('accept-language') ?? req.headers['accept-language'] ?? 'en';
    asked.push(`${lat},${lon},${lang}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ display_name: standInAddress(lat, lon, lang), lat: String(lat), lon: String(lon) }));
  });
  await new Promise<void>((resolve, reject) => {
    stand.once('error', reject);
    stand.listen(geocoderPort, '127.0.0.1', resolve);
  });
});
test.afterAll(() => new Promise<void>((resolve) => stand.close(() => resolve())));

function record(imei: string, at: number, lat: number, lng: number, speed: number, ignition: 0 | 1): DecodedRecord {
  return {
    imei,
    protocol: 'teltonika',
    fixTime: at,
    valid: true,
    latitude: lat,
    longitude: lng,
    altitude: 10,
    speed,
    course: 45,
    satellites: 12,
    eventId: 0,
    io: { 239: ignition, 240: speed > 0 ? 1 : 0 },
  };
}

const START = { lat: 25.2, lng: 55.27 };
const END = { lat: 25.26, lng: 55.31 };
/** Where it drives on to after the stop (a stop is recorded once the next trip begins). */
const ON = { lat: 25.27, lng: 55.33 };

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let vehicleUuid = '';
let plate = '';

test('a vehicle drives, parks and drives on (real gateway); the pipeline records its trips', async ({ request }) => {
  const headers = await apiSession(request);
  const imei = `35${String(Date.now()).slice(-13)}`;
  plate = unique('GEO');
  vehicleUuid = await createTrackedVehicle(request, headers, imei, plate);
  // 20 minutes of driving from START to END (a fix every 30 s), 12 minutes parked with the ignition
  // off, 4 minutes on to ON: two trips and the stop between them, all earlier today.
  const t0 = Date.now() - 40 * 60_000;
  const records: DecodedRecord[] = [];
  for (let i = 0; i <= 40; i++) {
    const f = i / 40;
    const lat = START.lat + (END.lat - START.lat) * f;
    const lng = START.lng + (END.lng - START.lng) * f;
    records.push(record(imei, t0 + i * 30_000, lat, lng, i === 0 ? 0 : 45, 1));
  }
  for (let k = 1; k <= 12; k++) records.push(record(imei, t0 + 20 * 60_000 + k * 60_000, END.lat, END.lng, 0, 0));
  // Then 4 minutes on to ON, where it is now.
  for (let k = 1; k <= 8; k++) {
    const f = k / 8;
    const lat = END.lat + (ON.lat - END.lat) * f;
    const lng = END.lng + (ON.lng - END.lng) * f;
    records.push(record(imei, t0 + 32 * 60_000 + k * 30_000, lat, lng, 45, 1));
  }
  await sendOverGateway(imei, records);
  const from = new Date(t0 - 3600_000).toISOString();
  const to = new Date(Date.now() + 60_000).toISOString();
  await expect
    .poll(
      async () => {
        const res = await request.get('/v1/reports/trip-list', {
          headers,
          params: { vehicle_uuid: vehicleUuid, from, to },
        });
        return ((await res.json()) as { data?: unknown[] }).data?.length ?? 0;
      },
      { timeout: 90_000, intervals: [1000, 2000, 3000] },
    )
    .toBeGreaterThan(0);
});

async function seeAddresses(page: Page, lang: 'en' | 'ar') {
  const start = standInAddress(START.lat, START.lng, lang);
  const end = standInAddress(END.lat, END.lng, lang);
  const now = standInAddress(ON.lat, ON.lng, lang);

  // Live list: the vehicle's row carries the address of where it is now, coordinates too.
  await page.goto('/dashboard/live/list');
  await pageReady(page);
  const search = page.locator('input[type="search"]').first();
  if (await search.count()) await search.fill(plate);
  const row = page.locator('[data-slot="data-table"] tr, [data-slot="data-table-card"]').filter({ hasText: plate });
  await expect(row.first()).toBeVisible({ timeout: 30_000 });
  await expect(row.first().getByTestId('place-address')).toHaveText(now);

  // Its details on the live map.
  await page.goto(`/dashboard/live?vehicle=${vehicleUuid}`);
  await pageReady(page);
  const card = page.getByTestId('vehicle-summary');
  await expect(card).toContainText(plate);
  await expect(card.getByTestId('vehicle-address')).toHaveText(now);
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.27000, 55.33000');

  // The trip list report: start and end of the trip, each above its coordinates. The first answer
  // may come before the geocoder (the page never waits long on it): the next load has them.
  const report = page.getByTestId('report-trip-list');
  await expect(async () => {
    await page.goto(`/dashboard/reports/trip-list?range=today&vehicle=${vehicleUuid}`);
    await pageReady(page);
    const table = report.getByTestId('report-table');
    await expect(table).toBeVisible();
    await expect(table.getByTestId('place-address').filter({ hasText: start }).first()).toBeVisible({ timeout: 3000 });
    await expect(table.getByTestId('place-address').filter({ hasText: end }).first()).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 45_000 });
  await expect(report.getByTestId('report-table')).toContainText('25.20000, 55.27000');

  // Route history of today: the trip with its start and end, the stop where it parked.
  await page.goto(`/dashboard/live/route-history?vehicle=${vehicleUuid}`);
  await pageReady(page);
  const trip = page.getByTestId('history-trip').first();
  await expect(trip.getByTestId('place-address').filter({ hasText: start })).toBeVisible();
  await expect(trip.getByTestId('place-address').filter({ hasText: end })).toBeVisible();
  // The stop's address comes with the stops report (the server's lookup, bounded in time): a load
  // before the geocoder answered has none yet, the next has it.
  await expect(async () => {
    await page.goto(`/dashboard/live/route-history?vehicle=${vehicleUuid}`);
    await pageReady(page);
    await expect(page.getByTestId('history-stop').first().getByTestId('place-address')).toHaveText(end, {
      timeout: 3000,
    });
  }).toPass({ timeout: 45_000 });
}

test('addresses in the live list, vehicle details, trip list and route history, in English', async ({ page }) => {
  await signIn(page);
  await switchLanguage(page, 'en-US');
  await seeAddresses(page, 'en');
});

test('the same in Arabic, asked of the geocoder in Arabic', async ({ page }) => {
  await signIn(page);
  await switchLanguage(page, 'ar');
  await seeAddresses(page, 'ar');
  expect(asked.some((a) => a.endsWith(',ar'))).toBe(true);
  expect(asked.some((a) => a.endsWith(',en'))).toBe(true);
});
