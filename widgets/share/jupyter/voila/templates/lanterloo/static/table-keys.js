// Lanterloo: keyboard play at a live table, the same at the server's tables (the lanterloo Voila
// template links it) and at the tables in the reader's browser (play/<game>.html). The Tab key
// and Enter already work on every button; here the arrow keys move between the choices, 1-9 play
// the first to ninth card or tile, U takes back, H asks for a hint, W explains each choice, L shows the
// last trick, N deals the next hand. In an exchange the arrows move along the cards to pick and the button
// that confirms, Space or Enter picks a card (or puts it back), and 1-9 pick the first to ninth.
// When a move redraws the choices, the focus comes back to the first choice (in an exchange, the
// first card to pick), so a keyboard player never has to Tab through the page again.
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
    if (pick) { inTable = true; pick.focus(); pick.click(); }
    return !!pick;
  }
  function focusFirst(table) {
    var list = choices(table);
    var live = table.querySelector(".loo-choices button.mod-primary") || list[0];
    if (live) { live.focus(); }
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
        var other = table.querySelector(".loo-near button:not([disabled]), .loo-next:not([disabled]), button:not([disabled])");
        if (other) { other.focus(); }
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
  // Bring the focus back after the choices are redrawn (the old buttons, and the focus, are gone).
  new MutationObserver(function () {
    applyPace();
    if (!inTable) { return; }
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) { return; }
    var table = document.querySelector(".loo-table-view");
    if (table) { focusFirst(table); }
  }).observe(document.body, {childList: true, subtree: true});
})();
