// Build mode on the referee page: the Type / Build switch, and keeping the page's text and the
// editor in step. The editor itself is server-rendered (templates/referee/_builder.html,
// mextrain_site/referee/build_views.py): every tap posts the form (its text) and one edit through
// htmx, and the answer carries the new text in data-text, which lands in the textarea here.
// Taps are posted one after another, each once the previous answer has landed, so quick taps on
// a slow phone are neither lost nor applied to a stale text.
// Without JavaScript none of this shows and the page is Type mode as before.
(function () {
  "use strict";

  function $(id) { return document.getElementById(id); }
  function textarea() { return $("position"); }
  function building() { return $("mode-build") && $("mode-build").getAttribute("aria-pressed") === "true"; }

  function showText(show) {
    var box = textarea(), toggle = $("builder-text-toggle");
    if (!box || !toggle) return;
    box.classList.toggle("b-text-collapsed", !show);
    toggle.setAttribute("aria-expanded", show ? "true" : "false");
    toggle.textContent = show ? toggle.dataset.hide : toggle.dataset.show;
  }

  function setMode(build) {
    var area = $("builder-area"), form = $("adjudicate-form");
    if (!area || !form) return;
    $("mode-type").setAttribute("aria-pressed", build ? "false" : "true");
    $("mode-build").setAttribute("aria-pressed", build ? "true" : "false");
    area.hidden = !build;
    form.classList.toggle("building", build);
    if ($("builder-text-toggle")) $("builder-text-toggle").hidden = !build;
    if (!build && document.querySelector(".adjudicate.folded")) fold(false);
    if (build) {
      showText(false);
    } else {
      var box = textarea();
      if (box) box.classList.remove("b-text-collapsed");
    }
    if (history.replaceState) history.replaceState(null, "", build ? "#build" : location.pathname + location.search);
  }

  // Post one edit ("" only redraws the editor from the text), after every earlier one.
  // data-pending counts the taps not yet answered (tests wait for 0).
  var queue = Promise.resolve(), pending = 0;
  function post(op) {
    var area = $("builder-area");
    if (!area || !window.htmx) return;
    area.dataset.pending = String(++pending);
    queue = queue.then(function () {
      return window.htmx.ajax("POST", area.dataset.url, {
        source: area, target: "#builder", swap: "outerHTML", values: { op: op }
      });
    }).catch(function () { /* htmx reports failures through its own events */ }).then(function () {
      area.dataset.pending = String(--pending);
    });
  }
  function refresh() { post(""); }

  // The page's worked example, untouched, is not the table at hand: Build starts a new one
  // (four seats named as the site names them, nothing laid), asking for the players first.
  function start() {
    var ta = textarea();
    post(ta && ta.dataset.example && ta.value === ta.defaultValue ? "new" : "");
  }

  // After Judge in Build mode the form folds away under the ruling, so the verdict is the first
  // thing under the site's header; #table-fold opens it again (and Type mode never folds). A
  // shared ruling's page has its ruling first already, and its form in a <details>: that closes.
  function fold(on) {
    var page = document.querySelector(".adjudicate"), button = $("table-fold"), ruling = $("ruling");
    var shared = document.querySelector("details.edit-position");
    if (shared && on) shared.open = false;
    if (!page || !button) return;
    if (on && ruling && ruling.nextElementSibling !== button) button.before(ruling);
    button.hidden = false;
    button.setAttribute("aria-expanded", on ? "false" : "true");
    page.classList.toggle("folded", on);
  }

  document.addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target : ev.target.parentElement;
    if (!t) return;
    if (t.closest("#mode-type")) { setMode(false); return; }
    if (t.closest("#mode-build")) { setMode(true); start(); return; }
    if (t.closest("#table-fold")) { fold($("table-fold").getAttribute("aria-expanded") === "true"); return; }
    var tap = t.closest("#builder button[name=op]");
    if (tap) { ev.preventDefault(); post(tap.value); return; }
    if (t.closest("#builder-text-toggle")) { showText($("builder-text-toggle").getAttribute("aria-expanded") !== "true"); return; }
    var back = t.closest(".b-back");
    if (back) {
      setMode(false);
      var link = document.createElement("a");
      link.className = "goto-line";  // adjudicate.js selects the line
      link.dataset.line = back.dataset.line || "1";
      link.dataset.column = back.dataset.column || "1";
      link.hidden = true;
      document.body.appendChild(link);
      if (back.dataset.line) link.click(); else textarea().focus();
      link.remove();
    }
  });

  document.addEventListener("change", function (ev) {
    var select = ev.target.closest && ev.target.closest("#builder select[data-op]");
    if (select) post(select.dataset.op);
  });

  // Enter in the rename field renames (instead of submitting the form to be judged).
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" || !ev.target.closest || !ev.target.closest(".b-rename input")) return;
    ev.preventDefault();
    var button = ev.target.closest(".b-rename").querySelector("button");
    if (button) button.click();
  });

  // A position judged in Build mode (not refused): fold the table away, the ruling at the top.
  document.addEventListener("htmx:afterSwap", function (ev) {
    var ruling = $("ruling");
    if (!building() || !ev.detail.target || ev.detail.target.id !== "ruling" || !ruling ||
        ruling.classList.contains("ruling-error")) return;
    fold(true);
    window.scrollTo(0, 0);
  });

  // The answer to a tap: its text is the new position.
  document.addEventListener("htmx:afterSwap", function () {
    var builder = $("builder");
    if (!builder || builder.dataset.seen) return;
    builder.dataset.seen = "1";
    builder.removeAttribute("aria-busy");
    var ta = textarea();
    if (ta && builder.dataset.edited && ta.value !== builder.dataset.text) {
      ta.value = builder.dataset.text;
      ta.dispatchEvent(new Event("input", { bubbles: true }));  // the character count follows
    }
  });

  // Text typed while in Build mode: show it in the editor after a pause.
  var timer = null;
  document.addEventListener("input", function (ev) {
    if (ev.target !== textarea() || !building() || !ev.isTrusted) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, 500);
  });

  document.addEventListener("DOMContentLoaded", function () {
    var sw = document.querySelector(".build-switch");
    if (!sw || !window.htmx) return;
    sw.hidden = false;
    if (location.hash === "#build") { setMode(true); start(); }
  });
})();
