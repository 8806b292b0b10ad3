// Type mode on a phone: a row of one-tap tokens (->, :, -, *, the players' names, mexican, draw,
// pass) shown while the position's text has the focus, above the on-screen keyboard. A tap
// inserts its token at the caret, spaced as the format writes it, and leaves the focus (and the
// keyboard) in the text. The names are those of the text's players: line, kept in step as it is
// typed. Without JavaScript the row stays hidden and the text is typed as before.
(function () {
  "use strict";

  function textarea() { return document.getElementById("position"); }
  function row() { return document.getElementById("type-tokens"); }

  // What goes in for a token, given the text before and after the caret: ":" and "->" are
  // followed by a space, "->", "*" and words are preceded by one, "-" joins a tile's numbers.
  function spaced(token, before, after) {
    var glued = token === ":" || token === "-";
    var lead = !glued && before !== "" && !/\s$/.test(before) ? " " : "";
    var trail = (token === ":" || token === "->") && !/^[ \t]/.test(after) ? " " : "";
    return lead + token + trail;
  }

  function insert(token) {
    var ta = textarea();
    if (!ta) return;
    var start = ta.selectionStart, end = ta.selectionEnd;
    var before = ta.value.slice(0, start);
    if (token === ":") {  // "check :" reads as "check:"
      var trimmed = before.replace(/[ \t]+$/, "");
      if (trimmed.length < before.length) { start = trimmed.length; before = trimmed; }
    }
    var text = spaced(token, before, ta.value.slice(end));
    if (document.activeElement !== ta) ta.focus({ preventScroll: true });
    ta.setSelectionRange(start, end);
    // insertText keeps the browser's undo and sends a real input event (the count, Build's redraw)
    if (!document.execCommand || !document.execCommand("insertText", false, text)) {
      ta.setRangeText(text, start, end, "end");
      ta.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  // The names of the players: line, one button each, rebuilt only when they change.
  var shownNames = null;
  function names() {
    var ta = textarea(), box = row() && row().querySelector(".token-names");
    if (!ta || !box) return;
    var m = /^[ \t]*players[ \t]*:([^#\n]*)/im.exec(ta.value);
    var list = m ? m[1].trim().split(/\s+/).filter(Boolean).slice(0, 20) : [];
    var key = list.join(" ");
    if (key === shownNames) return;
    shownNames = key;
    box.textContent = "";
    list.forEach(function (name) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "token token-name";
      b.tabIndex = -1;
      b.dataset.insert = name;
      var bdi = document.createElement("bdi");
      bdi.textContent = name;
      b.appendChild(bdi);
      box.appendChild(b);
    });
  }

  // Above the keyboard: a phone's keyboard shrinks the visual viewport, not the layout one.
  function place() {
    var r = row(), vv = window.visualViewport;
    if (!r || !vv) return;
    var hidden = Math.max(0, window.innerHeight - (vv.height + vv.offsetTop));
    r.style.setProperty("--keyboard", hidden + "px");
  }

  function show(on) {
    var r = row();
    if (!r) return;
    if (on) { names(); place(); }
    r.hidden = !on;
    document.documentElement.classList.toggle("typing-tokens", on);
  }

  // A tap on a token must not take the focus from the text (the keyboard would close).
  function keep(ev) { if (ev.target.closest && ev.target.closest("#type-tokens")) ev.preventDefault(); }
  document.addEventListener("pointerdown", keep);
  document.addEventListener("mousedown", keep);

  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("#type-tokens .token");
    if (!b) return;
    ev.preventDefault();
    insert(b.dataset.insert);
  });

  document.addEventListener("focusin", function (ev) {
    if (ev.target === textarea()) show(true);
  });
  document.addEventListener("focusout", function (ev) {
    if (ev.target !== textarea()) return;
    var next = ev.relatedTarget;
    if (next && next.closest && next.closest("#type-tokens")) return;
    show(false);
  });
  document.addEventListener("input", function (ev) { if (ev.target === textarea()) names(); });

  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", place);
    window.visualViewport.addEventListener("scroll", place);
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (document.activeElement === textarea()) show(true);
  });
})();
