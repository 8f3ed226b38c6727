// Minimal service worker so the portal is installable and its shell opens offline.
// Strategy: API (/v1, /ws) is never cached; navigations are network-first with the cached shell as
// the fallback; hashed build assets are cache-first (their names change with their content).
// Without Cache Storage (a context that is not secure) it stays out of the way: the browser fetches
// everything itself. A failure to cache never fails the answer.
const CACHE = 'fleet-shell-v2';
const canCache = typeof caches !== 'undefined';

/** Stores a copy of an answer; errors (quota, no storage) are ignored. */
function remember(key, res) {
  if (!canCache || !res.ok) return;
  const copy = res.clone();
  caches
    .open(CACHE)
    .then((c) => c.put(key, copy))
    .catch(() => undefined);
}

self.addEventListener('install', (event) => {
  if (!canCache) return;
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(['/', '/manifest.webmanifest']))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  if (!canCache) return;
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .catch(() => undefined)
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  if (!canCache) return;
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/v1') || url.pathname.startsWith('/ws')) return;
  if (event.request.mode === 'navigate') {
    event.respondWith(
      fetch(event.request)
        .then((res) => {
          remember('/', res);
          return res;
        })
        .catch((err) =>
          caches.match('/').then((shell) => {
            if (shell) return shell;
            throw err;
          }),
        ),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches
        .match(event.request)
        .catch(() => undefined)
        .then(
          (hit) =>
            hit ??
            fetch(event.request).then((res) => {
              remember(event.request, res);
              return res;
            }),
        ),
    );
  }
});
