// Lanterloo: the guided first hand, at a live table (the server's and the reader's browser's alike).
//
// A newcomer who presses "Play a hand now" on the book's home page gets a table with a short guide
// above it: one prompt at a time, saying what to click and why, chosen by what the table shows now
// (a decision to make, cards to pick, a card to play, others playing, the hand over). The home page's
// link sets this browser's "lanterloo-guide" to "on" (a table opened in a chapter's frame then guides
// too), and carries ?guide=1 for a browser where its script did not run. "Skip the guide" turns it off; the hand's end finishes it
// ("done"); either is remembered, so the guide never comes back unasked. It reads the page only: it
// never clicks for the reader and never moves the focus.
(function () {
  "use strict";
  var KEY = "lanterloo-guide";
  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function store(value) {
    try { window.localStorage.setItem(KEY, value); } catch (e) { /* private browsing: this page only */ }
  }
  // The address asks once: a browser that has finished or skipped the guide is not asked again by a
  // reload or a link kept from before (the home page's button asks anew, through the storage). The
  // address then drops it, so a reload is a reload.
  var search = new URLSearchParams(location.search);
  if (search.get("guide") === "1") {
    if (stored() === null) store("on");
    search.delete("guide");
    var rest = search.toString();
    try { history.replaceState(history.state, "", location.pathname + (rest ? "?" + rest : "") + location.hash); }
    catch (e) { /* a sandboxed frame: the address keeps it, the storage decides */ }
  }
  if (stored() !== "on") return;

  // The prompts, in the order a hand meets them. "target" is what to click, outlined while shown.
  var PROMPTS = {
    decide: {
      title: "Your first decision",
      text: "Your cards are at the bottom of the table, face up. Play this hand, or throw it up and sit " +
        "it out? Whoever plays and takes no trick is looed, and pays into the pool. Not sure? Press Hint.",
      target: ".loo-choices button.mod-primary"
    },
    pick: {
      title: "Your exchange",
      text: "Click the cards to throw away (each one is marked), then confirm the exchange: you draw as " +
        "many new ones.",
      target: ".loo-picks button"
    },
    play: {
      title: "Play a card",
      text: "Click one of your cards. Follow the suit led if you can; a greyed card may not be played " +
        "(click it to see why). The highest card of the suit led wins, unless a trump is played.",
      target: ".loo-choices .loo-piece.mod-primary"
    },
    wait: {
      title: "The others are playing",
      text: "Their cards land in the middle in turn. Last trick (key L) shows the trick just won; Take " +
        "back undoes your last choice.",
      target: null
    },
    over: {
      title: "The hand is over",
      text: "The line under the table says who took chips and who paid. Next hand deals again and the " +
        "pool carries over; the Ledger tab keeps the score. That is the guide done.",
      target: ".loo-next"
    }
  };
  var ORDER = ["decide", "pick", "play", "wait", "over"];

  function phase() {
    if (!document.querySelector(".loo-table-view")) return null;
    // while the computer players' moves are shown one by one, the table as it stands (the reader's
    // cards among it) is hidden: nothing to click yet
    if (document.querySelector(".loo-playing")) return "wait";
    var next = document.querySelector(".loo-next button, button.loo-next");
    if (next && !next.disabled) return "over";
    if (document.querySelector(".loo-picks button")) return "pick";
    if (document.querySelector(".loo-choices .loo-piece.mod-primary")) return "play";
    if (document.querySelector(".loo-choices button.mod-primary")) return "decide";
    return "wait";
  }

  // The box stands above the table; scrolled past (a phone, a tall table), it floats at the top of the
  // window, so the prompt of the moment is always in view. The anchor keeps its place meanwhile.
  var box = null, anchor = null, shown = null, dismissed = {}, finished = false;
  function place() {
    if (!box || !box.parentNode || !anchor) return;
    var floating = anchor.getBoundingClientRect().top < 0;
    if (floating === box.classList.contains("loo-guide-floating")) return;
    anchor.style.height = floating ? box.offsetHeight + "px" : "0";
    box.classList.toggle("loo-guide-floating", floating);
  }
  window.addEventListener("scroll", place, {passive: true, capture: true});
  window.addEventListener("resize", place);
  function build() {
    box = document.createElement("section");
    box.className = "loo-guide";
    box.setAttribute("aria-label", "Guide to your first hand");
    box.innerHTML = '<p aria-live="polite"><span class="loo-guide-step"></span> ' +
      '<span class="loo-guide-text"></span></p>' +
      '<p class="loo-guide-buttons"><button type="button" data-loo-guide-ok>Got it</button>' +
      '<button type="button" data-loo-guide-skip>Skip the guide</button></p>';
    box.querySelector("[data-loo-guide-ok]").addEventListener("click", function () {
      if (shown) dismissed[shown] = true;
      if (shown === "over") { store("done"); finished = true; }
      hide();
    });
    box.querySelector("[data-loo-guide-skip]").addEventListener("click", function () {
      store("off");
      finished = true;
      hide();
    });
  }
  function hide() {
    untarget();
    if (box && box.parentNode) box.parentNode.removeChild(box);
    if (anchor && anchor.parentNode) anchor.parentNode.removeChild(anchor);
    shown = null;
  }
  function untarget() {
    document.querySelectorAll(".loo-guide-target").forEach(function (el) { el.classList.remove("loo-guide-target"); });
  }
  function show(key) {
    var view = document.querySelector(".loo-table-view");
    if (!view) return;
    if (!box) build();
    if (!anchor) { anchor = document.createElement("div"); anchor.className = "loo-guide-anchor"; }
    if (box.parentNode !== view.parentNode || box.nextSibling !== view) {
      view.parentNode.insertBefore(anchor, view);
      view.parentNode.insertBefore(box, view);
    }
    var prompt = PROMPTS[key];
    if (shown !== key) {
      box.querySelector(".loo-guide-step").innerHTML = "<strong>" + prompt.title + "</strong> " +
        '<span class="loo-guide-count">(' + (ORDER.indexOf(key) + 1) + " of " + ORDER.length + "):</span>";
      box.querySelector(".loo-guide-text").textContent = prompt.text;
      box.querySelector("[data-loo-guide-ok]").textContent = key === "over" ? "Finish the guide" : "Got it";
      box.querySelector("[data-loo-guide-skip]").hidden = key === "over";  // nothing left to skip
      shown = key;
    }
    place();
    untarget();
    if (prompt.target) {
      document.querySelectorAll(prompt.target).forEach(function (el) { el.classList.add("loo-guide-target"); });
    }
  }
  function update() {
    if (finished) return;
    var now = phase();
    if (!now) return;
    if (now === "over" && !dismissed.over) store("done");  // seen to the end: not offered again unasked
    if (dismissed[now]) { if (shown) hide(); return; }
    show(now);
  }
  var queued = false;
  new MutationObserver(function () {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; update(); });
  }).observe(document.documentElement, {childList: true, subtree: true, attributes: true,
    attributeFilter: ["class", "disabled"]});

  var style = document.createElement("style");
  style.textContent =
    ".loo-guide{display:flex;flex-wrap:wrap;align-items:center;gap:.2em .8em;border:2px solid #e0a000;" +
    "background:#fff8e1;border-radius:8px;padding:.3em .7em;margin:0 0 .4em;font-size:14px;line-height:1.35;" +
    "color:#222}" +
    ".loo-guide.loo-guide-floating{position:fixed;top:0;left:0;right:0;margin:0;z-index:1000;border-radius:0;" +
    "box-shadow:0 2px 8px rgba(0,0,0,.25)}" +
    ".loo-guide p{margin:0;flex:1 1 30em}.loo-guide p.loo-guide-buttons{flex:0 0 auto}" +
    ".loo-guide-count{color:#555;font-weight:normal}" +
    ".loo-guide button{font:inherit;padding:.2em .7em;margin:.1em .4em .1em 0;border-radius:4px;" +
    "border:1px solid #1d5a3c;background:#1d5a3c;color:#fff;cursor:pointer}" +
    ".loo-guide button[data-loo-guide-skip]{background:#fff;color:#1d5a3c}" +
    ".loo-guide button:focus-visible{outline:3px solid #e0a000;outline-offset:2px}" +
    ".loo-guide-target{box-shadow:0 0 0 3px #fff,0 0 0 6px #e0a000 !important}" +
    "@media (prefers-reduced-motion:no-preference){.loo-guide-target{animation:loo-guide-pulse 1.6s ease-in-out 3}}" +
    "@keyframes loo-guide-pulse{50%{box-shadow:0 0 0 3px #fff,0 0 0 9px rgba(224,160,0,.55)}}";
  document.head.appendChild(style);
  update();
})();
