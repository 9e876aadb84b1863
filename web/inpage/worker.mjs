// Lanterloo: the Python half of a table in the reader's browser, in a Web Worker.
//
// The page (inpage.js) starts this worker with the manifest's address. The worker boots Pyodide
// from the book's own copy with the compiled standard library the tables need (web/compile_inpage.py),
// unpacks ipywidgets and the project's code, compiled too, into Pyodide's file system,
// and makes Python the kernel of the page's widgets (widgets/kernel/inpage.py). Python's work, a
// computer player thinking included, runs here, never on the page's thread.
//
// Messages, all JSON text or small objects:
//   page -> worker: {type: "open", game, query, saved}   build and show the table
//                   the JSON text of a widget message     handed to Python (widgets.kernel.inpage.receive)
//   worker -> page: {type: "progress", step, of, text}     while booting
//                   {type: "failed", text}                 booting or opening failed
//                   {type: "log", text}                    Python's log and output, for maintainers
//                   the JSON text Python posts             widget messages, display, save, idle

let python = null;
let receive = null;
const waiting = [];

// When each part of the start ended (the page keeps them in window.lanterlooPhases, for
// bench/inpage.py's breakdown of a visit): an absolute time, which the page makes its own.
function phase(name, at = performance.timeOrigin + performance.now()) {
  self.postMessage({ type: "phase", name, at });
}

function progress(step, of, text) {
  self.postMessage({ type: "progress", step, of, text });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

// A snapshot of Python's memory once the table's modules are imported (widgets.kernel.inpage.prepare),
// kept in the browser's Cache Storage, gzipped, under the manifest's address (which names this
// build's digest): a later visit restores it in a fraction of the time Python takes to start and
// import all that. Anything wrong with it (none kept, a browser without the streams, a failed
// restore) falls back to the ordinary start.
const SNAPSHOTS = "lanterloo-python-snapshots";

async function keptSnapshot(key) {
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(key);
    if (!found) return null;
    const unzipped = found.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(unzipped).arrayBuffer());
  } catch (error) {
    return null;
  }
}

async function keepSnapshot(key, bytes) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);  // one build's snapshot at a time
    const zipped = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    await cache.put(key, new Response(zipped));
    self.postMessage({ type: "log", text: `kept a snapshot of Python (${bytes.length} bytes) for the next visit` });
  } catch (error) {
    // no room, or no Cache Storage: the next visit starts Python the ordinary way
    self.postMessage({ type: "log", text: `no snapshot kept: ${error}` });
  }
}

async function boot(manifestUrl) {
  phase("worker started");
  const base = new URL(".", manifestUrl);
  const manifest = await (await fetch(manifestUrl)).json();
  const pyodideBase = new URL(manifest.pyodide, base);
  const snapshotKey = new URL(manifestUrl);
  snapshotKey.searchParams.set("python-snapshot", "1");
  const snapshot = await keptSnapshot(snapshotKey.href);
  progress(1, 4, snapshot ? "Loading Python into your browser…" : "Loading Python into your browser (about 7 MB)…");
  const { loadPyodide } = await import(new URL(`pyodide.mjs?v=${manifest.files["../pyodide/pyodide.mjs"]}`, pyodideBase));
  // Python's own output goes to the page as a log line, never to the console as a warning.
  const log = (text) => self.postMessage({ type: "log", text });
  // The standard library the tables import, compiled (web/compile_inpage.py), not Pyodide's whole one.
  const [stdlib, stdlibDigest] = Object.entries(manifest.stdlib)[0];
  const stdLibURL = new URL(`${stdlib}?v=${stdlibDigest}`, base).href;
  const options = { indexURL: pyodideBase.href, stdLibURL, fullStdLib: false, stdout: log, stderr: log };
  let pyodide = null;
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      log("started Python from the kept snapshot");
    } catch (error) {
      log(`the kept snapshot would not restore (${error}): starting Python afresh`);
    }
  }
  const fresh = pyodide === null;
  if (fresh) pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  // Python's runtime and standard library downloaded (from the browser's cache on a return visit) ...
  const runtime = performance.getEntriesByType("resource").filter((entry) => /pyodide\.asm\.wasm|stdlib\.zip/.test(entry.name));
  if (runtime.length) phase("downloaded", performance.timeOrigin + Math.max(...runtime.map((entry) => entry.responseEnd)));
  phase(fresh ? "python started" : "python restored");  // ... compiled, and Python running
  progress(2, 4, "Loading the widgets and the rules…");
  // ipywidgets, traitlets, comm and the project's code, compiled, in one zip (web/compile_inpage.py).
  // The files go into Pyodide's file system every time: a snapshot holds Python's memory, not its files.
  const [site, siteDigest] = Object.entries(manifest.site)[0];
  pyodide.unpackArchive(await fetchBytes(new URL(`${site}?v=${siteDigest}`, base)), "zip", { extractDir: "/lanterloo" });
  phase("code unpacked");
  progress(3, 4, "Setting up the table…");
  if (fresh) {
    pyodide.runPython(`
import sys
sys.path.insert(0, "/lanterloo")
from widgets.kernel import inpage
inpage.prepare()
`);
    phase("imported");
    keepSnapshot(snapshotKey.href, pyodide.makeMemorySnapshot());  // not awaited: the reader need not wait
  }
  // Should a table import a standard module left out of the compiled cut, Pyodide's whole library is
  // fetched then (widgets.kernel.stdlib): a synchronous request, which a worker may make.
  const wholeStdlib = () => {
    const request = new XMLHttpRequest();
    request.open("GET", new URL(`python_stdlib.zip?v=${manifest.files["../pyodide/python_stdlib.zip"]}`, pyodideBase).href, false);
    request.responseType = "arraybuffer";
    request.send();
    if (request.status !== 200) throw new Error(`python_stdlib.zip: ${request.status} ${request.statusText}`);
    return new Uint8Array(request.response);
  };
  pyodide.registerJsModule("lanterloo_page", { post: (text) => self.postMessage(text), wholeStdlib });
  pyodide.runPython(`
import logging
from lanterloo_page import post, wholeStdlib
from widgets.kernel import inpage, stdlib
inpage.install(post)
stdlib.install(lambda: wholeStdlib().to_bytes(), logging.getLogger("lanterloo.inpage").warning)
`);
  receive = pyodide.globals.get("inpage").receive;
  python = pyodide;
  phase("kernel ready");
}

function handle(data) {
  if (typeof data === "string") {
    receive(data);
    return;
  }
  if (data.type === "open") {
    progress(4, 4, "Dealing the cards…");
    const open = python.globals.get("inpage").open_table;
    // undefined, not null: Pyodide hands JavaScript's null to Python as JsNull, not None
    open(data.game, undefined, data.query || "", data.saved || undefined);
  }
}

self.onmessage = (event) => {
  const data = event.data;
  if (data && data.type === "boot") {
    boot(data.manifest)
      .then(() => {
        for (const queued of waiting.splice(0)) handle(queued);
      })
      .catch((error) => self.postMessage({ type: "failed", text: String(error && error.message || error) }));
    return;
  }
  if (python === null) {
    waiting.push(data);
    return;
  }
  try {
    handle(data);
  } catch (error) {
    self.postMessage({ type: "failed", text: String(error && error.message || error) });
  }
};
