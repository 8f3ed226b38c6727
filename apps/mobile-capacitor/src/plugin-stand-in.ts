/**
 * A stand-in of the Capacitor plugins used by the adapter, for tests: it keeps the plugins' method
 * names and event payload shapes, records every call and lets a test raise the native events.
 * (An Android phone cannot exist on this machine; this is the one test double, behind the same
 * interface the real plugins implement.)
 */
import type { CapacitorPushPlugins } from './capacitor-push-platform';

type Listener = (event: never) => void;

export interface RecordedCall {
  plugin: 'push' | 'local' | 'app';
  method: string;
  args: unknown[];
}

export class CapacitorStandIn {
  calls: RecordedCall[] = [];
  native = true;
  platformName = 'android';
  permission: 'prompt' | 'granted' | 'denied' = 'prompt';
  grantOnRequest = true;
  delivered: { id: string; title?: string; body?: string; data?: unknown }[] = [];
  version = '1.4.0';
  private listeners = new Map<string, Set<Listener>>();

  private record(plugin: RecordedCall['plugin'], method: string, ...args: unknown[]) {
    this.calls.push({ plugin, method, args });
  }

  private listen(plugin: RecordedCall['plugin'], event: string, listener: Listener) {
    this.record(plugin, 'addListener', event);
    const set = this.listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(event, set);
    return Promise.resolve({
      remove: async () => {
        set.delete(listener);
      },
    });
  }

  /** Raises a native event as the plugin would. */
  emit(event: string, payload: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (e: unknown) => void)(payload);
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  methods(plugin: RecordedCall['plugin']): string[] {
    return this.calls.filter((c) => c.plugin === plugin).map((c) => c.method);
  }

  get plugins(): CapacitorPushPlugins & {
    app: CapacitorPushPlugins['app'] & { addListener: unknown; exitApp: () => Promise<void> };
  } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      capacitor: {
        isNativePlatform: () => self.native,
        getPlatform: () => (self.native ? self.platformName : 'web'),
      },
      push: {
        checkPermissions: async () => {
          self.record('push', 'checkPermissions');
          return { receive: self.permission };
        },
        requestPermissions: async () => {
          self.record('push', 'requestPermissions');
          if (self.permission === 'prompt') self.permission = self.grantOnRequest ? 'granted' : 'denied';
          return { receive: self.permission };
        },
        register: async () => self.record('push', 'register'),
        unregister: async () => self.record('push', 'unregister'),
        getDeliveredNotifications: async () => {
          self.record('push', 'getDeliveredNotifications');
          return { notifications: self.delivered } as never;
        },
        addListener: ((event: string, listener: Listener) => self.listen('push', event, listener)) as never,
      },
      local: {
        schedule: async (options: unknown) => {
          self.record('local', 'schedule', options);
          return { notifications: [] };
        },
        checkPermissions: async () => ({ display: 'granted' as const }),
        requestPermissions: async () => ({ display: 'granted' as const }),
        addListener: ((event: string, listener: Listener) => self.listen('local', event, listener)) as never,
      },
      app: {
        getInfo: async () => {
          self.record('app', 'getInfo');
          return { name: 'Fleet', id: 'org.fleetportal.app', build: '14', version: self.version };
        },
        addListener: ((event: string, listener: Listener) => self.listen('app', event, listener)) as never,
        exitApp: async () => self.record('app', 'exitApp'),
      },
    };
  }
}
