// The adjudication page's small helpers. The page works without them (plain form posts);
// with htmx they keep the textarea's error state in step with the ruling panel, move focus
// to a fresh ruling's verdict and announce it, select a bad line in the text, copy a share link, count characters,
// judge again with a larger set in one tap, and post URL-encoded when that fits the server's body limit.
(function () {
  "use strict";

  function textarea() { return document.getElementById("position"); }

  // Select line `line` (1-based) of the textarea, caret at `column`.
  function gotoLine(line, column) {
    var ta = textarea();
    if (!ta) return;
    var lines = ta.value.split("\n");
    var start = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    var end = start + (lines[line - 1] || "").length;
    ta.focus();
    ta.setSelectionRange(start, end);
    var lh = parseFloat(getComputedStyle(ta).lineHeight) || 18;
    ta.scrollTop = Math.max(0, (line - 3) * lh);
    if (column) ta.setSelectionRange(Math.min(start + column - 1, end), end);
  }

  // Mirror the ruling panel's error onto the textarea (aria-invalid and its description).
  function syncError(panel) {
    var ta = textarea();
    if (!ta || !panel) return;
    var described = (ta.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (id) {
      return id && id !== "input-error";
    });
    if (panel.dataset.errorInText) {
      ta.setAttribute("aria-invalid", "true");
      described.push("input-error");
    } else {
      ta.removeAttribute("aria-invalid");
    }
    ta.setAttribute("aria-describedby", described.join(" "));
  }

  function countChars() {
    var ta = textarea();
    var out = document.querySelector(".char-count");
    if (!ta || !out) return;
    var max = parseInt(out.dataset.max, 10);
    var n = ta.value.replace(/\r\n?/g, "\n").length;
    var count = out.querySelector(".char-n");
    if (count) count.textContent = String(n);
    out.classList.toggle("over", n > max);
  }

  function showCopyButtons(root) {
    (root || document).querySelectorAll(".copy-link[data-copy]").forEach(function (b) {
      if (navigator.clipboard) b.hidden = false;
    });
  }

  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest(".goto-line");
    if (link) {
      ev.preventDefault();
      gotoLine(parseInt(link.dataset.line, 10), parseInt(link.dataset.column, 10));
      return;
    }
    var copy = ev.target.closest && ev.target.closest(".copy-link");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.dataset.copy).then(function () {
        copy.textContent = copy.dataset.done || "✓";
      });
    }
  });

  document.addEventListener("input", function (ev) {
    if (ev.target === textarea()) countChars();
  });

  // Bring the verdict to the top of the screen, focus its heading and announce it.
  function showVerdict(announce) {
    var panel = document.getElementById("ruling");
    if (!panel) return;
    var heading = document.getElementById("ruling-heading");
    var top = document.getElementById("verdict") || panel;
    top.scrollIntoView({ block: "start" });
    if (heading) {
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    var live = document.getElementById("verdict-live");
    if (live && announce) {
      var verdict = document.getElementById("verdict");
      live.textContent = verdict ? verdict.dataset.announce : (heading ? heading.textContent : "");
    }
  }

  document.addEventListener("htmx:afterSwap", function (ev) {
    var panel = document.getElementById("ruling");
    if (ev.detail.target && ev.detail.target.id === "ruling" || ev.detail.elt === panel) {
      syncError(panel);
      showVerdict(true);
    }
    showCopyButtons(document);
  });

  // Judge and Share post URL-encoded, which the server reads several times faster than
  // multipart/form-data. A form says how many bytes that may take (data-urlencoded-up-to, the
  // server's body limit): a text of non-Latin letters takes up to 12 bytes a letter URL-encoded,
  // so a longer one goes as the form says without script, multipart, where it takes 2 to 4.
  document.addEventListener("htmx:configRequest", function (ev) {
    var form = ev.detail.elt;
    if (!(form instanceof HTMLFormElement) || !form.dataset.urlencodedUpTo ||
        form.getAttribute("enctype") !== "multipart/form-data") return;
    var size = -1;  // the body as htmx writes it: name=value pairs through encodeURIComponent, joined by &
    ev.detail.formData.forEach(function (value, name) {
      size += 2 + encodeURIComponent(name).length + encodeURIComponent(String(value)).length;
    });
    if (size > parseInt(form.dataset.urlencodedUpTo, 10)) return;
    form.removeAttribute("enctype");  // htmx encodes the body as the form's enctype says when it sends it
    ev.detail.headers["Content-Type"] = "application/x-www-form-urlencoded";
    form.addEventListener("htmx:afterRequest", function () {
      form.setAttribute("enctype", "multipart/form-data");
    }, { once: true });
  });

  // A refusal htmx does not swap (403 after a stale CSRF token, a server error) or no answer.
  function complain(key, status) {
    var panel = document.getElementById("ruling");
    var form = document.getElementById("adjudicate-form");
    if (!panel || !form) return;
    var p = document.createElement("p");
    p.className = "error-message";
    p.setAttribute("role", "alert");
    p.textContent = (form.dataset[key] || "").replace("%(status)s", String(status || ""));
    panel.prepend(p);
  }
  document.addEventListener("htmx:responseError", function (ev) { complain("msgRefused", ev.detail.xhr.status); });
  document.addEventListener("htmx:sendError", function () { complain("msgOffline"); });

  // "Add set: double-N and judge again": the judged text with that line goes into the textarea
  // and is judged from there (htmx), so the page shows the text it judged. Without script the
  // offer's own form posts the whole page, which comes back with that text in the textarea.
  document.addEventListener("submit", function (ev) {
    var retry = ev.target.closest && ev.target.closest("form.retry-set");
    var form = document.getElementById("adjudicate-form");
    var ta = textarea();
    if (!retry || !form || !ta) return;
    ev.preventDefault();
    ta.value = retry.querySelector("textarea[name=position]").value;
    countChars();
    form.requestSubmit();
  });

  // Another language mid-argument keeps the table's position, its rulesets and its ruling: the
  // language switcher reloads the page, so what the player typed rides along in sessionStorage
  // and the page in the new language judges it again (the worked example, untouched, is left for
  // the new page's own, in its language).
  var CARRY = "mextrain-referee-carry";
  document.addEventListener("submit", function (ev) {
    var form = document.getElementById("adjudicate-form");
    var ta = textarea();
    if (!form || !ta || !(ev.target.closest && ev.target.closest(".language-switcher"))) return;
    var judged = !document.querySelector("#ruling > .placeholder");  // a ruling, or a refusal, is shown
    var typed = ta.value !== ta.defaultValue;
    if (!typed && !judged) return;
    var variants = [];
    form.querySelectorAll("input[name=variant]:checked").forEach(function (b) { variants.push(b.value); });
    try {
      sessionStorage.setItem(CARRY, JSON.stringify({ text: typed ? ta.value : null, variants: variants, judge: judged }));
    } catch (e) { /* storage refused: the new page shows its example */ }
  }, true);

  function carried() {
    var raw = null;
    try { raw = sessionStorage.getItem(CARRY); sessionStorage.removeItem(CARRY); } catch (e) { return; }
    var form = document.getElementById("adjudicate-form");
    var ta = textarea();
    if (!raw || !form || !ta) return;
    var carry = JSON.parse(raw);
    if (carry.text !== null) ta.value = carry.text;
    form.querySelectorAll("input[name=variant]").forEach(function (b) { b.checked = carry.variants.indexOf(b.value) >= 0; });
    countChars();
    if (carry.judge) form.requestSubmit();
  }

  document.addEventListener("DOMContentLoaded", function () {
    carried();
    countChars();
    showCopyButtons(document);
    // A shared ruling, or a ruling posted without htmx (the form posts to #ruling): verdict first.
    if (document.getElementById("verdict") || location.hash === "#ruling") showVerdict(true);
  });
})();
