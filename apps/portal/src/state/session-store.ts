import {
  clearSession,
  resolveTransportCompany,
  selectTransportCompany,
  storageKeys,
  storeSignIn,
  type KeyValueStorage,
} from '@fleet/core';
import type { AuthSession, LoginInput, LoginResult, TransportCompany, User } from '@fleet/api-client';

/** What the session store needs from the API (bound to @fleet/api-client's client in api.ts). */
export interface SessionApi {
  login(input: LoginInput): Promise<LoginResult>;
  me(): Promise<AuthSession>;
  logout(): Promise<unknown>;
  switchCompany(transportUuid: string): Promise<unknown>;
}

export type SessionStatus = 'anonymous' | 'loading' | 'signed-in';

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: User | null;
  companies: TransportCompany[];
  /** The selected transport company, or null when the picker must open. */
  company: TransportCompany | null;
}

/**
 * The signed-in session: token and user uuid in storage, the user and companies from GET auth, and the
 * selected company. A tiny external store (subscribe/getSnapshot) for useSyncExternalStore.
 */
export class SessionStore {
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private loading: Promise<SessionState> | null = null;

  constructor(
    private readonly storage: KeyValueStorage,
    private readonly api: SessionApi,
  ) {
    const token = storage.getItem(storageKeys.accessToken);
    this.state = { status: token ? 'loading' : 'anonymous', token, user: null, companies: [], company: null };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionState => this.state;

  get token(): string | null {
    return this.state.token;
  }
  get userUuid(): string | null {
    return this.state.user?.uuid ?? this.storage.getItem(storageKeys.userUuid);
  }
  get transportUuid(): string | null {
    return this.state.company?.uuid ?? this.storage.getItem(storageKeys.transportUuid);
  }

  private set(next: Partial<SessionState>): void {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  /** Signs in, stores the token, then loads the user and companies. */
  async signIn(input: LoginInput): Promise<SessionState> {
    const result = await this.api.login(input);
    storeSignIn(this.storage, { ...result, user_uuid: result.user.uuid });
    this.set({ status: 'loading', token: result.token, user: result.user });
    this.loading = null;
    return this.load();
  }

  /** Loads GET auth once per token (restoring a stored session at start). */
  load(): Promise<SessionState> {
    if (!this.state.token) return Promise.resolve(this.state);
    if (this.state.status === 'signed-in') return Promise.resolve(this.state);
    this.loading ??= this.api.me().then(
      (auth) => {
        // Spec §4 company choice (core rule): one company, or the saved one while still valid.
        const selection = resolveTransportCompany(this.storage, auth.transport_companies);
        const company = selection.kind === 'selected' ? selection.company : null;
        this.storage.setItem(storageKeys.userUuid, auth.user.uuid);
        this.set({ status: 'signed-in', user: auth.user, companies: auth.transport_companies, company });
        return this.state;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  /** Selects (or switches to) a company of the user; unknown uuids are refused. */
  async selectCompany(uuid: string): Promise<TransportCompany> {
    const previous = this.state.company;
    const company = selectTransportCompany(this.storage, this.state.companies, uuid);
    if (previous && previous.uuid !== uuid) await this.api.switchCompany(uuid);
    this.set({ company });
    return company;
  }

  /**
   * Logout (spec §4): tells the server (its answer is ignored), clears the stored session keys and
   * resets the state. `remote: false` skips the server call (used after a 401: the token is dead).
   */
  async logout({ remote = true }: { remote?: boolean } = {}): Promise<void> {
    if (remote && this.state.token) await this.api.logout().catch(() => undefined);
    clearSession(this.storage);
    this.loading = null;
    this.set({ status: 'anonymous', token: null, user: null, companies: [], company: null });
  }
}

/** Where to go after sign-in (spec §2): home, or select-transport when no company could be chosen. */
export function afterSignInPath(state: SessionState): '/dashboard' | '/select-transport' {
  return state.company ? '/dashboard' : '/select-transport';
}
