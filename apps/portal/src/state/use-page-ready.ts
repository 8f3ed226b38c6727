import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useServices } from './app-context';

/** Marks the page ready (spec §2 page-ready flag) once `ready` is true for the current route. */
export function usePageReady(ready: boolean): void {
  const { pageReady } = useServices();
  const { pathname } = useLocation();
  useEffect(() => {
    if (ready) pageReady.markReady();
  }, [ready, pageReady, pathname]);
}
