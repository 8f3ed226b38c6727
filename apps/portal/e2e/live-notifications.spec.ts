import { expect, test } from '@playwright/test';
import type { DecodedRecord } from '../../../packages/device-protocols/src/index';
import { pageReady, signIn, unique } from './helpers';
import { apiSession, createTrackedVehicle, sendOverGateway } from './gateway-device';

/**
 * A notification made by the server from a device's report reaches the open page over the WebSocket:
 * a toast with its title, the unread badge goes up, and the list shows it without a reload. Nothing is
 * injected past the gateway: a Teltonika device of a new vehicle presses its emergency button (IO 251
 * goes 0 -> 1) over TCP, and the demo's "Emergency button" rule raises the alert in the pipeline.
 *
 * The spec used to wait for the simulated fleet to raise one by chance (an emergency press or an
 * overspeed episode on a highway route): on a loaded CI machine none came within 150 s, so it failed
 * without anything being wrong. Its own device makes the wait a matter of seconds.
 */
test('a live alert from a device arrives as a toast and bumps the unread badge', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await apiSession(request);
  const imei = `35${String(Date.now()).slice(-13)}`;
  const plate = unique('SOS');
  await createTrackedVehicle(request, headers, imei, plate);

  await signIn(page);
  await page.goto('/dashboard/notifications');
  await pageReady(page);
  const badge = page.getByTestId('notification-badge');
  const unreadBefore = (await badge.count()) > 0 ? Number((await badge.innerText()).replace(/\D/g, '')) : 0;

  const now = Date.now();
  const record = (fixTime: number, pressed: 0 | 1): DecodedRecord => ({
    imei,
    protocol: 'teltonika',
    fixTime,
    valid: true,
    latitude: 25.2048,
    longitude: 55.2708,
    altitude: 10,
    speed: 0,
    course: 0,
    satellites: 12,
    eventId: pressed ? 251 : 0,
    priority: pressed ? 2 : 0,
    io: { 239: 1, 240: 0, 251: pressed },
  });
  await sendOverGateway(imei, [record(now - 20_000, 0), record(now - 10_000, 1)]);

  // Only the socket's notification handler shows a warning toast on this page. The simulated fleet may
  // raise one of its own meanwhile: the one wanted names this vehicle.
  const toast = page
    .locator('[data-slot="toast"][data-variant="warning"]')
    .filter({ hasText: plate })
    .first();
  await expect(toast).toBeVisible({ timeout: 60_000 });
  const title = (await toast.locator('[data-slot="toast-message"]').innerText()).trim();
  expect(title.length).toBeGreaterThan(0);

  if (unreadBefore < 99) {
    await expect
      .poll(async () => Number((await badge.innerText()).replace(/\D/g, '')))
      .toBeGreaterThan(unreadBefore);
  }
  // The list was refreshed by the same event: the new notification is there.
  await expect(page.getByTestId('notification-item').filter({ hasText: plate }).first()).toBeVisible();
});
