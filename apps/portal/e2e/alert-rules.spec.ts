import { expect, test } from '@playwright/test';
import type { DecodedRecord } from '../../../packages/device-protocols/src/index';
import { pageReady, signIn, switchLanguage, unique } from './helpers';
import { apiSession, sendOverGateway } from './gateway-device';

/**
 * Alert rules end to end: an admin narrows the overspeed rule on the alert rules page (limit, minimum
 * duration, one vehicle), a Teltonika device of that vehicle reports a drive over the real gateway
 * (TCP, Codec 8E, acknowledged frames), and exactly one overspeed notification comes out of a stretch
 * that went over the limit, dipped under it for 20 s and went over again; when the vehicle slowed down
 * the notification was rewritten with the episode's duration and peak. The list then shows it in Arabic.
 */

test('an overspeed rule set on the page gives one de-duplicated notification for one stretch of road', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const headers = await apiSession(request);
  const imei = `35${String(Date.now()).slice(-13)}`;
  const plate = unique('AR');
  const device = await request.post('/v1/devices', { headers, data: { imei, type: 'teltonika' } });
  expect(device.ok(), await device.text()).toBe(true);
  const vehicle = await request.post('/v1/vehicles', {
    headers,
    data: { license_plate_number: plate, type: 'car', device_imei: imei },
  });
  expect(vehicle.ok(), await vehicle.text()).toBe(true);
  const vehicleUuid = ((await vehicle.json()) as { data: { uuid: string } }).data.uuid;

  // The page: narrow the overspeed rule to this vehicle, 90 km/h for at least 10 s.
  await signIn(page);
  await page.goto('/dashboard/settings/alert-rules');
  await pageReady(page);
  await page.getByTestId('alert-edit-overspeed').click();
  const editor = page.getByTestId('rule-editor-overspeed');
  await editor.getByTestId('rule-speed_limit').fill('90');
  await editor.getByTestId('rule-min_duration_seconds').fill('10');
  const vehicles = editor.getByTestId('rule-vehicles');
  await vehicles.getByRole('searchbox').fill(plate);
  await vehicles.getByRole('checkbox', { name: plate }).click();
  await page.getByTestId('rule-save').click();
  await expect(page.getByTestId('rule-editor-overspeed')).toBeHidden();
  const summary = page.getByTestId('alert-summary-overspeed');
  await expect(summary).toContainText('Over 90 km/h for 10 s');
  await expect(summary).toContainText('Vehicles: 1');
  await expect(page.getByTestId('alert-kind-overspeed')).toHaveAttribute('data-state', 'on');

  // The drive, 10 s apart, ending a minute ago: 1 min at 60, 2 min at 100-120, a 20 s dip to 70 (a
  // junction), 1 min at 115, then 2 min at 50 (longer than the 60 s that close an episode).
  const speeds = [
    ...Array(6).fill(60),
    ...Array.from({ length: 12 }, (_, i) => 100 + (i % 3) * 10),
    70,
    70,
    ...Array(6).fill(115),
    ...Array(12).fill(50),
  ] as number[];
  const start = Date.now() - (speeds.length + 6) * 10_000;
  let lat = 25.2;
  const records: DecodedRecord[] = speeds.map((speed, i) => {
    lat += ((speed / 3.6) * 10) / 111_000;
    return {
      imei,
      protocol: 'teltonika',
      fixTime: start + i * 10_000,
      valid: true,
      latitude: lat,
      longitude: 55.3,
      altitude: 10,
      speed,
      course: 0,
      satellites: 12,
      eventId: 0,
      io: { 239: 1, 240: 1 },
    };
  });
  await sendOverGateway(imei, records);

  const overspeed = async () => {
    const res = await request.get(`/v1/notifications?type=overspeed&vehicle_uuid=${vehicleUuid}&limit=50`, {
      headers,
    });
    return ((await res.json()) as { data: { message: string; violation_value: unknown }[] }).data;
  };
  // One notification, rewritten when the episode ended: its duration and its peak.
  await expect
    .poll(async () => (await overspeed()).map((n) => n.message), { timeout: 60_000 })
    .toEqual([`${plate} drove over the 90 km/h limit for 3 min, at up to 120 km/h.`]);
  expect(Number((await overspeed())[0]!.violation_value)).toBe(120);

  // The list in Arabic: the same single notification, in the reader's language.
  await page.goto('/dashboard/notifications');
  await pageReady(page);
  await switchLanguage(page, 'ar');
  const items = page.getByTestId('notification-item').filter({ hasText: plate });
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('بسرعة قصوى 120 كم/س');
});
