import { Suspense, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useServices } from '../state/app-context';
import { Toaster } from './toaster';

/**
 * Root of every route. Spec §2: every navigation resets the page-ready flag and scrolls to the top.
 * The Suspense boundary shows nothing while a lazy page chunk loads (chunks are small).
 */
export function RootLayout() {
  const { pageReady } = useServices();
  const { pathname } = useLocation();

  useLayoutEffect(() => {
    pageReady.reset();
    window.scrollTo({ top: 0, left: 0 });
    // Once more after the browser has handled the click that navigated (it may scroll the link into view).
    const frame = requestAnimationFrame(() => window.scrollTo({ top: 0, left: 0 }));
    return () => cancelAnimationFrame(frame);
  }, [pathname, pageReady]);

  return (
    <>
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
      <Toaster />
    </>
  );
}
