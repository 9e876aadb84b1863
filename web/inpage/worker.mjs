// Lanterloo: the Python half of a table in the reader's browser, in a Web Worker.
//
// The page (inpage.js) starts this worker with the manifest's address. The worker boots Pyodide
// from the book's own copy, unpacks ipywidgets and the project's code into Pyodide's file system,
// and makes Python the kernel of the page's widgets (widgets/inpage.py). Python's work, a
// computer player thinking included, runs here, never on the page's thread.
//
// Messages, all JSON text or small objects:
//   page -> worker: {type: "open", game, query, saved}   build and show the table
//                   the JSON text of a widget message     handed to Python (widgets.inpage.receive)
//   worker -> page: {type: "progress", step, of, text}     while booting
//                   {type: "failed", text}                 booting or opening failed
//                   {type: "log", text}                    Python's log and output, for maintainers
//                   the JSON text Python posts             widget messages, display, save, idle

let python = null;
let receive = null;
const waiting = [];

function progress(step, of, text) {
  self.postMessage({ type: "progress", step, of, text });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function boot(manifestUrl) {
  const base = new URL(".", manifestUrl);
  const manifest = await (await fetch(manifestUrl)).json();
  const pyodideBase = new URL(manifest.pyodide, base);
  progress(1, 4, "Loading Python into your browser (about 5 MB)…");
  const { loadPyodide } = await import(new URL(`pyodide.mjs?v=${manifest.files["../pyodide/pyodide.mjs"]}`, pyodideBase));
  // Python's own output goes to the page as a log line, never to the console as a warning.
  const log = (text) => self.postMessage({ type: "log", text });
  const pyodide = await loadPyodide({ indexURL: pyodideBase.href, fullStdLib: false, stdout: log, stderr: log });
  progress(2, 4, "Loading the widgets and the rules…");
  const parts = [
    ...Object.entries(manifest.wheels).map(([name, digest]) => [name, digest, "wheel"]),
    ...Object.entries(manifest.code).map(([name, digest]) => [name, digest, "zip"]),
  ];
  const blobs = await Promise.all(parts.map(([name, digest]) => fetchBytes(new URL(`${name}?v=${digest}`, base))));
  parts.forEach(([name, , kind], i) => {
    const where = kind === "wheel" ? "/lib/python3.14/site-packages" : "/lanterloo";
    pyodide.unpackArchive(blobs[i], kind === "wheel" ? "wheel" : "zip", { extractDir: where });
  });
  progress(3, 4, "Setting up the table…");
  pyodide.registerJsModule("lanterloo_page", { post: (text) => self.postMessage(text) });
  pyodide.runPython(`
import sys
sys.path.insert(0, "/lanterloo")
from lanterloo_page import post
from widgets import inpage
inpage.install(post)
`);
  receive = pyodide.globals.get("inpage").receive;
  python = pyodide;
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
