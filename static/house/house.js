// The house pages on a phone: the builder's "find a rule" box filters its list as one types, a link
// to a rule or a group opens the group folded around it, the quick-pick numbers set their field,
// and the saved page's "Copy" puts its link on the clipboard. Loaded with `defer` under the site's
// Content Security Policy (no inline script or style). Without JavaScript each of these still works
// a plainer way: "Find" posts the form and the page lists the rules found with their groups open;
// the browser opens a folded group when a link leads into it; the number is typed; the link is
// there to copy by hand.
(function () {
  "use strict";

  // As mextrain_site/house/views.py `_fold`: case, accents and spacing ignored.
  function fold(text) {
    return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/ς/g, "σ")
      .split(/\s+/).filter(Boolean).join(" ");
  }

  function openAround(id) {
    var target = document.getElementById(id);
    for (var d = target && target.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      d.open = true;
    }
  }

  // A link into a folded group (the index, the list of rules found, the changed rules) opens it
  // before the browser scrolls to it.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link && link.getAttribute("href").length > 1) openAround(decodeURIComponent(link.getAttribute("href").slice(1)));
  });

  function find() {
    var box = document.getElementById("house-find");
    var list = document.getElementById("house-find-list");
    if (!box || !list) return;
    var none = document.getElementById("house-find-none");
    function filter() {
      var q = fold(box.value), shown = 0;
      list.querySelectorAll("li").forEach(function (li) {
        var hit = q !== "" && li.dataset.find.indexOf(q) !== -1;
        li.hidden = !hit;
        if (hit) shown += 1;
      });
      if (none) none.hidden = q === "" || shown > 0;
    }
    box.addEventListener("input", filter);
    box.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();  // the first rule found, not a post of the whole form
      var first = list.querySelector("li:not([hidden]) a");
      if (first) first.click();
    });
  }

  function chips() {
    document.querySelectorAll(".house-chips").forEach(function (group) {
      group.hidden = false;
      var buttons = group.querySelectorAll(".house-chip");
      var field = buttons.length && document.getElementById(buttons[0].dataset.for);
      if (!field) return;
      function mark() {
        buttons.forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.value === field.value.trim() ? "true" : "false"); });
      }
      buttons.forEach(function (b) {
        b.addEventListener("click", function () {
          field.value = b.dataset.value;
          mark();
          field.dispatchEvent(new Event("change", { bubbles: true }));  // htmx: the differences, as for a typed number
        });
      });
      field.addEventListener("input", mark);
    });
  }

  function copy() {
    document.querySelectorAll(".house-copy[data-copy]").forEach(function (button) {
      button.hidden = false;
      var done = document.getElementById(button.getAttribute("aria-describedby") || "");
      button.addEventListener("click", function () {
        var text = button.dataset.copy;
        var written = navigator.clipboard && navigator.clipboard.writeText ? navigator.clipboard.writeText(text) : Promise.reject();
        written.then(function () {
          if (done) done.hidden = false;
        }, function () {  // no clipboard: the link selected, to copy by hand
          var link = document.querySelector(".house-link");
          if (!link) return;
          var range = document.createRange();
          range.selectNodeContents(link);
          var selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
        });
      });
    });
  }

  function start() { find(); chips(); copy(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
