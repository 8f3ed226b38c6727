import { QueryClientProvider } from '@tanstack/react-query';
import { UiProvider } from '@fleet/ui';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { ServicesContext } from '../state/app-context';
import type { AppServices } from '../state/services';

function LocalizedUi({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  // UiProvider sets dir/lang on <html> from the locale (Arabic -> rtl) and Radix's direction.
  return (
    <UiProvider locale={i18n.language} className="min-h-dvh bg-background text-foreground">
      {children}
    </UiProvider>
  );
}

/** Providers in order: services, i18n, react-query, the UI kit (direction, theme), the router. */
export function App({
  services,
  router,
}: {
  services: AppServices;
  router: ReturnType<typeof createBrowserRouter>;
}) {
  return (
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={services.i18n}>
        <QueryClientProvider client={services.queryClient}>
          <LocalizedUi>
            <RouterProvider router={router} />
          </LocalizedUi>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>
  );
}
