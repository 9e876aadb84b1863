// Lanterloo's service worker: the book and its tables keep working with no network, once read.
//
// web/service_worker.py writes this file to the site's root as sw.js, with this build's BUILD in
// place of the null below: its version, and every file a table's worker fetches (the names of
// inpage/manifest.json, and the manifest itself) with the digest of its content. A new build is a
// new sw.js, so a new worker and a new cache; docs/browser.md says how it all works.
//
// - Pages and their files (the book's pages, _static, the widget bundle, the play pages): from the
//   network first, and kept as read; with no network (or none within WAIT_MS when a copy is kept),
//   the kept copy.
// - A table's files: never fetched by this worker for a reader who has not opened a table. When a
//   table is first opened, its page asks (inpage/offline.js): each file is then fetched and kept
//   only if its content has this build's digest, and served from the kept copy from then on.
// - One cache per build: a new build's worker fills its own cache (fetching afresh what the old
//   one held), then takes over and deletes the older caches, so a reader is never served a mix of
//   two builds' files. The Python snapshot the table's worker keeps (worker.mjs) is not ours.
// - A worker's cache is made when it installs. Later, a missing cache means a newer build's worker
//   has taken over and deleted it: the old worker, still answering a request begun before, then
//   keeps nothing, for opening its cache would make it again beside the new one.
// - Anything else (another origin, the Lanterloo server's tables and API, a non-GET request) is
//   left alone.
"use strict";

const BUILD = null;
const PREFIX = "lanterloo-offline-";
const CACHE = PREFIX + BUILD.version;
const ROOT = new URL("./", self.location.href);
// The site's own files (the build's folders and root pages), below the root.
const SITE = /^(book\/|_static\/|_images\/|widgets\/|inpage\/|pyodide\/|play\/|(index|genindex|search)\.html$|searchindex\.js$|favicon\.ico$|$)/;
const PAGE = /(\.html|\/|^)$/;
const WAIT_MS = 4000;
// The clients (pages) this worker answered with a kept copy because the network failed.
const keptFor = new Set();

function sitePath(url) {
  const at = new URL(url);
  if (at.origin !== ROOT.origin || !at.pathname.startsWith(ROOT.pathname)) return null;
  const path = decodeURIComponent(at.pathname.slice(ROOT.pathname.length));
  return SITE.test(path) ? path : null;
}

function tableKey(path) {
  return new URL(path, ROOT).href;  // one content per name in a build: the address's ?v= is not needed
}

async function digestOf(buffer) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(hash.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A table's file, kept if its content is this build's (web/build_inpage.py's digest); never another's.
async function keepVerified(cache, path, response) {
  if (!response.ok) return false;
  const body = await response.arrayBuffer();
  if ((await digestOf(body)) !== BUILD.files[path]) return false;
  const type = response.headers.get("Content-Type") || "application/octet-stream";
  await cache.put(tableKey(path), new Response(body, { headers: { "Content-Type": type } }));
  return true;
}

function keepable(response) {
  return response.ok && response.status === 200 && response.type === "basic" && !response.redirected;
}

// This worker's cache, or null once a newer build's worker has deleted it (see above).
async function ourCache() {
  return (await caches.has(CACHE)) ? caches.open(CACHE) : null;
}

// What a page asks to keep (its own address and the files it loaded), or a new build carries over:
// a page's files as the page had them (the browser's cache), a table's afresh and checked.
async function keep(cache, urls, table, fresh) {
  const wanted = new Set(urls.filter((url) => sitePath(url) !== null && !(sitePath(url) in BUILD.files)));
  const jobs = [...wanted].map(async (url) => {
    if (!fresh && (await cache.match(url, { ignoreVary: true }))) return;
    const response = await fetch(url, { cache: fresh ? "no-cache" : "force-cache", credentials: "same-origin" });
    if (keepable(response)) await cache.put(url, response);
  });
  if (table) {
    for (const path of BUILD.table) {
      jobs.push((async () => {
        if (await cache.match(tableKey(path))) return;
        await keepVerified(cache, path, await fetch(tableKey(path), { cache: "no-cache" }));
      })());
    }
  }
  await Promise.allSettled(jobs);
}

// The files a kept page loads (its scripts, styles and images), read from its text: a new build's
// pages name new files, which the old cache's list does not hold.
function filesOf(url, text) {
  const found = [];
  for (const match of text.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"#]+)"/g)) {
    const file = new URL(match[1].replace(/&amp;/g, "&"), url).href;
    if (sitePath(file) !== null && !PAGE.test(sitePath(file))) found.push(file);
  }
  return found;
}

async function carryOver() {
  const cache = await caches.open(CACHE);
  const pages = new Set();
  let table = false;
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    for (const request of await (await caches.open(name)).keys()) {
      const path = sitePath(request.url);
      if (path === null) continue;
      if (path in BUILD.files) table = true;
      else if (PAGE.test(path)) pages.add(request.url);
    }
  }
  const files = [];
  await Promise.allSettled([...pages].map(async (url) => {
    const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
    if (!keepable(response)) return;
    files.push(...filesOf(url, await response.clone().text()));
    await cache.put(url, response);
  }));
  await keep(cache, files, table, true);
}

self.addEventListener("install", (event) => {
  event.waitUntil(carryOver().catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
  })());
});

async function tableFile(event, path) {
  const cache = await ourCache();
  const kept = cache && (await cache.match(tableKey(path)));
  if (kept) return kept;
  const response = await fetch(event.request);
  // Kept on the way: a file only an opened table fetches, and only should it need it.
  if (cache && BUILD.lazy.includes(path)) event.waitUntil(keepVerified(cache, path, response.clone()).catch(() => false));
  return response;
}

async function networkFirst(event) {
  const request = event.request;
  const cache = await ourCache();
  if (!cache) return fetch(request);
  const network = fetch(request).then((response) => {
    if (keepable(response)) event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    return response;
  });
  let kept = await cache.match(request, { ignoreVary: true });
  if (!kept && request.mode === "navigate") kept = await cache.match(request, { ignoreSearch: true, ignoreVary: true });
  if (!kept) return network;  // nothing kept: as if there were no worker
  const late = new Promise((resolve) => setTimeout(resolve, WAIT_MS, null));
  const answer = await Promise.race([network.catch(() => null), late]);
  if (answer) return answer;
  event.waitUntil(network.catch(() => null));
  if (request.mode === "navigate" && event.resultingClientId) keptFor.add(event.resultingClientId);
  return kept;
}

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  const path = sitePath(event.request.url);
  if (path === null) return;
  const answer = path in BUILD.files ? tableFile(event, path) : networkFirst(event);
  // A browser whose Cache Storage fails (WebKitGTK under WebDriver drops it): as if there were no worker.
  event.respondWith(answer.catch(() => fetch(event.request)));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "keep" && Array.isArray(data.urls)) {
    event.waitUntil(ourCache().then((cache) => cache && keep(cache, data.urls, !!data.table, false)));
  } else if (data.type === "kept?" && event.source) {
    event.source.postMessage({ type: "kept", kept: keptFor.has(event.source.id), version: BUILD.version });
  }
});
