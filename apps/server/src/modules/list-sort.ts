import { HttpError } from '../http/errors';

/**
 * ORDER BY expression of a list's `sort` (an answer field name) from the list's allow-list; an unknown
 * name is refused with a 422 on the field, as the entity lists do, instead of being silently ignored.
 */
export function sortExpression(
  sort: string | undefined,
  allowed: Record<string, string>,
  fallback: string,
): string {
  if (sort === undefined) return allowed[fallback]!;
  const expr = allowed[sort];
  if (!expr) throw new HttpError(422, 'validation.general', {}, { sort: ['Please enter a valid Sort'] });
  return expr;
}
