import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { storageKeys, resolveLocale } from '@fleet/core';
import { createI18n } from './i18n/i18n';
import { routes } from './app/router';
import { App } from './app/app';
import { createServices } from './state/services';
import { browserStorage } from './state/storage';
import '@fleet/ui/styles.css';
import './index.css';

async function start() {
  const storage = browserStorage();
  const i18n = await createI18n(resolveLocale(storage.getItem(storageKeys.locale)));
  const router = createBrowserRouter(routes);
  const services = createServices({
    storage,
    i18n,
    navigate: (to) => void router.navigate(to),
    currentPath: () => router.state.location.pathname + router.state.location.search,
  });
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App services={services} router={router} />
    </StrictMode>,
  );
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    window.addEventListener(
      'load',
      () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined),
    );
  }
}

void start();
