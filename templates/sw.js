// Arbitre's service worker: static files from the cache, pages from the network (an offline
// page when there is none). Game state is never cached: it is personal and changes every second.
const CACHE = "arbitre-static-v3";
self.addEventListener("install", (event) => {
  // The offline page, its script and its styles (a game's pages load their own game's bundles).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(["/offline", "{{ bundle_url() }}", "{{ bundle_url(None, 'css') }}"])).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then((hit) => hit || fetch(request).then((response) => {
          if (response.ok) cache.put(request, response.clone());
          return response;
        }))
      )
    );
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/offline")));
  }
});
