// The fetch client against a real HTTP server (node:http on port 0) in the test process.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { U1, U2, company, device, location, page, user } from '../test/fixtures';
import {
  ApiError,
  apiLocale,
  createApiClient,
  isApiError,
  runtimeTimezone,
  type ApiClientOptions,
} from './client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
const routes = new Map<string, Handler>();

function json(status: number, body: unknown, statusText?: string): Handler {
  return (_req, res) => {
    res.writeHead(status, statusText ?? '', { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

function route(method: string, path: string, handler: Handler) {
  routes.set(`${method} ${path}`, handler);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0];
      const handler = routes.get(`${req.method} ${path}`);
      if (handler) handler(req, res, body);
      else json(404, { message: 'Not found' })(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
  routes.clear();
});

function makeClient(overrides: Partial<ApiClientOptions> = {}) {
  const logger = { warn: vi.fn(), error: vi.fn() };
  const onUnauthorized = vi.fn();
  const client = createApiClient({
    baseUrl,
    getToken: () => 'tok-123',
    getTransportUuid: () => U1,
    getUserUuid: () => U2,
    getLocale: () => 'ar-AE',
    getTimezone: () => 'Asia/Dubai',
    onUnauthorized,
    logger,
    ...overrides,
  });
  return { client, logger, onUnauthorized };
}

const lastSeen = () => seen[seen.length - 1] as Seen;

/** The error a call rejected with (fails the test when it resolved). */
async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  return error as ApiError;
}

describe('headers and request shape', () => {
  it('sends the five headers of spec section 7 and parses the answer', async () => {
    route('GET', '/v1/auth', json(200, { data: { user, transport_companies: [company] } }));
    const { client } = makeClient();
    const answer = await client.request('auth.me');
    expect(answer.data.user.permissions).toEqual(['vehicles.create']);
    expect(answer.data.transport_companies[0]?.features.emergency_driver_alert_enabled).toBe(true);
    const { headers, method, url } = lastSeen();
    expect([method, url]).toEqual(['GET', '/v1/auth']);
    expect(headers).toMatchObject({
      authorization: 'Bearer tok-123',
      timezone: 'Asia/Dubai',
      'x-transport-uuid': U1,
      'x-user-uuid': U2,
      'x-locale': 'ar',
      accept: 'application/json',
    });
    expect(headers['content-type']).toBeUndefined();
  });

  it('leaves out headers whose value is unknown and defaults the time zone to the runtime zone', async () => {
    route('POST', '/v1/login', json(200, { data: { token: 't', media_app_token: 'm', user } }));
    const { client } = makeClient({
      getToken: () => null,
      getTransportUuid: () => undefined,
      getUserUuid: () => '',
      getLocale: () => 'en-US',
      getTimezone: undefined,
    });
    const answer = await client.request('auth.login', {
      body: { email: 'demo@fleet.test', password: 'demo12345' },
    });
    expect(answer.data.token).toBe('t');
    const { headers, body } = lastSeen();
    expect(headers.authorization).toBeUndefined();
    expect(headers['x-transport-uuid']).toBeUndefined();
    expect(headers['x-user-uuid']).toBeUndefined();
    expect(headers['x-locale']).toBe('en');
    expect(headers.timezone).toBe(runtimeTimezone());
    expect(headers['content-type']).toBe('application/json');
    expect(JSON.parse(body)).toEqual({ email: 'demo@fleet.test', password: 'demo12345' });
  });

  it('fills path parameters and the query string', async () => {
    route('GET', `/v1/devices/${U2}/commands`, json(200, page([])));
    route('PATCH', `/v1/vehicles/${U1}/status`, json(200, { data: { uuid: U1 } }));
    const { client } = makeClient();
    await client.request('devices.commandList', {
      params: { uuid: U2 },
      query: { page: 2, type: 'get_gps', search: undefined },
    });
    expect(lastSeen().url).toBe(`/v1/devices/${U2}/commands?page=2&type=get_gps`);
    await expect(
      client.request('vehicles.status', { params: { uuid: U1 }, body: { status: 'maintenance' } }),
    ).rejects.toMatchObject({ invalidResponse: true });
    expect(lastSeen()).toMatchObject({ method: 'PATCH', body: '{"status":"maintenance"}' });
  });

  it('builds absolute URLs, including file URLs with the media token', () => {
    const { client } = makeClient();
    expect(client.url('vehicles.show', { uuid: U1 })).toBe(`${baseUrl}v1/vehicles/${U1}`);
    expect(client.fileUrl('avatars', 'a1.png', 'media')).toBe(`${baseUrl}v1/file/avatars/a1.png?token=media`);
    expect(client.fileUrl('exports', 'r.csv')).toBe(`${baseUrl}v1/file/exports/r.csv`);
  });

  it('uploads multipart bodies and downloads files as blobs', async () => {
    route('POST', '/v1/files/avatars', (req, res) => {
      json(200, {
        data: {
          kind: 'avatars',
          name: 'abc.png',
          url: '/v1/file/avatars/abc.png',
          size: 3,
          content_type: String(req.headers['content-type']).split(';')[0],
          created_at: '2026-11-21T09:00:00Z',
        },
      })(req, res, '');
    });
    route('GET', '/v1/file/avatars/abc.png', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(Buffer.from([1, 2, 3]));
    });
    const { client } = makeClient();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
    const uploaded = await client.request('files.upload', { params: { kind: 'avatars' }, body: form });
    expect(uploaded.data.content_type).toBe('multipart/form-data');
    expect(lastSeen().body).toContain('filename="a.png"');

    const blob = await client.request('files.show', { params: { kind: 'avatars', name: 'abc.png' } });
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(lastSeen().headers.accept).toBe('*/*');
  });

  it.each([
    ['ar', 'ar'],
    ['ar-SA', 'ar'],
    ['AR_ae', 'ar'],
    ['en-US', 'en'],
    ['arn', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('X-Locale for %j is %s', (locale, expected) => {
    expect(apiLocale(locale)).toBe(expected);
  });
});

describe('errors', () => {
  it('carries status, body, field errors and the server message for a 422', async () => {
    const body = { message: 'The given data was invalid.', errors: { imei: ['IMEI is required'] } };
    route('POST', '/v1/devices', json(422, body, 'Unprocessable Entity'));
    const { client, onUnauthorized } = makeClient();
    const error = await client
      .request('devices.create', { body: { imei: '', type: 'teltonika' } })
      .catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ApiError',
      message: 'The given data was invalid.',
      status: 422,
      statusText: 'Unprocessable Entity',
      body,
      fieldErrors: { imei: ['IMEI is required'] },
      endpoint: 'devices.create',
      invalidResponse: false,
      isUnauthorized: false,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("falls back to 'Error {status}: {status text}' without a server message, also for non-JSON bodies", async () => {
    route('GET', '/v1/vehicles', json(500, {}, 'Internal Server Error'));
    route('GET', '/v1/drivers', (_req, res) => {
      res.writeHead(502, 'Bad Gateway', { 'Content-Type': 'text/html' });
      res.end('<html>bad gateway</html>');
    });
    const { client } = makeClient({ getLocale: () => 'en-US' });
    await expect(client.request('vehicles.list')).rejects.toMatchObject({
      message: 'Error 500: Internal Server Error',
      status: 500,
    });
    await expect(client.request('drivers.list', { query: { page: 1 } })).rejects.toMatchObject({
      message: 'Error 502: Bad Gateway',
      body: '<html>bad gateway</html>',
      fieldErrors: {},
    });
  });

  it('calls onUnauthorized on a 401 of a signed-in call, not on a public one', async () => {
    route('GET', '/v1/auth', json(401, { message: 'Unauthenticated.' }, 'Unauthorized'));
    route(
      'POST',
      '/v1/login',
      json(401, { message: 'These credentials do not match our records.' }, 'Unauthorized'),
    );
    const { client, onUnauthorized } = makeClient();
    const error = await caught(client.request('auth.me'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, isUnauthorized: true, message: 'Unauthenticated.' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledWith(error);

    await expect(
      client.request('auth.login', { body: { email: 'a@b.co', password: 'x' } }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("reports 'No response received from server' when the connection drops without an answer", async () => {
    route('GET', '/v1/auth', (req) => req.socket.destroy());
    const { client } = makeClient({ getLocale: () => 'en' });
    const error = await caught(client.request('auth.me'));
    expect(error).toMatchObject({
      message: 'No response received from server',
      status: null,
      failure: { kind: 'no-response' },
    });
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('refuses answers that break the contract, naming the field', async () => {
    route('GET', `/v1/devices/${U1}`, json(200, { data: { ...device, type: 'acme' } }));
    route('GET', '/v1/stations', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
    const { client } = makeClient();
    const error = await caught(client.request('devices.show', { params: { uuid: U1 } }));
    expect(error.invalidResponse).toBe(true);
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/^devices\.show: unexpected answer from the server \(data\.type: /);
    await expect(client.request('stations.list')).rejects.toMatchObject({
      invalidResponse: true,
      message: 'stations.list: the answer is not JSON',
    });
  });

  it('refuses an empty answer where a body is expected', async () => {
    route('DELETE', '/v1/logout', (_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const { client } = makeClient();
    await expect(client.request('auth.logout')).rejects.toMatchObject({ invalidResponse: true, status: 204 });
  });

  it('lets an aborted request reject with the abort error itself', async () => {
    route('GET', '/v1/auth', () => {
      /* never answers */
    });
    const { client } = makeClient();
    const controller = new AbortController();
    const pending = client.request('auth.me', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect(isApiError(error)).toBe(false);
    expect((error as Error).name).toBe('AbortError');
  });

  it('refuses a name outside the table with a clear error, without a request', async () => {
    const { client } = makeClient();
    const loose = client.request as unknown as (name: string) => Promise<unknown>;
    await expect(loose('vehicles.explode')).rejects.toThrow('Unknown API endpoint "vehicles.explode"');
    await expect(loose('toString')).rejects.toThrow('Unknown API endpoint "toString"');
    expect(seen).toHaveLength(0);
  });

  it('uses an injected fetch', async () => {
    const fetchSpy = vi.fn((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
    route('POST', '/v1/notifications/read-all', json(200, { data: { updated: 3 } }));
    const { client } = makeClient({ fetch: fetchSpy as typeof fetch });
    const answer = await client.request('notifications.readAll');
    expect(answer.data.updated).toBe(3);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });
});

describe('walkLocations', () => {
  const pathName = '/v1/device-locations/vehicle/locations';
  function pages(lastPage: number, failOn?: number): Handler {
    return (req, res, body) => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const current = Number(query.get('page'));
      if (current === failOn) {
        json(500, { message: 'boom' })(req, res, body);
        return;
      }
      const records = [0, 1].map((i) => ({ ...location, speed: current * 10 + i }));
      json(200, {
        data: records,
        total: lastPage * 2,
        current_page: current,
        last_page: lastPage,
        per_page: 500,
      })(req, res, body);
    };
  }

  it('reads pages of 500 until last_page, reporting each page', async () => {
    route('GET', pathName, pages(3));
    const { client, logger } = makeClient();
    const onPage = vi.fn();
    const records = await client.walkLocations(
      { vehicle_uuid: U1, from: '2026-11-20T00:00:00Z', to: '2026-11-21T00:00:00Z' },
      onPage,
    );
    expect(records.map((r) => r.speed)).toEqual([10, 11, 20, 21, 30, 31]);
    expect(onPage).toHaveBeenCalledTimes(3);
    expect(onPage.mock.calls[2]?.[1]).toMatchObject({ current_page: 3, last_page: 3 });
    expect(seen.map((s) => new URL(s.url, 'http://x').searchParams.toString())).toEqual([
      `vehicle_uuid=${U1}&from=2026-11-20T00%3A00%3A00Z&to=2026-11-21T00%3A00%3A00Z&page=1&limit=500`,
      `vehicle_uuid=${U1}&from=2026-11-20T00%3A00%3A00Z&to=2026-11-21T00%3A00%3A00Z&page=2&limit=500`,
      `vehicle_uuid=${U1}&from=2026-11-20T00%3A00%3A00Z&to=2026-11-21T00%3A00%3A00Z&page=3&limit=500`,
    ]);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs a failed page and treats it as the last one', async () => {
    route('GET', pathName, pages(4, 2));
    const { client, logger } = makeClient();
    const records = await client.walkLocations({ vehicle_uuid: U1 });
    expect(records.map((r) => r.speed)).toEqual([10, 11]);
    expect(seen).toHaveLength(2);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]?.[0]).toContain('page 2');
    expect(logger.error.mock.calls[0]?.[1]).toBeInstanceOf(ApiError);
  });

  it('returns nothing when the first page fails, and stops at an empty page', async () => {
    route('GET', pathName, pages(2, 1));
    const { client } = makeClient();
    expect(await client.walkLocations({ vehicle_uuid: U1 })).toEqual([]);

    routes.clear();
    seen.length = 0;
    route('GET', pathName, json(200, { data: [], total: 0, current_page: 1, last_page: 9, per_page: 500 }));
    expect(await client.walkLocations({ vehicle_uuid: U1 })).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('rethrows when the walk is aborted', async () => {
    route('GET', pathName, () => {
      /* never answers */
    });
    const { client, logger } = makeClient();
    const controller = new AbortController();
    const pending = client.walkLocations({ vehicle_uuid: U1 }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('configuration lists', () => {
  const option = { value: 'DXB', label: 'Dubai', label_ar: 'دبي' };
  const deviceOption = {
    value: '356307042441013',
    label: '356307042441013',
    uuid: U1,
    imei: '356307042441013',
    type: 'teltonika',
    assigned: false,
  };

  it('read {data: {data: [...]}}', async () => {
    route('GET', '/v1/configurations/options/devices', json(200, { data: { data: [deviceOption] } }));
    route(
      'GET',
      '/v1/configurations/options/vehicle-types',
      json(200, { data: { data: [{ value: 'bus', label: 'Bus' }] } }),
    );
    route('GET', '/v1/configurations/options/vehicle/states/AE', json(200, { data: { data: [option] } }));
    route(
      'GET',
      '/v1/device/commands/supported',
      json(200, { data: { data: { teltonika: ['immobilize', 'reset'] } } }),
    );
    const { client } = makeClient();
    expect(await client.deviceOptions()).toEqual([deviceOption]);
    expect(await client.vehicleTypes()).toEqual([{ value: 'bus', label: 'Bus' }]);
    expect(await client.vehicleStates('AE')).toEqual([option]);
    expect(await client.supportedCommands()).toEqual({ teltonika: ['immobilize', 'reset'] });
  });

  it('fall back to empty when their call fails', async () => {
    route('GET', '/v1/configurations/options/devices', json(500, { message: 'down' }));
    route('GET', '/v1/configurations/options/vehicle-types', json(200, { data: [] }));
    route('GET', '/v1/device/commands/supported', json(503, {}));
    const { client, logger } = makeClient();
    expect(await client.deviceOptions()).toEqual([]);
    expect(await client.vehicleTypes()).toEqual([]);
    expect(await client.vehicleStates('SA')).toEqual([]);
    expect(await client.supportedCommands()).toEqual({});
    expect(logger.warn).toHaveBeenCalledTimes(4);
  });
});

describe('typing', () => {
  it('requires params where the path has them and types the answers', async () => {
    route('GET', `/v1/vehicles/${U1}`, json(404, { message: 'Vehicle not found' }));
    const { client } = makeClient();
    // @ts-expect-error params are required for a ':uuid' path
    await expect(client.request('vehicles.show')).rejects.toThrow();
    await expect(client.request('vehicles.show', { params: { uuid: U1 } })).rejects.toThrow(
      'Vehicle not found',
    );
  });
});

describe('default logger', () => {
  it('logs swallowed failures to the console', async () => {
    route('GET', '/v1/configurations/options/vehicle-types', json(500, {}));
    route('GET', '/v1/device-locations/vehicle/locations', json(500, {}));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createApiClient({
      baseUrl,
      getToken: () => null,
      getTransportUuid: () => null,
      getUserUuid: () => null,
      getLocale: () => 'en',
      onUnauthorized: () => undefined,
    });
    expect(await client.vehicleTypes()).toEqual([]);
    expect(await client.walkLocations({ vehicle_uuid: U1 })).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledTimes(1);
  });
});
