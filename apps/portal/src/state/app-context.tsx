import { createContext, useContext, useSyncExternalStore } from 'react';
import type { AppServices } from './services';
import type { SessionState } from './session-store';

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesContext.Provider>');
  return services;
}

export function useApi() {
  return useServices().api;
}

export function useSession(): SessionState {
  const { session } = useServices();
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
}
