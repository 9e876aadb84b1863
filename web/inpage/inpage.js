// Lanterloo: a table in the reader's browser, the page's half.
//
// The page (play/<game>.html) holds a status line and a slot for the table. This script starts
// the worker (worker.mjs), where Pyodide runs the same Python table the server's tables run,
// and draws that table's widgets with the widget manager the book already vendors
// (@jupyter-widgets/html-manager, from widgets/embed-amd.js): every widget message goes to the
// worker and back as text. The game is kept in this browser's localStorage as it is played, and
// comes back after a reload or another day. A deal code in the address (?deal=...) deals that
// hand in a new game; the address then drops it, so that a reload resumes rather than redeals.
(function () {
  "use strict";
  var main = document.querySelector("[data-loo-game]");
  if (!main) return;
  var game = main.getAttribute("data-loo-game");
  var status = main.querySelector("[data-loo-status]");
  var slot = main.querySelector("[data-loo-table-slot]");
  var storageKey = "lanterloo-inpage:" + game;

  function say(text, problem) {
    status.textContent = text;
    status.classList.toggle("loo-inpage-problem", !!problem);
  }

  if (location.protocol === "file:") {
    say("This page was opened as a file, and browsers run these tables only from a web address. " +
      "In the book's folder, run: python3 -m http.server 8000 — then open " +
      "http://localhost:8000/play/" + game + ".html", true);
    return;
  }
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") {
    say("This browser cannot run the table here: it lacks WebAssembly or Web Workers. " +
      "A recent Firefox, Chrome, Edge or Safari can.", true);
    return;
  }

  function kept() {
    try { return localStorage.getItem(storageKey); } catch (e) { return null; }
  }
  function keep(message) {
    var value = JSON.stringify({ table_id: message.table_id, page: message.page, count: message.count,
      events: message.events });
    try { localStorage.setItem(storageKey, value); } catch (e) {
      say("This browser would not keep the game (its storage is full or blocked): it will be lost on a reload.", true);
    }
  }

  var manifest = new URL(main.getAttribute("data-loo-manifest"), location.href);
  var worker = new Worker(new URL("worker.mjs", manifest), { type: "module" });
  var comms = {};      // comm_id -> the page's side of a widget's comm
  var pending = {};    // message id -> the widget's callbacks, until Python says it is idle
  var nextId = 1;
  var manager = null;
  var early = [];      // Python's messages that came before the widget manager was ready
  var logged = window.lanterlooLog = [];
  // When each part of the start ended, in ms from this page's start (bench/inpage.py's breakdown).
  var phases = window.lanterlooPhases = {};
  function phase(name, at) {
    phases[name] = Math.round((at === undefined ? performance.timeOrigin + performance.now() : at) - performance.timeOrigin);
  }
  window.lanterlooSent = window.lanterlooIdle = 0;

  function post(message) { worker.postMessage(JSON.stringify(message)); }

  // Python's log and output: kept for a maintainer (window.lanterlooLog, and the console's verbose
  // level), never shown to the reader and never a console warning.
  function logLine(text) {
    logged.push(text);
    if (logged.length > 500) logged.shift();
    console.debug("lanterloo:", text);
  }

  function Comm(id, target) {
    this.comm_id = id;
    this.target_name = target;
    this._onMsg = null;
    this._onClose = null;
  }
  Comm.prototype.open = function () { return ""; };
  Comm.prototype.send = function (data, callbacks, metadata) {
    var id = nextId++;
    window.lanterlooSent = id;  // with lanterlooIdle: a test (or a maintainer) sees when Python is done
    if (callbacks) pending[id] = callbacks;
    post({ type: "comm_msg", comm_id: this.comm_id, data: data, metadata: metadata || {}, id: id });
    return String(id);
  };
  Comm.prototype.close = function (data) {
    if (!comms[this.comm_id]) return "";
    delete comms[this.comm_id];
    post({ type: "comm_close", comm_id: this.comm_id, data: data || {} });
    return "";
  };
  Comm.prototype.on_msg = function (callback) { this._onMsg = callback; };
  Comm.prototype.on_close = function (callback) { this._onClose = callback; };

  function wrap(message) {
    return { content: { comm_id: message.comm_id, data: message.data }, metadata: message.metadata || {},
      buffers: [] };
  }

  function fromPython(message) {
    var comm;
    switch (message.type) {
      case "comm_open":
        comm = new Comm(message.comm_id, message.target_name);
        comms[message.comm_id] = comm;
        manager.handle_comm_open(comm, wrap(message));
        break;
      case "comm_msg":
        comm = comms[message.comm_id];
        if (comm && comm._onMsg) comm._onMsg(wrap(message));
        break;
      case "comm_close":
        comm = comms[message.comm_id];
        delete comms[message.comm_id];
        if (comm && comm._onClose) comm._onClose(wrap(message));
        break;
      case "idle":
        window.lanterlooIdle = message.id;
        var callbacks = pending[message.id];
        delete pending[message.id];
        if (callbacks && callbacks.iopub && callbacks.iopub.status) {
          callbacks.iopub.status({ content: { execution_state: "idle" } });
        }
        break;
      case "display":
        manager.get_model(message.model_id).then(function (model) {
          return manager.create_view(model);
        }).then(function (view) {
          slot.textContent = "";
          return manager.display_view(view, slot);
        }).then(function () {
          say("");
          phase("drawn");
          main.setAttribute("data-loo-ready", "1");
          var search = new URLSearchParams(location.search);
          if (search.has("deal")) {  // dealt: a reload now resumes this game
            search.delete("deal");
            var rest = search.toString();
            history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
          }
        });
        break;
      case "save":
        keep(message);
        break;
      case "log":
        logLine(message.text);
        break;
    }
  }

  worker.onmessage = function (event) {
    var data = event.data;
    if (typeof data === "string") {
      var message = JSON.parse(data);
      if (manager === null) { early.push(message); } else { fromPython(message); }
      return;
    }
    if (data.type === "phase") {
      phase(data.name, data.at);
    } else if (data.type === "progress") {
      say(data.text + " (step " + data.step + " of " + data.of + ")");
    } else if (data.type === "log") {
      logLine(data.text);
    } else if (data.type === "failed") {
      say("The table could not be started here: " + data.text + ". Reloading the page may help.", true);
    }
  };
  worker.onerror = function (event) {
    say("The table could not be started here: " + (event.message || "the worker failed") +
      ". Reloading the page may help.", true);
  };

  say("Starting the table…");
  worker.postMessage({ type: "boot", manifest: manifest.href });
  worker.postMessage({ type: "open", game: game, query: location.search, saved: kept() });

  // The page loads this script before the widget manager's bundle (embed-amd.js, 3.6 MB to parse and
  // run), so that Python starts in the worker while the bundle loads; the manager is asked for once
  // the page's scripts have all run. The bundle's parts are run one task each (the widgets' base, their
  // controls, then the manager): run at once they were one task of about 310 ms on the page's own
  // thread, in parts none over about 210 (bench/inpage.py's long tasks, chromium, 2026-11-29).
  var PARTS = ["@jupyter-widgets/base", "@jupyter-widgets/controls"];
  function failed(error) {
    say("The table's drawing code could not be loaded: " + error + ". Reloading the page may help.", true);
  }
  function drawWhenReady(at) {
    at = at || 0;
    if (at < PARTS.length) {
      window.require([PARTS[at]], function () { setTimeout(drawWhenReady, 0, at + 1); }, failed);
      return;
    }
    window.require(["@jupyter-widgets/html-manager"], function (htmlManager) {
      manager = new htmlManager.HTMLManager();
      phase("widget manager");
      for (var i = 0; i < early.length; i++) fromPython(early[i]);
      early = [];
    }, failed);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { drawWhenReady(0); });
  } else {
    drawWhenReady(0);
  }
})();
