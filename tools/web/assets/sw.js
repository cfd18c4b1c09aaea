// damka's service worker: after one visit the page opens and plays with no network at all.
// It is served from the top of the site (/sw.js, so that its scope is the whole page) by
// damka-web and by tools/wasm/build.sh's target/wasm/, each of which replaces the BUILD line
// below with the version of the files it serves (a hash of them) and their list: the page,
// its scripts and styles, the manifest and icons, and the in-browser engine
// (damka-worker.js and the .wasm files) where they are served. A new version is a new sw.js,
// which the browser notices on its next visit; it fills a cache of its own name and, once that
// is complete, takes over and deletes the older caches.
//
// Served as is (no version filled in), it precaches nothing and only passes requests on.
"use strict";

const BUILD = { version: "", files: [] }; // replaced when served

const PREFIX = "damka-";
const CACHE = PREFIX + BUILD.version;
const FILES = BUILD.files.map((f) => new URL(f, self.location.href).href);
// What a navigation gets from the cache: the page (a room's address, a game's link and the
// page itself are all index.html).
const PAGE = new URL("./", self.location.href).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      if (!BUILD.version) return;
      const cache = await caches.open(CACHE);
      try {
        // Past the HTTP cache: the files of this version, not older copies of them.
        await cache.addAll(FILES.map((url) => new Request(url, { cache: "reload" })));
      } catch (e) {
        // One file missing or the network gone: no half-filled cache is left behind, this
        // version is not installed (the page goes on from the network, or the version
        // before), and the next visit tries again.
        await caches.delete(CACHE);
        throw e;
      }
      // The files are all here: this version takes over at once instead of waiting for
      // every tab of the page to close (a reload alone would not let it in).
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })()
  );
});

/** This version's cached copy of `url`, or null (no such file, or no complete cache). */
async function cached(url) {
  if (!BUILD.version || !(await caches.has(CACHE))) return null;
  return (await caches.match(url, { cacheName: CACHE })) || null;
}

// The page's own addresses: the page, a room's (a game's link is the page with a #hash).
const pageAddress = (path) => path === "/" || path === "/index.html" || path.startsWith("/room/");

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  // The API and the WebSocket are live: never from a cache. Neither is anything of another
  // site, or any other method than GET and HEAD (the page asks whether the engine's files
  // are there by HEAD: offline too, the cache answers).
  const head = request.method === "HEAD";
  if ((request.method !== "GET" && !head) || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws") return;
  let answer;
  if (request.mode === "navigate" && pageAddress(url.pathname)) {
    // This version's files come from its cache, which holds all of them or does not exist.
    answer = async () => (await cached(PAGE)) || fetch(request);
  } else if (request.mode === "navigate") {
    // Another page (the lobby) needs the server: with none, the page says so.
    answer = () => fetch(request).catch(async (e) => (await cached(PAGE)) || Promise.reject(e));
  } else if (FILES.includes(url.href)) {
    answer = async () => {
      const hit = await cached(url.href);
      if (!hit) return fetch(request);
      return head ? new Response(null, { status: hit.status, headers: hit.headers }) : hit;
    };
  } else {
    return; // not one of the page's files: the network as usual
  }
  event.respondWith(answer());
});
