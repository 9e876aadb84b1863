// Lanterloo: the book and its tables offline after one visit, the page's half (docs/browser.md).
//
// Every book page and play page loads this. It registers the service worker at the site's root
// (sw.js, written by web/service_worker.py), asks it to keep this page and the files it loaded,
// and, on a play page, once its table has been opened (not while a chapter starts it out of sight),
// the table's files too. It shows a note when the reader is offline or the page is the kept copy.
// Where a browser has no service workers or no Cache Storage (or the page is not from a secure
// address), it does nothing: the page works as it would without it.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.caches || !window.isSecureContext) return;
  var root = new URL("../", script.src);  // this file is <root>/inpage/offline.js
  var inFrame = document.documentElement.classList.contains("loo-in-frame");
  var table = document.querySelector("[data-loo-game]");
  var tableOpened = false;

  function ours(url) {
    var at = new URL(url, location.href);
    return at.origin === root.origin && at.pathname.indexOf(root.pathname) === 0;
  }

  function keep(worker) {
    if (!worker) return;
    var page = location.href.split("#")[0];
    var files = performance.getEntriesByType("resource").map(function (entry) { return entry.name; });
    worker.postMessage({ type: "keep", urls: [page].concat(files.filter(ours)), table: tableOpened });
  }

  // The note: shown while the browser says it has no network, or when this page came from the copy
  // kept (the host could not be reached). Not in a chapter's frame: the chapter shows its own.
  var note = null;
  var kept = false;
  function showNote() {
    if (inFrame) return;
    var text = !navigator.onLine
      ? "You are offline. The pages you have read and the tables you have opened here still work."
      : kept ? "The book's site could not be reached: this is the copy of the page this browser kept." : "";
    if (!note) {
      if (!text) return;
      note = document.createElement("p");
      note.className = "loo-offline-note";
      note.setAttribute("role", "status");
      note.style.cssText = "margin:0 0 1em;padding:.45em .8em;border:1px solid #b08a00;border-left-width:5px;" +
        "border-radius:4px;background:#fff6d6;color:#3a2e00;font-size:.95em;line-height:1.4";
      var where = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
      where.insertBefore(note, where.firstChild);
    }
    note.textContent = text;
    note.hidden = !text;
  }
  window.addEventListener("online", showNote);
  window.addEventListener("offline", showNote);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", showNote); } else { showNote(); }

  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "kept") {
      kept = !!event.data.kept;
      if (document.readyState !== "loading") showNote();  // else at DOMContentLoaded
    }
  });
  if (navigator.serviceWorker.controller) navigator.serviceWorker.controller.postMessage({ type: "kept?" });

  function keepWhenLoaded() {
    navigator.serviceWorker.ready.then(function (registration) { keep(registration.active); });
  }
  navigator.serviceWorker.register(new URL("sw.js", root).href, { scope: root.pathname }).then(function () {
    if (document.readyState === "complete") { keepWhenLoaded(); } else { window.addEventListener("load", keepWhenLoaded); }
  }).catch(function () { /* no worker: the page works as it would without one */ });
  // A new build's worker took over: what this page holds is kept again, in the new build's cache.
  navigator.serviceWorker.addEventListener("controllerchange", function () { keep(navigator.serviceWorker.controller); });

  // A play page's table is opened once it is drawn and shown: not while a chapter's frame holds it
  // hidden, started before the reader's click (it may never be opened).
  if (!table) return;
  var frame = null;
  try { frame = window.frameElement; } catch (e) { frame = null; }
  function opened() {
    if (tableOpened || !table.hasAttribute("data-loo-ready")) return false;
    if (frame && frame.classList.contains("loo-offer-warming")) return false;
    tableOpened = true;
    keepWhenLoaded();
    return true;
  }
  if (opened()) return;
  var watch = new MutationObserver(function () { if (opened()) watch.disconnect(); });
  watch.observe(table, { attributes: true, attributeFilter: ["data-loo-ready"] });
  if (frame) watch.observe(frame, { attributes: true, attributeFilter: ["class"] });
})();
