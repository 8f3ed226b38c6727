/** Concrete paths and query strings from the table's templates (client and server both use them). */
/**
 * Builds a concrete path from a template and its parameters: buildPath('/v1/vehicles/:uuid', {uuid}) ->
 * '/v1/vehicles/<uuid>'. Values are URI-encoded; a missing or empty parameter throws.
 */
export function buildPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '')
      throw new Error(`buildPath: missing parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
}

/** Names of the ':name' parameters of a template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] as string);
}

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/**
 * A query string ('?a=1&b=x', or '' when empty) from an object: undefined and null are left out, arrays
 * repeat the key.
 */
export function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
