// A contract-shaped stand-in for the API used by the live-map benchmark (and handy for local UI work
// without the server): Playwright routes /v1 and a WebSocket on /ws to it. Every answer matches the
// @fleet/api-client response schemas, because the client validates them.
const hex = (n, width) => n.toString(16).padStart(width, '0');
export const uuid = (kind, n) =>
  `${hex(kind, 8)}-${hex(n >>> 16, 4)}-4${hex(n & 0xfff, 3)}-8${hex(n % 4096, 3)}-${hex(n, 12)}`;

export const USER_UUID = uuid(1, 1);
export const COMPANY_UUID = uuid(2, 1);
const iso = (ms) => new Date(ms).toISOString();

export const user = {
  uuid: USER_UUID,
  name: 'Bench User',
  email: 'bench@fleet.test',
  phone: null,
  role: null,
  status: 'active',
  user_type: 'super_admin',
  permissions: [],
};
export const company = {
  uuid: COMPANY_UUID,
  name: 'Bench Transport',
  country_code: 'AE',
  settings: {},
  configurations: {},
  features: { emergency_driver_alert_enabled: true },
};

const CENTER = [25.2048, 55.2708];

/** A deterministic position for vehicle i at tick t (a small circle around a spread-out home). */
export function position(i, t) {
  const angle = (i * 137.5 * Math.PI) / 180;
  const radius = 0.02 + (i % 50) * 0.004;
  const lat = CENTER[0] + Math.sin(angle) * radius + Math.sin(t / 10 + i) * 0.0005;
  const lng = CENTER[1] + Math.cos(angle) * radius + Math.cos(t / 10 + i) * 0.0005;
  return [lat, lng];
}

export function location(i, t, now) {
  const [latitude, longitude] = position(i, t);
  return {
    created_at: iso(now),
    ignition: i % 5 === 0 ? 0 : 1,
    is_idle: i % 5 === 0,
    latitude,
    longitude,
    speed: (i * 7) % 90,
    io_elements: {},
    digital_output1: 0,
    digital_output2: 0,
    heading: (i * 13) % 360,
  };
}

export function liveVehicles(count, now) {
  const data = [];
  for (let i = 0; i < count; i += 1) {
    data.push({
      uuid: uuid(3, i + 1),
      license_plate_number: `${10000 + i}`,
      license_plate_state_code: 'DXB',
      license_plate_category: String.fromCharCode(65 + (i % 26)),
      type: ['bus', 'car', 'truck', 'motorcycle'][i % 4],
      make: null,
      model: null,
      status: 'active',
      device_imei: null,
      gps_device_imei: null,
      driver: null,
      location: location(i, 0, now),
      live_status: i % 5 === 0 ? 'idle' : 'live',
      idle_minutes: i % 5 === 0 ? 3 : null,
    });
  }
  const idle = data.filter((v) => v.live_status === 'idle').length;
  return {
    data,
    total: count,
    current_page: 1,
    last_page: 1,
    per_page: 5000,
    counts: { all: count, live: count - idle, idle, offline: 0, inactive: 0, 'no-data': 0 },
  };
}

const json = (body, status = 200) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** Answers one API request of the portal. */
export function answer(method, path, { vehicles, now }) {
  if (method === 'POST' && path === '/v1/login')
    return json({ data: { token: 'bench-token', media_app_token: 'bench-media', user } });
  if (path === '/v1/auth') return json({ data: { user, transport_companies: [company] } });
  if (path === '/v1/vehicles/live') return json(liveVehicles(vehicles, now()));
  if (path === '/v1/notifications/unread-count') return json({ data: { count: 0 } });
  return json({ message: 'Not found' }, 404);
}
