// The score sheet: the edit secret from the link's fragment into the forms, one tile per round
// across all hands, and the live sheet (server-sent events: the sheet is swapped in on each write).
(function () {
  "use strict";
  var root = document.querySelector(".game[data-game]");
  if (!root) return;
  var game = root.getAttribute("data-game");

  // -- the edit secret: in the fragment (never sent to the server), kept for this tab
  var key = "mextrain-game-" + game;
  var token = "";
  if (root.classList.contains("game-editing")) {
    if (location.hash.length > 1) {
      token = decodeURIComponent(location.hash.slice(1));
      try { sessionStorage.setItem(key, token); } catch (e) { /* private mode: the fragment stays */ }
    } else {
      try { token = sessionStorage.getItem(key) || ""; } catch (e) { token = ""; }
    }
    var fields = document.querySelectorAll(".game-token");
    for (var i = 0; i < fields.length; i++) {
      if (!fields[i].value) fields[i].value = token;
      else token = fields[i].value;
    }
    if (token && location.hash.length <= 1) history.replaceState(null, "", location.pathname + location.search + "#" + token);
  }

  // -- a tile is in at most one hand per round
  var form = document.querySelector(".game-round-form");
  function syncTiles() {
    if (!form) return;
    var boxes = form.querySelectorAll(".game-tile input");
    var taken = {};
    for (var i = 0; i < boxes.length; i++) if (boxes[i].checked) taken[boxes[i].value] = boxes[i].name;
    for (var j = 0; j < boxes.length; j++) {
      var owner = taken[boxes[j].value];
      boxes[j].disabled = !!owner && owner !== boxes[j].name;
    }
  }
  if (form) { form.addEventListener("change", syncTiles); syncTiles(); }

  // -- print
  var printLink = document.querySelector(".game-print");
  if (printLink) {
    printLink.hidden = false;
    printLink.addEventListener("click", function (ev) { ev.preventDefault(); window.print(); });
  }

  // -- live
  var url = root.getAttribute("data-events");
  if (!url || !window.EventSource) return;
  function version() {
    var sheet = document.getElementById("sheet");
    return sheet ? parseInt(sheet.getAttribute("data-version"), 10) : 0;
  }
  // A page whose form was sent is being left: its sheet is not swapped any more (a tap on a link of
  // a sheet swapped in while the save's answer arrives went nowhere). Back from the cache, it is live again.
  var leaving = false;
  document.addEventListener("submit", function () { leaving = true; });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) leaving = false; });
  function refresh() {
    if (leaving) return;
    fetch(location.pathname, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var old = document.getElementById("sheet");
        if (leaving) return;
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("#sheet");
        if (!old || !fresh) return;
        old.replaceWith(fresh);
        var now = fresh.getAttribute("data-version");
        // The round being typed was not written meanwhile: the form may go on from the new version.
        var versions = document.querySelectorAll(".game-version");
        var chosen = form ? form.querySelector("select[name=round]") : null;
        var row = chosen ? fresh.querySelector("#round-" + chosen.value) : null;
        for (var i = 0; i < versions.length; i++) {
          var based = parseInt(versions[i].value, 10);
          var touched = row ? parseInt(row.getAttribute("data-seq"), 10) : 0;
          if (versions[i].form === form ? touched <= based : false) versions[i].value = now;
        }
      })
      .catch(function () { /* the next event or reconnect tries again */ });
  }
  var source = new EventSource(url);
  var live = document.getElementById("game-live");
  source.addEventListener("open", function () { if (live) live.hidden = false; });
  source.addEventListener("sheet", function (ev) {
    if (parseInt(ev.data, 10) > version()) refresh();
  });
})();
