/**
 * Fetch client of API v1 over the endpoint table.
 *
 * - Sends the five headers of spec section 7: Authorization (bearer), Timezone (IANA zone), X-Transport-Uuid,
 *   X-User-Uuid, X-Locale (en or ar). Headers whose value is unknown are left out.
 * - Validates every answer with its endpoint's response schema and returns the parsed value.
 * - Throws {@link ApiError} for every failure; its message comes from @fleet/core's `apiFailureMessage`
 *   (server message, else 'Error {status}: {status text}'; 'No response received from server' when the
 *   request got no answer). A 401 calls `onUnauthorized` (spec: it forces logout), except on the public
 *   endpoints (auth 'none'), where a 401 means wrong credentials rather than an expired session.
 * - `walkLocations` reads a vehicle's locations in pages of 500 until last_page; a failed page is logged and
 *   treated as the last (spec section 8).
 * - The configuration lists resolve to empty when their call fails (spec section 8).
 */
import { apiFailureMessage, fieldErrors, isUnauthorized, type ApiFailure } from '@fleet/core';
import {
  buildPath,
  buildQuery,
  endpoints,
  type EndpointBody,
  type EndpointDef,
  type EndpointName,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResponse,
  type QueryValue,
} from './endpoints';
import type { SupportedCommands } from './schemas/command';
import type { DeviceOption, Option } from './schemas/configuration';
import type { FileKind } from './schemas/files';
import {
  LOCATION_PAGE_SIZE,
  type LocationRecord,
  type VehicleLocationsQuery,
  type VehicleLocationsResponse,
} from './schemas/location';

export interface ApiLogger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

type Getter = () => string | null | undefined;

export interface ApiClientOptions {
  /** Origin (and optional prefix) of the API, e.g. 'https://api.example.com'; paths start with /v1. */
  baseUrl: string;
  /** fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  getToken: Getter;
  getTransportUuid: Getter;
  getUserUuid: Getter;
  /** UI locale ('en-US', 'ar', 'ar-AE' ...); sent as X-Locale 'ar' or 'en'. */
  getLocale: () => string;
  /** IANA time zone; the runtime's zone (Intl) by default. */
  getTimezone?: () => string;
  onUnauthorized: (error: ApiError) => void;
  /** Where failures that are swallowed (location pages, configuration lists) are logged; console by default. */
  logger?: ApiLogger;
}

/** X-Locale value for a UI locale: 'ar' for any Arabic locale, else 'en'. */
export function apiLocale(locale: string | null | undefined): 'en' | 'ar' {
  return /^ar(\b|[-_])/i.test(locale ?? '') ? 'ar' : 'en';
}

/** The runtime's IANA time zone. */
export function runtimeTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Every failure of a call. `failure` is the @fleet/core description the message was made from. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status, or null when no answer came. */
  readonly status: number | null;
  readonly statusText: string;
  /** Parsed JSON body of the answer (or its text when not JSON); undefined without an answer. */
  readonly body: unknown;
  /** `errors` of the error envelope: field -> messages (422). */
  readonly fieldErrors: Record<string, string[]>;
  readonly endpoint: string;
  readonly failure: ApiFailure;
  /** True when the answer came but did not match the contract. */
  readonly invalidResponse: boolean;

  constructor(init: {
    endpoint: string;
    failure: ApiFailure;
    message: string;
    status?: number | null;
    statusText?: string;
    body?: unknown;
    invalidResponse?: boolean;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.failure = init.failure;
    this.status = init.status ?? null;
    this.statusText = init.statusText ?? '';
    this.body = init.body;
    this.fieldErrors = fieldErrors(init.body);
    this.invalidResponse = init.invalidResponse ?? false;
  }

  get isUnauthorized(): boolean {
    return isUnauthorized(this.failure);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type Field<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : object extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type RequestOptions<N extends EndpointName> = Field<'params', EndpointParams<N>> &
  Field<'query', EndpointQuery<N>> &
  Field<'body', EndpointBody<N>> & { signal?: AbortSignal };

type RequestArgs<N extends EndpointName> =
  object extends RequestOptions<N> ? [options?: RequestOptions<N>] : [options: RequestOptions<N>];

/** Query of walkLocations: the vehicle and range; page and limit are the walker's. */
export type WalkLocationsQuery = Omit<VehicleLocationsQuery, 'page' | 'limit'>;

export interface ApiClient {
  /** Calls an endpoint of the table and returns its validated answer. */
  request<N extends EndpointName>(name: N, ...args: RequestArgs<N>): Promise<EndpointResponse<N>>;
  /** Absolute URL of an endpoint with its params and query. */
  url(
    name: EndpointName,
    params?: Record<string, string | number>,
    query?: Record<string, QueryValue>,
  ): string;
  /** Absolute URL of a stored file; `token` (the media token) lets <img> load it without headers. */
  fileUrl(kind: FileKind, name: string, token?: string): string;
  /**
   * All locations of a vehicle over a range, in pages of 500 until last_page. A failed page is logged and
   * treated as the last one: what was read so far is returned.
   */
  walkLocations(
    query: WalkLocationsQuery,
    onPage?: (records: LocationRecord[], page: VehicleLocationsResponse) => void,
    options?: { signal?: AbortSignal },
  ): Promise<LocationRecord[]>;
  /** Device options; [] when the call fails. */
  deviceOptions(): Promise<DeviceOption[]>;
  /** Vehicle type options; [] when the call fails. */
  vehicleTypes(): Promise<Option[]>;
  /** Plate state options of a country; [] when the call fails. */
  vehicleStates(countryCode: string): Promise<Option[]>;
  /** Commands per device type; {} when the call fails. */
  supportedCommands(): Promise<SupportedCommands>;
}

const consoleLogger: ApiLogger = {
  warn: (message, ...details) => console.warn(message, ...details),
  error: (message, ...details) => console.error(message, ...details),
};

interface LooseOptions {
  params?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

async function readBody(response: Response): Promise<{ body: unknown; json: boolean }> {
  const text = await response.text();
  if (text === '') return { body: undefined, json: true };
  try {
    return { body: JSON.parse(text) as unknown, json: true };
  } catch {
    return { body: text, json: false };
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const logger = options.logger ?? consoleLogger;
  const getTimezone = options.getTimezone ?? runtimeTimezone;
  const table = endpoints as Record<EndpointName, EndpointDef>;

  /** The endpoint's definition; a name outside the table (a caller choosing names at run time) throws. */
  function definition(name: EndpointName): EndpointDef {
    const def = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!def) throw new Error(`Unknown API endpoint "${String(name)}"`);
    return def;
  }

  function url(
    name: EndpointName,
    params?: Record<string, string | number>,
    query?: Record<string, QueryValue>,
  ) {
    return `${base}${buildPath(definition(name).path, params)}${buildQuery(query)}`;
  }

  function headersFor(def: EndpointDef, hasJsonBody: boolean): Headers {
    const headers = new Headers({ Accept: def.responseType === 'blob' ? '*/*' : 'application/json' });
    if (hasJsonBody) headers.set('Content-Type', 'application/json');
    const token = options.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const timezone = getTimezone();
    if (timezone) headers.set('Timezone', timezone);
    const transport = options.getTransportUuid();
    if (transport) headers.set('X-Transport-Uuid', transport);
    const user = options.getUserUuid();
    if (user) headers.set('X-User-Uuid', user);
    headers.set('X-Locale', apiLocale(options.getLocale()));
    return headers;
  }

  function fail(
    name: string,
    failure: ApiFailure,
    extra: {
      status?: number;
      statusText?: string;
      body?: unknown;
      invalidResponse?: boolean;
      cause?: unknown;
    } = {},
  ): ApiError {
    return new ApiError({
      endpoint: name,
      failure,
      message: apiFailureMessage(failure, options.getLocale()),
      ...extra,
    });
  }

  async function request(name: EndpointName, loose: LooseOptions = {}): Promise<unknown> {
    const def = definition(name);
    const target = url(name, loose.params, loose.query);
    const multipart = def.bodyType === 'multipart';
    const hasJsonBody = !multipart && loose.body !== undefined;
    const init: RequestInit = { method: def.method, headers: headersFor(def, hasJsonBody) };
    if (multipart) init.body = loose.body as FormData;
    else if (hasJsonBody) init.body = JSON.stringify(loose.body);
    if (loose.signal) init.signal = loose.signal;

    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(target, init);
    } catch (error) {
      // A deliberate abort is not a failure of the API: let the caller see its own AbortError.
      if (loose.signal?.aborted) throw error;
      throw fail(name, { kind: 'no-response' }, { cause: error });
    }

    if (!response.ok) {
      const { body } = await readBody(response);
      const failure: ApiFailure = {
        kind: 'response',
        status: response.status,
        statusText: response.statusText,
        body,
      };
      const error = fail(name, failure, { status: response.status, statusText: response.statusText, body });
      if (isUnauthorized(failure) && def.auth !== 'none') options.onUnauthorized(error);
      throw error;
    }

    let payload: unknown;
    if (def.responseType === 'blob') {
      payload = await response.blob();
    } else {
      const { body, json } = await readBody(response);
      if (!json) {
        throw invalid(name, response, body, new Error(`${name}: the answer is not JSON`));
      }
      payload = body;
    }
    const parsed = def.response.safeParse(payload);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
      throw invalid(
        name,
        response,
        payload,
        new Error(`${name}: unexpected answer from the server (${detail})`),
      );
    }
    return parsed.data;
  }

  function invalid(name: string, response: Response, body: unknown, error: Error): ApiError {
    return fail(
      name,
      { kind: 'error', error },
      { status: response.status, statusText: response.statusText, body, invalidResponse: true, cause: error },
    );
  }

  async function walkLocations(
    query: WalkLocationsQuery,
    onPage?: (records: LocationRecord[], page: VehicleLocationsResponse) => void,
    walkOptions: { signal?: AbortSignal } = {},
  ): Promise<LocationRecord[]> {
    const all: LocationRecord[] = [];
    for (let page = 1; ; page += 1) {
      let answer: VehicleLocationsResponse;
      try {
        answer = (await request('deviceLocations.vehicle', {
          query: { ...(query as Record<string, QueryValue>), page, limit: LOCATION_PAGE_SIZE },
          ...(walkOptions.signal ? { signal: walkOptions.signal } : {}),
        })) as VehicleLocationsResponse;
      } catch (error) {
        if (walkOptions.signal?.aborted) throw error;
        logger.error(`Failed to fetch locations page ${page}; treating it as the last page`, error);
        break;
      }
      all.push(...answer.data);
      onPage?.(answer.data, answer);
      if (page >= answer.last_page || answer.data.length === 0) break;
    }
    return all;
  }

  async function listOrEmpty<T>(name: EndpointName, params?: Record<string, string | number>): Promise<T[]> {
    try {
      const answer = (await request(name, params ? { params } : {})) as { data: { data: T[] } };
      return answer.data.data;
    } catch (error) {
      logger.warn(`Configuration list ${name} failed; using an empty list`, error);
      return [];
    }
  }

  return {
    request: request as ApiClient['request'],
    url,
    fileUrl(kind, name, token) {
      return url('files.show', { kind, name }, { token });
    },
    walkLocations,
    deviceOptions: () => listOrEmpty<DeviceOption>('configurations.devices'),
    vehicleTypes: () => listOrEmpty<Option>('configurations.vehicleTypes'),
    vehicleStates: (countryCode) =>
      listOrEmpty<Option>('configurations.vehicleStates', { country_code: countryCode }),
    async supportedCommands() {
      try {
        const answer = (await request('device.supportedCommands')) as { data: { data: SupportedCommands } };
        return answer.data.data;
      } catch (error) {
        logger.warn('Supported commands failed; using none', error);
        return {};
      }
    },
  };
}
