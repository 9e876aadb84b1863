// Lanterloo: keyboard play at a live table, the same at the server's tables (the lanterloo Voila
// template links it) and at the tables in the reader's browser (play/<game>.html). The Tab key
// and Enter already work on every button; here the arrow keys move between the choices, 1-9 play
// the first to ninth card or tile, U takes back, H asks for a hint, W explains each choice, L shows the
// last trick, N deals the next hand. In an exchange the arrows move along the cards to pick and the button
// that confirms, Space or Enter picks a card (or puts it back), and 1-9 pick the first to ninth.
// When a move redraws the choices, the focus comes back to the first choice (in an exchange, the
// first card to pick), so a keyboard player never has to Tab through the page again. It also plays
// the reel of the computer players' moves at the reader's pace (see "Watching the play" below), and
// closes a law's panel on Escape or a tap elsewhere.
(function () {
  "use strict";
  var inTable = false;
  function typing(el) {
    return !!el && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable);
  }
  function tableOf(el) {
    return (el && el.closest && el.closest(".loo-table-view")) || document.querySelector(".loo-table-view");
  }
  function choices(table) {  // the choices; in an exchange, the cards to pick and the button that confirms
    return Array.prototype.slice.call(
      table.querySelectorAll(".loo-choices button:not([disabled]), .loo-picks button:not([disabled])"));
  }
  function pickNth(table, key) {  // in an exchange, the key's card is picked or put back
    var pick = table.querySelectorAll(".loo-picks .loo-pick")[Number(key) - 1];
    if (pick) { inTable = true; still(pick); pick.click(); }
    return !!pick;
  }
  // The focus moves without scrolling the page: the table is laid out to be seen whole, and a page
  // that scrolls itself to the hand pushes the trick just led out of sight.
  function still(el) { if (el) { el.focus({preventScroll: true}); } }
  function focusFirst(table) {  // the hinted choice, once a hint names one; else the first live choice
    var list = choices(table);
    still(table.querySelector(".loo-choices button.loo-hinted:not([disabled])") ||
          table.querySelector(".loo-choices button.mod-primary") || list[0]);
  }
  // The page's first Tab stop: a link, shown when focused, straight to the reader's cards or choices
  // (past the page's links and the table's tabs); it is put first in the page as soon as the page has a body.
  function addSkipLink() {
    if (!document.body || document.querySelector(".loo-skip")) { return; }
    var skip = document.createElement("a");
    skip.className = "loo-skip";
    skip.href = "#";
    skip.textContent = "Skip to your cards and choices";
    skip.addEventListener("click", function (e) {
      e.preventDefault();
      var table = document.querySelector(".loo-table-view");
      if (!table) { return; }
      inTable = true;
      focusFirst(table);
      if (!table.contains(document.activeElement)) {  // no choice now: the cards to pick, or the next hand
        still(table.querySelector(".loo-near button:not([disabled]), .loo-next:not([disabled]), button:not([disabled])"));
      }
    });
    document.body.insertBefore(skip, document.body.firstChild);
  }
  if (document.body) { addSkipLink(); } else { document.addEventListener("DOMContentLoaded", addSkipLink); }
  document.addEventListener("focusin", function (e) { inTable = !!(e.target.closest && e.target.closest(".loo-table-view")); });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) { return; }
    var table = tableOf(document.activeElement);
    if (!table) { return; }
    var list = choices(table);
    var at = list.indexOf(document.activeElement);
    var key = e.key;
    if ((key === "ArrowRight" || key === "ArrowLeft") && list.length && (at >= 0 || document.activeElement === document.body)) {
      var step = key === "ArrowRight" ? 1 : -1;
      list[(at < 0 ? 0 : at + step + list.length) % list.length].focus();
      e.preventDefault();
      return;
    }
    if (/^[1-9]$/.test(key)) {
      // The buttons of the key's piece: one for a card or tile, one per suit for a tile that may
      // lead either of its suits (then the focus goes to the first, for Enter or the arrows).
      var slot = table.querySelectorAll(".loo-choices .loo-slot-" + key);
      if (slot.length) { inTable = true; e.preventDefault(); }
      if (slot.length === 1) { slot[0].click(); } else if (slot.length) { slot[0].focus(); }
      else if (pickNth(table, key)) { e.preventDefault(); }
      return;
    }
    var target = {u: ".loo-undo", h: ".loo-hint", w: ".loo-why", n: ".loo-next", l: ".loo-last"}[key.toLowerCase()];
    if (target) {
      var button = table.querySelector(target);
      if (button && !button.disabled) { inTable = true; button.click(); e.preventDefault(); }
      else if (button && button.title) {
        // a key whose button is off says why (its tooltip), in the table's own status line, as a click would
        var line = table.querySelector("div[role=status][aria-live=polite]");
        if (line) { line.textContent = button.title; }
        e.preventDefault();
      }
    }
  });
  // The pace of the computer players' moves is the reader's: kept in this browser's storage when
  // chosen, and chosen again when a table appears (after a reload, or at a new table).
  var PACE_KEY = "lanterloo-pace";
  function storedPace() {
    try { return window.localStorage.getItem(PACE_KEY); } catch (err) { return null; }
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".loo-pace button");
    if (button && e.isTrusted) {
      try { window.localStorage.setItem(PACE_KEY, button.textContent.trim()); } catch (err) { /* storage off */ }
    }
  }, true);
  function applyPace() {
    var pace = storedPace();
    if (!pace) { return; }
    Array.prototype.forEach.call(document.querySelectorAll(".loo-pace:not([data-loo-paced])"), function (control) {
      var buttons = control.querySelectorAll("button");
      if (!buttons.length) { return; }
      control.setAttribute("data-loo-paced", "");
      Array.prototype.forEach.call(buttons, function (b) {
        if (b.textContent.trim() === pace && !b.classList.contains("mod-active")) { b.click(); }
      });
    });
  }
  // Watching the play. The kernel answers a click with the whole change at once: the table as it
  // stands and, before it, a reel of the moves made (widgets.views.pacing), a frame per move with the pause
  // to wait before it (data-wait, seconds) and its words (data-say). The reel is played here, on this
  // browser's clock: while it plays the table as it stands is hidden (the class loo-playing, see the
  // card sheet); when it ends, or at any click or key, the table shows. A reel already on the page
  // when its table was drawn (a reload) is an old one, and is not played again.
  var reel = null;  // the reel playing: {el, table, frames, at, timer, end}
  var knownFilms = typeof WeakSet === "function" ? new WeakSet() : null;
  function seconds(el, name) {
    var n = parseFloat(el.getAttribute(name));
    return isFinite(n) && n > 0 ? n : 0;
  }
  function announce(table, text) {
    var region = table.querySelector(".loo-announce .widget-html-content") || table.querySelector(".loo-announce");
    if (region) { region.textContent = text; }
  }
  function showFrame(r) {
    r.frames.forEach(function (f, i) { f.hidden = i !== r.at; });
    announce(r.table, r.frames[r.at].getAttribute("data-say") || "");
  }
  function advance(r) {
    if (reel !== r) { return; }
    r.at += 1;
    if (r.at >= r.frames.length) { endReel(false); return; }
    showFrame(r);
    var after = r.at + 1 < r.frames.length ? seconds(r.frames[r.at + 1], "data-wait") : r.end;
    r.timer = window.setTimeout(function () { advance(r); }, after * 1000);
  }
  function playReel(el) {
    var table = el.closest(".loo-table-view");
    var frames = Array.prototype.slice.call(el.querySelectorAll(".loo-frame"));
    if (reel) { endReel(true); }
    if (!table || !frames.length) { return; }
    var focused = inTable;
    reel = {el: el, table: table, frames: frames, at: -1, timer: 0, end: seconds(el, "data-end")};
    table.classList.add("loo-playing");
    advance(reel);
    var rest = el.querySelector(".loo-show-rest");
    if (focused && rest && reel) { still(rest); }
  }
  function endReel(skipped) {
    var r = reel;
    if (!r) { return; }
    reel = null;
    window.clearTimeout(r.timer);
    if (skipped && r.at + 1 < r.frames.length) {  // the moves not yet shown, said together
      announce(r.table, r.frames.slice(r.at + 1).map(function (f) { return f.getAttribute("data-say"); }).join(" "));
    }
    r.table.classList.remove("loo-playing");
    // The status line shows again: said again, so that a screen reader hears whose turn it is now.
    var status = r.table.querySelector(".loo-status .widget-html-content");
    if (status) { status.innerHTML = status.innerHTML; }
    if (inTable) { focusFirst(r.table); }
  }
  function watchReels() {
    if (reel && !document.contains(reel.el)) { endReel(false); }
    Array.prototype.forEach.call(document.querySelectorAll(".loo-film"), function (film) {
      var known = knownFilms ? knownFilms.has(film) : film.hasAttribute("data-loo-known");
      if (knownFilms) { knownFilms.add(film); } else { film.setAttribute("data-loo-known", ""); }
      var el = film.querySelector(".loo-reel:not([data-loo-seen])");
      if (!el) { return; }
      el.setAttribute("data-loo-seen", "");
      if (known) { playReel(el); }
    });
    // The table's live region for the moves, a log of them: the widget's own element, which stays while
    // its words change (the table's status line, role=status, is another region: whose turn, what went wrong).
    Array.prototype.forEach.call(document.querySelectorAll(".loo-announce:not([role])"), function (region) {
      region.setAttribute("role", "log");
      region.setAttribute("aria-live", "polite");
    });
  }
  // A click while a reel plays shows the table at once, and then goes on to what it clicked.
  document.addEventListener("click", function (e) {
    if (!reel) { return; }
    var rest = e.target.closest && e.target.closest(".loo-show-rest");
    if (rest || reel.table.contains(e.target)) {
      endReel(true);
      if (rest) { e.preventDefault(); }
    }
  }, true);
  // So does a key (Tab and the modifier keys excepted); the keys of the table's buttons (U, H, W, L, N)
  // then do what they do, and any other key is spent on showing the table, not on a choice not yet seen.
  document.addEventListener("keydown", function (e) {
    if (!reel || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) { return; }
    if (/^(Tab|Shift|Control|Alt|Meta|CapsLock)$/.test(e.key)) { return; }
    endReel(true);
    if (!/^[uhwln]$/i.test(e.key)) { e.preventDefault(); e.stopImmediatePropagation(); }
  }, true);
  // A law cited at the table (widgets/draw/law_refs.py) is a <details>: a tap, a click, Enter or Space on
  // its ID opens its panel and closes it again. Escape closes an open one too (the focus going back
  // to its ID), and a tap anywhere else closes it.
  function openLaws() { return Array.prototype.slice.call(document.querySelectorAll("details.loo-law[open]")); }
  document.addEventListener("keydown", function (e) {
    var open = e.key === "Escape" ? openLaws() : [];
    if (!open.length) { return; }
    var active = document.activeElement;
    var here = active && active.closest && active.closest("details.loo-law");
    open.forEach(function (law) { law.open = false; });
    if (here) { here.querySelector("summary").focus(); }
    e.preventDefault();
  });
  document.addEventListener("click", function (e) {
    var inside = e.target.closest && e.target.closest("details.loo-law");
    openLaws().forEach(function (law) { if (law !== inside) { law.open = false; } });
  });
  // Bring the focus back after the choices are redrawn (the old buttons, and the focus, are gone);
  // a hint that names a choice takes the focus to it, once.
  new MutationObserver(function () {
    applyPace();
    watchReels();
    if (!inTable) { return; }
    var hinted = document.querySelector(".loo-table-view .loo-choices button.loo-hinted:not([data-loo-hint-seen])");
    if (hinted && !reel) { hinted.setAttribute("data-loo-hint-seen", ""); still(hinted); return; }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) { return; }
    var table = document.querySelector(".loo-table-view");
    if (table) { focusFirst(table); }
  }).observe(document.body, {childList: true, subtree: true});
})();
