/**
 * The contract's page envelope `{ data, total, current_page, last_page, per_page }`, built in one
 * place for every paged endpoint. `last_page` is at least 1 (an empty list is one empty page).
 */
export interface PageQuery {
  readonly page: number;
  readonly limit: number;
}

export interface PageMeta {
  total: number;
  current_page: number;
  last_page: number;
  per_page: number;
}

export function pageMeta(total: number, q: PageQuery): PageMeta {
  return {
    total,
    current_page: q.page,
    last_page: Math.max(1, Math.ceil(total / q.limit)),
    per_page: q.limit,
  };
}

export function page<T>(data: T[], total: number, q: PageQuery): { data: T[] } & PageMeta {
  return { data, ...pageMeta(total, q) };
}

/** The envelope around rows already serialised to a JSON array (answers sent as JSON text). */
export function pageEnvelopeJson(dataJson: string, total: number, q: PageQuery): string {
  return `{"data":${dataJson},${JSON.stringify(pageMeta(total, q)).slice(1)}`;
}
