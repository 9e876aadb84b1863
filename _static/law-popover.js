// Lanterloo: a law ID in the book's text opens a popover with the law in a line and its sources, on a
// tap, a click, Enter or Space: the link's title alone shows only to a mouse that hovers, never on a
// touch screen. The popover links on to the law's row in the index of laws; Escape, a tap elsewhere
// or the law's ID again closes it, and the focus goes back to the ID. (The {law} role of
// book/_ext/lanterloo_laws.py writes the links; Jupyter Book adds this file to every page.)
(function () {
  "use strict";
  var open = null;
  function close(refocus) {
    if (!open) return;
    var link = open.link;
    open.pop.remove();
    link.setAttribute("aria-expanded", "false");
    open = null;
    if (refocus) link.focus();
  }
  function show(link) {
    var id = link.textContent.trim();
    var pop = document.createElement("span");
    pop.className = "loo-law-pop";
    pop.setAttribute("role", "dialog");
    pop.setAttribute("aria-label", "Law " + id);
    pop.id = "loo-law-pop-" + id;
    var text = link.getAttribute("data-loo-law") || "";
    var head = document.createElement("strong");
    head.textContent = id;
    var body = document.createElement("span");
    body.textContent = " " + text + " ";
    var more = document.createElement("a");
    more.href = link.getAttribute("href");
    more.textContent = "In the index of laws";
    var shut = document.createElement("button");
    shut.type = "button";
    shut.className = "loo-law-pop-close";
    shut.setAttribute("aria-label", "Close");
    shut.textContent = "\u00d7";
    shut.addEventListener("click", function () { close(true); });
    pop.appendChild(shut);
    pop.appendChild(head);
    pop.appendChild(body);
    pop.appendChild(more);
    link.insertAdjacentElement("afterend", pop);
    link.setAttribute("aria-expanded", "true");
    link.setAttribute("aria-controls", pop.id);
    open = {link: link, pop: pop};
    more.focus({preventScroll: true});
  }
  function ready() {
    document.querySelectorAll("a.loo-law").forEach(function (link) {
      if (link.title) {
        link.setAttribute("data-loo-law", link.title);
        link.removeAttribute("title");  // the popover says it: no second, hover-only copy
      }
      link.setAttribute("aria-haspopup", "dialog");
      link.setAttribute("aria-expanded", "false");
      link.addEventListener("click", function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;  // a new tab: go
        event.preventDefault();
        var again = open && open.link === link;
        close(false);
        if (!again) show(link);
      });
      link.addEventListener("keydown", function (event) {
        if (event.key === " ") { event.preventDefault(); link.click(); }
      });
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) close(true);
  });
  document.addEventListener("click", function (event) {
    if (open && !open.pop.contains(event.target) && event.target !== open.link && !open.link.contains(event.target)) {
      close(false);
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
