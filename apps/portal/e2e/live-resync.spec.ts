import { expect, test, type WebSocketRoute } from '@playwright/test';
import type { DecodedRecord } from '../../../packages/device-protocols/src/index';
import { pageReady, signIn, unique } from './helpers';
import { apiSession, createTrackedVehicle, sendOverGateway } from './gateway-device';

/**
 * Issue 22: the portal catches up after a gap in the live stream. A vehicle drives (real gateway, TCP),
 * its card is open on the live map; then the browser loses the network and its WebSocket (the socket is
 * closed under it and every new one refused, as a dead Wi-Fi would), the vehicle stops elsewhere with the
 * ignition off meanwhile, and nothing of that reaches the page. When the network comes back the card
 * shows the new position and status within seconds, without a reload and without the device reporting
 * again.
 */

function record(imei: string, at: number, latitude: number, speed: number, ignition: 0 | 1): DecodedRecord {
  return {
    imei,
    protocol: 'teltonika',
    fixTime: at,
    valid: true,
    latitude,
    longitude: 55.31,
    altitude: 10,
    speed,
    course: 90,
    satellites: 12,
    eventId: 0,
    io: { 239: ignition, 240: speed > 0 ? 1 : 0 },
  };
}

test('after a socket gap the live card catches up with where the vehicle went and its status', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await apiSession(request);
  const imei = `35${String(Date.now()).slice(-13)}`;
  const plate = unique('RS');
  const vehicleUuid = await createTrackedVehicle(request, headers, imei, plate);
  await sendOverGateway(imei, [record(imei, Date.now() - 20_000, 25.1, 42, 1)]);

  // Every WebSocket of the page goes through here: passed to the server, or refused while "cut".
  let cut = false;
  const open: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  let connections = 0;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    if (cut) {
      void ws.close({ code: 1001, reason: 'network lost' });
      return;
    }
    connections += 1;
    open.push({ page: ws, server: ws.connectToServer() });
  });

  await signIn(page);
  await page.goto(`/dashboard/live?vehicle=${vehicleUuid}`);
  await pageReady(page);
  const card = page.getByTestId('vehicle-summary');
  await expect(card).toContainText(plate);
  await expect(card).toHaveAttribute('data-status', 'live');
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.10000, 55.31000');
  await expect(card).toContainText('42 km/h');
  await expect.poll(() => connections).toBeGreaterThan(0);

  // The gap: offline, the socket closed under the page, new sockets refused.
  cut = true;
  await context.setOffline(true);
  for (const ws of open.splice(0)) {
    await ws.server.close();
    await ws.page.close({ code: 1001, reason: 'network lost' });
  }
  // Meanwhile the vehicle drives on and stops with the ignition off (through the real gateway).
  await sendOverGateway(imei, [
    record(imei, Date.now() - 12_000, 25.15, 60, 1),
    record(imei, Date.now() - 4_000, 25.2, 0, 0),
  ]);
  // The page heard nothing of it.
  await page.waitForTimeout(1500);
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.10000, 55.31000');
  await expect(card).toHaveAttribute('data-status', 'live');

  // The network is back: within seconds (well under the 15 s retry of the socket) the card has caught up.
  const before = connections;
  cut = false;
  await context.setOffline(false);
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.20000, 55.31000', { timeout: 5000 });
  await expect(card).toHaveAttribute('data-status', 'offline', { timeout: 5000 });
  await expect(card).toContainText('0 km/h');
  await expect(card).toContainText(plate); // the same card: the map never emptied
  // ... and the stream is live again: the socket was re-opened at once and carries the next report.
  await expect.poll(() => connections, { timeout: 5000 }).toBeGreaterThan(before);
  await sendOverGateway(imei, [record(imei, Date.now() - 1_000, 25.25, 30, 1)]);
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.25000, 55.31000', { timeout: 5000 });
  await expect(card).toHaveAttribute('data-status', 'live');
});

test('a socket the server dropped (no network change) catches up when the retry reconnects', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await apiSession(request);
  const imei = `35${String(Date.now()).slice(-13)}`;
  const plate = unique('RC');
  const vehicleUuid = await createTrackedVehicle(request, headers, imei, plate);
  await sendOverGateway(imei, [record(imei, Date.now() - 20_000, 25.3, 35, 1)]);

  let cut = false;
  const open: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  await page.routeWebSocket(/\/ws\//, (ws) => {
    if (cut) {
      void ws.close({ code: 1001, reason: 'server away' });
      return;
    }
    open.push({ page: ws, server: ws.connectToServer() });
  });
  await signIn(page);
  await page.goto(`/dashboard/live?vehicle=${vehicleUuid}`);
  await pageReady(page);
  const card = page.getByTestId('vehicle-summary');
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.30000, 55.31000');
  await expect.poll(() => open.length).toBeGreaterThan(0);

  // The server side goes away (a restart, a load balancer dropping the connection); the browser stays online.
  cut = true;
  for (const ws of open.splice(0)) {
    await ws.server.close();
    await ws.page.close({ code: 1001, reason: 'server away' });
  }
  await sendOverGateway(imei, [record(imei, Date.now() - 3_000, 25.35, 0, 0)]);
  cut = false;
  // The client retries every 15 s (spec); the reconnect itself fetches the list again.
  await expect(card.getByTestId('vehicle-coordinates')).toHaveText('25.35000, 55.31000', { timeout: 25_000 });
  await expect(card).toHaveAttribute('data-status', 'offline');
  expect(open.length).toBeGreaterThan(0);
});
