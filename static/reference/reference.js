/* The rule reference's pages (templates/reference/): a rule, a reason or a passage linked by its
   anchor opens where it lands (its details are folded to keep the page short), and /reasons/'s
   search box filters the rules as the player types. Without this script every disclosure still opens
   on tap and the search box is hidden (the page lists everything). No inline script: strict CSP. */
(function () {
  "use strict";

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    var inner = el.matches("details") ? el : el.querySelector(":scope > details");
    if (inner) inner.open = true;
    for (var d = el.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
    el.scrollIntoView();
  }

  function fold(text) {
    return text.toLocaleLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function search(box) {
    var items = document.querySelectorAll("[data-search]");
    var none = document.getElementById(box.getAttribute("aria-controls") + "-none");
    var run = function () {
      var words = fold(box.value).split(/\s+/).filter(Boolean);
      var shown = 0;
      items.forEach(function (item) {
        var group = item.closest("[data-search-group]");  // a reason is found by its rule's name too
        var name = group && group.querySelector("h3");
        var hay = fold(item.textContent + " " + (name ? name.textContent : ""));
        var hit = words.every(function (w) { return hay.indexOf(w) >= 0; });
        item.hidden = !hit;
        if (hit) shown += 1;
      });
      document.querySelectorAll("[data-search-group]").forEach(function (group) {
        group.hidden = !group.querySelector("[data-search]:not([hidden])");
      });
      if (none) none.hidden = shown > 0;
    };
    box.addEventListener("input", run);
    run();
  }

  document.addEventListener("DOMContentLoaded", function () {
    openTarget();
    window.addEventListener("hashchange", openTarget);
    document.querySelectorAll("[data-search-box]").forEach(function (form) {
      form.hidden = false;
      search(form.querySelector("input[type=search]"));
    });
  });
})();
