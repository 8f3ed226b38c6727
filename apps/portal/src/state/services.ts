import { createApiClient, isApiError, type ApiClient, type ApiError } from '@fleet/api-client';
import { storageKeys, type KeyValueStorage } from '@fleet/core';
import { QueryCache, QueryClient, MutationCache } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { PageReadyFlag } from './page-ready';
import { SessionStore } from './session-store';
import { ToastQueue } from './toasts';

export interface AppServices {
  storage: KeyValueStorage;
  api: ApiClient;
  session: SessionStore;
  queryClient: QueryClient;
  toasts: ToastQueue;
  pageReady: PageReadyFlag;
  i18n: I18n;
}

export interface ServiceOptions {
  storage: KeyValueStorage;
  i18n: I18n;
  /** Client-side navigation (the router's navigate), used by the 401 and server-unreachable rules. */
  navigate: (to: string) => void;
  /** Current path, to come back after the server is reachable again. */
  currentPath: () => string;
  fetch?: typeof fetch;
  baseUrl?: string;
}

/** True when a failure means the API could not be reached at all. */
export function isUnreachable(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.failure.kind === 'no-response') return true;
  // The dev proxy answers 502/503/504 when the API process is down.
  return error.status === 502 || error.status === 503 || error.status === 504;
}

/**
 * Builds the app's services: the API client (same origin, headers from storage and the UI language),
 * the session, react-query with the global error rules (401 -> logout -> /login; unreachable API ->
 * /server-unreachable; other failures -> error toast), the toast queue and the page-ready flag.
 */
export function createServices(options: ServiceOptions): AppServices {
  const { storage, i18n, navigate } = options;
  const toasts = new ToastQueue();
  const pageReady = new PageReadyFlag((ready) => {
    if (typeof document !== 'undefined') document.documentElement.dataset.pageReady = String(ready);
  });

  // eslint-disable-next-line prefer-const -- assigned after the client that refers to it
  let session: SessionStore;
  let loggingOut = false;
  const onUnauthorized = (_error: ApiError) => {
    if (loggingOut) return;
    loggingOut = true;
    void session.logout({ remote: false }).finally(() => {
      loggingOut = false;
      navigate('/login');
    });
  };

  const api = createApiClient({
    baseUrl: options.baseUrl ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
    getToken: () => storage.getItem(storageKeys.accessToken),
    getTransportUuid: () => storage.getItem(storageKeys.transportUuid),
    getUserUuid: () => storage.getItem(storageKeys.userUuid),
    getLocale: () => i18n.language,
    onUnauthorized,
  });

  session = new SessionStore(storage, {
    login: async (input) => (await api.request('auth.login', { body: input })).data,
    me: async () => (await api.request('auth.me')).data,
    logout: () => api.request('auth.logout'),
    switchCompany: (uuid) => api.request('auth.switchCompany', { body: { transport_company_uuid: uuid } }),
  });

  const onError = (error: unknown) => {
    if (isApiError(error) && error.isUnauthorized) return; // handled by onUnauthorized
    if (isUnreachable(error)) {
      const from = options.currentPath();
      if (!from.startsWith('/server-unreachable'))
        navigate(`/server-unreachable?from=${encodeURIComponent(from)}`);
      return;
    }
    toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  };

  const queryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({
      // Forms show their own field errors; the global rule still handles 401 and an unreachable API.
      onError: (error) => {
        if (isUnreachable(error)) onError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !isApiError(error) && count < 1,
      },
    },
  });

  return { storage, api, session, queryClient, toasts, pageReady, i18n };
}
