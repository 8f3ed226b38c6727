import type { TransportCompanyLike } from '../permissions/permissions';
import { sessionStorageKeys, storageKeys, type KeyValueStorage } from './storage';

/** What the sign-in answer provides (spec section 7: token, media_app_token and a user uuid). */
export interface SignInResult {
  token: string;
  media_app_token?: string | null;
  user_uuid?: string | null;
}

/** Stores the session after sign-in. Throws TypeError without a token. */
export function storeSignIn(storage: KeyValueStorage, result: SignInResult): void {
  if (typeof result?.token !== 'string' || result.token === '')
    throw new TypeError('Sign-in answer has no token');
  storage.setItem(storageKeys.accessToken, result.token);
  if (result.media_app_token) storage.setItem(storageKeys.mediaAppToken, result.media_app_token);
  else storage.removeItem(storageKeys.mediaAppToken);
  if (result.user_uuid) storage.setItem(storageKeys.userUuid, result.user_uuid);
  else storage.removeItem(storageKeys.userUuid);
}

/** True when an access token is stored. */
export function isSignedIn(storage: KeyValueStorage): boolean {
  return !!storage.getItem(storageKeys.accessToken);
}

export type CompanySelection<C extends TransportCompanyLike> =
  | { kind: 'selected'; company: C; reason: 'only-company' | 'saved-choice' }
  | { kind: 'picker'; companies: C[] }
  | { kind: 'none' };

/**
 * Company choice after the auth call: one company is selected automatically; with several, the
 * saved company id is used if it is still among them, otherwise the picker opens; with none
 * there is nothing to choose ('none': the user cannot enter the dashboard).
 */
export function chooseTransportCompany<C extends TransportCompanyLike>(
  companies: readonly C[] | null | undefined,
  savedUuid: string | null | undefined,
): CompanySelection<C> {
  const list = (companies ?? []).filter((c): c is C => !!c && typeof c.uuid === 'string' && c.uuid !== '');
  if (list.length === 0) return { kind: 'none' };
  if (list.length === 1) return { kind: 'selected', company: list[0]!, reason: 'only-company' };
  const saved = savedUuid ? list.find((c) => c.uuid === savedUuid) : undefined;
  if (saved) return { kind: 'selected', company: saved, reason: 'saved-choice' };
  return { kind: 'picker', companies: list };
}

/**
 * Resolves the company after sign-in (or at start) from the stored choice and saves the result;
 * a stale saved id is removed when the picker opens.
 */
export function resolveTransportCompany<C extends TransportCompanyLike>(
  storage: KeyValueStorage,
  companies: readonly C[] | null | undefined,
): CompanySelection<C> {
  const selection = chooseTransportCompany(companies, storage.getItem(storageKeys.transportUuid));
  if (selection.kind === 'selected') storage.setItem(storageKeys.transportUuid, selection.company.uuid);
  else storage.removeItem(storageKeys.transportUuid);
  return selection;
}

/** Where the user goes after sign-in: home when a company is selected, else the picker. */
export function routeAfterSignIn(
  selection: CompanySelection<TransportCompanyLike>,
): 'home' | 'select-transport' {
  return selection.kind === 'selected' ? 'home' : 'select-transport';
}

/** Switches (or picks) the company; throws RangeError when the uuid is not one of the user's companies. */
export function selectTransportCompany<C extends TransportCompanyLike>(
  storage: KeyValueStorage,
  companies: readonly C[],
  uuid: string,
): C {
  const company = companies.find((c) => c.uuid === uuid);
  if (!company)
    throw new RangeError(`Transport company ${JSON.stringify(uuid)} is not available to this user`);
  storage.setItem(storageKeys.transportUuid, company.uuid);
  return company;
}

/**
 * Logout: clears the session keys (tokens, user, selected company, push token and its data). The
 * device id and the chosen language stay: they belong to the device, not to the session.
 */
export function clearSession(storage: KeyValueStorage): void {
  for (const key of sessionStorageKeys) storage.removeItem(key);
}
