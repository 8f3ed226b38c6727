import type { ApiClient, Paginated } from '@fleet/api-client';

export type Row = Record<string, unknown> & { uuid: string };
export type ListAnswer = Paginated<Row>;

interface LooseOptions {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls an endpoint chosen at run time (the generic pages pick '<group>.list' etc. from the entity
 * registry). The answer is still validated by the client against the contract's response schema.
 */
export function requestByName<T = unknown>(
  api: ApiClient,
  name: string,
  options: LooseOptions = {},
): Promise<T> {
  const request = api.request as unknown as (name: string, options: LooseOptions) => Promise<T>;
  return request(name, options);
}

/** Query-string filters of a list page from URL search params (page, limit, search, status, enums). */
export function listQueryFromParams(
  params: URLSearchParams,
  allowed: readonly string[],
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const page = Number(params.get('page'));
  query.page = Number.isInteger(page) && page > 0 ? page : 1;
  const limit = Number(params.get('limit'));
  query.limit = [10, 15, 25, 50, 100].includes(limit) ? limit : 15;
  const search = params.get('search')?.trim();
  if (search) query.search = search.slice(0, 100);
  for (const key of allowed) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  return query;
}
