/* A projector view (issue 29): a table, or the teacher's console's face-up view, filling a 1920x1080
   screen with cards and words the back row of a classroom can read.

   The script tag that loads this names where its button goes (data-where, a CSS selector: the button
   is put at the end of the first element matching it, as soon as the page has one) and the page's
   own width (data-width, in CSS pixels). "?projector=1" in the address, or the "Projector view"
   button (a toggle, aria-pressed), puts the class loo-projector on the document, and the page's
   body is drawn larger by CSS zoom: as much as the screen's width allows the page's width to grow,
   at most MOST times. The button keeps the choice in the address, so that a reload, or the address
   opened on the projector's computer, shows the same view (unless data-remember="no": the answer to
   a form's POST, which a reload would send again). */
(function () {
  "use strict";
  var me = document.currentScript;
  var WHERE = (me && me.getAttribute("data-where")) || "body";
  var WIDTH = parseFloat((me && me.getAttribute("data-width")) || "1000") || 1000;
  var REMEMBER = !(me && me.getAttribute("data-remember") === "no");  /* "no": a page a POST answered */
  var MOST = 2.4, KEY = "projector";
  var root = document.documentElement, button = null;
  var style = document.createElement("style");
  style.textContent =
    /* The body's width is set, not left to the window: WebKit lays a zoomed body's auto width out at
       the window's whole width and then zooms it, so the page ran off the screen's right side. A width
       given is zoomed by every engine alike: the window's width over the zoom fills the screen. */
    "html.loo-projector body{zoom:var(--loo-zoom,1.75);width:var(--loo-width,auto);box-sizing:border-box;" +
    "margin-left:0;margin-right:0}" +
    /* The table's introduction and its game in a minute are for a reader at their own screen: the
       projected table leaves them out (the button brings them back). */
    "html.loo-projector details[data-loo-intro],html.loo-projector details[data-loo-minute]{display:none}" +
    ".loo-projector-toggle{font:inherit;font-size:.85rem;margin-left:.6em;padding:.15em .6em;border:1px solid #555;" +
    "border-radius:.3em;background:#fff;color:#222;cursor:pointer}" +
    ".loo-projector-toggle[aria-pressed=true]{background:#1d5a3c;color:#fff;border-color:#1d5a3c}" +
    ".loo-projector-toggle:focus-visible{outline:3px solid #e0a000;outline-offset:1px}" +
    /* A phone projects nothing: there the button would only push the table down. */
    "@media (max-width:700px){html:not(.loo-projector) .loo-projector-toggle{display:none}}";
  (document.head || root).appendChild(style);
  function fit() {
    var zoom = Math.max(1, Math.min(MOST, window.innerWidth / WIDTH));
    root.style.setProperty("--loo-zoom", zoom.toFixed(3));
    root.style.setProperty("--loo-width", (root.clientWidth / zoom).toFixed(2) + "px");
  }
  function set(on, remember) {
    root.classList.toggle("loo-projector", on);
    if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
    if (remember && REMEMBER) {
      var address = new URL(location.href);
      if (on) { address.searchParams.set(KEY, "1"); } else { address.searchParams.delete(KEY); }
      history.replaceState(history.state, "", address.href);
    }
    fit();
    /* Voila's page lays its panels out in script (Lumino), from the window's size, again on a resize:
       told of one, it lays them out at the zoom just set (WebKit kept the unzoomed layout, whose
       table then ran off the screen's right side). */
    window.dispatchEvent(new Event("resize"));
  }
  function place() {
    var into = document.querySelector(WHERE);
    if (!into) { return false; }
    button = document.createElement("button");
    button.type = "button";
    button.className = "loo-projector-toggle";
    button.textContent = "Projector view";
    button.title = "Large cards and words, for a screen the whole room reads (the address keeps it)";
    button.addEventListener("click", function () { set(!root.classList.contains("loo-projector"), true); });
    into.appendChild(button);
    set(root.classList.contains("loo-projector"), false);
    return true;
  }
  set(new URLSearchParams(location.search).get(KEY) === "1", false);
  window.addEventListener("resize", fit);
  function watch() {
    if (place()) { return; }
    var seen = new MutationObserver(function () { if (place()) { seen.disconnect(); } });
    seen.observe(document.documentElement, {childList: true, subtree: true});
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", watch); } else { watch(); }
})();
