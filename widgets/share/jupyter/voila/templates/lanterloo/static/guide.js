// Lanterloo: the guided first hand, at a live table (the server's and the reader's browser's alike).
//
// A newcomer who presses "Play a hand now" on the book's home page gets a table with a short guide
// above it: one prompt at a time, saying what to click and why, chosen by what the table shows now
// (a decision to make, cards to pick, a card to play, others playing, the hand over). The home page's
// link carries ?guide=1, and sets this browser's "lanterloo-guide" to "on" as well (a table opened in
// a chapter's frame then guides too). "Skip the guide" turns it off; the hand's end finishes it
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
  var asked = /[?&]guide=1(&|$)/.test(location.search);
  if (asked && stored() !== "on") store("on");
  var on = asked || stored() === "on";
  if (!on) return;

  // The prompts, in the order a hand meets them. "target" is what to click, outlined while shown.
  var PROMPTS = {
    decide: {
      title: "Your first decision",
      text: "Your cards are at the bottom of the green table, face up; the others' are face down. " +
        "Choose with one of the green buttons under the table: play this hand, or throw it up and sit " +
        "it out. Whoever plays and takes no trick is looed, and pays into the pool. Not sure? Press Hint.",
      target: ".loo-choices button.mod-primary"
    },
    pick: {
      title: "Your exchange",
      text: "Click the cards you want to throw away (each one you pick is marked), then press the button " +
        "that confirms the exchange. You draw as many new ones.",
      target: ".loo-picks button"
    },
    play: {
      title: "Play a card",
      text: "Click one of your cards to play it. You must follow the suit that was led if you can: a card " +
        "you may not play is greyed, and clicking it tells you why. The highest card of the suit led " +
        "takes the trick, unless someone plays a trump.",
      target: ".loo-choices .loo-piece.mod-primary"
    },
    wait: {
      title: "The others are playing",
      text: "Their cards come onto the middle of the table in turn. Last trick (or the key L) shows the " +
        "trick just won, and Take back undoes your last choice.",
      target: null
    },
    over: {
      title: "The hand is over",
      text: "The line under the table says who took chips and who paid. Press Next hand to deal again: " +
        "the pool carries over, and the Ledger tab keeps the score. That is the guide done. Enjoy the game.",
      target: ".loo-next"
    }
  };
  var ORDER = ["decide", "pick", "play", "wait", "over"];

  function phase() {
    if (!document.querySelector(".loo-table-view")) return null;
    var next = document.querySelector(".loo-next button, button.loo-next");
    if (next && !next.disabled) return "over";
    if (document.querySelector(".loo-picks button")) return "pick";
    if (document.querySelector(".loo-choices .loo-piece.mod-primary")) return "play";
    if (document.querySelector(".loo-choices button.mod-primary")) return "decide";
    return "wait";
  }

  var box = null, shown = null, dismissed = {}, finished = false;
  function build() {
    box = document.createElement("section");
    box.className = "loo-guide";
    box.setAttribute("aria-label", "Guide to your first hand");
    box.innerHTML = '<p class="loo-guide-step"></p><p class="loo-guide-text" aria-live="polite"></p>' +
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
    shown = null;
  }
  function untarget() {
    document.querySelectorAll(".loo-guide-target").forEach(function (el) { el.classList.remove("loo-guide-target"); });
  }
  function show(key) {
    var view = document.querySelector(".loo-table-view");
    if (!view) return;
    if (!box) build();
    if (box.parentNode !== view.parentNode || box.nextSibling !== view) view.parentNode.insertBefore(box, view);
    var prompt = PROMPTS[key];
    if (shown !== key) {
      box.querySelector(".loo-guide-step").innerHTML = "<strong>" + prompt.title + "</strong> " +
        '<span class="loo-guide-count">(' + (ORDER.indexOf(key) + 1) + " of " + ORDER.length + ")</span>";
      box.querySelector(".loo-guide-text").textContent = prompt.text;
      box.querySelector("[data-loo-guide-ok]").textContent = key === "over" ? "Finish the guide" : "Got it";
      shown = key;
    }
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
    ".loo-guide{border:2px solid #e0a000;background:#fff8e1;border-radius:8px;padding:.4em .8em;" +
    "margin:0 0 .5em;font-size:15px;line-height:1.35;color:#222;max-width:60em}" +
    ".loo-guide p{margin:.2em 0}.loo-guide-count{color:#555;font-weight:normal}" +
    ".loo-guide button{font:inherit;padding:.25em .8em;margin:.2em .6em .1em 0;border-radius:4px;" +
    "border:1px solid #1d5a3c;background:#1d5a3c;color:#fff;cursor:pointer}" +
    ".loo-guide button[data-loo-guide-skip]{background:#fff;color:#1d5a3c}" +
    ".loo-guide button:focus-visible{outline:3px solid #e0a000;outline-offset:2px}" +
    ".loo-guide-target{box-shadow:0 0 0 3px #fff,0 0 0 6px #e0a000 !important}" +
    "@media (prefers-reduced-motion:no-preference){.loo-guide-target{animation:loo-guide-pulse 1.6s ease-in-out 3}}" +
    "@keyframes loo-guide-pulse{50%{box-shadow:0 0 0 3px #fff,0 0 0 9px rgba(224,160,0,.55)}}";
  document.head.appendChild(style);
  update();
})();
