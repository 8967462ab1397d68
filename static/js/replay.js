// A finished game's replay (issue 37), loaded by its page alone (templates/platform/replay.html).
(function () {
  "use strict";
  // A finished game's replay (issue 37): its steps are links; ← and →, Home and End, a swipe
  // on the board and "Play" follow them. A step comes in by htmx (the board morphed, so pieces
  // move), or as a page where the script is off.
  function replayLink(name) { return document.querySelector("#replay [data-replay-" + name + "]"); }
  function replayGo(name) {
    var link = replayLink(name);
    if (!link || link.getAttribute("aria-disabled") === "true") return false;
    link.click();
    return true;
  }
  var playing = null;
  function replayStop() {
    if (playing) { clearTimeout(playing); playing = null; }
    var button = document.querySelector("[data-replay-play]");
    if (button) { button.textContent = button.dataset.play; button.setAttribute("aria-pressed", "false"); }
  }
  function replayTick() {
    var speed = document.querySelector("[data-replay-speed]");
    playing = setTimeout(function () {
      if (!replayGo("next")) { replayStop(); return; }
      var button = document.querySelector("[data-replay-play]");
      if (button) { button.textContent = button.dataset.pause; button.setAttribute("aria-pressed", "true"); }
      replayTick();
    }, speed ? parseInt(speed.value, 10) : 1000);
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-replay-play]");
    if (!button) return;
    if (playing) { replayStop(); return; }
    var replay = document.getElementById("replay");
    if (replay && replay.dataset.step === replay.dataset.last) replayGo("first");
    button.textContent = button.dataset.pause;
    button.setAttribute("aria-pressed", "true");
    replayTick();
  });
  document.addEventListener("htmx:after:settle", function () {  // a step in: still playing
    var button = document.querySelector("[data-replay-play]");
    if (button && playing) { button.textContent = button.dataset.pause; button.setAttribute("aria-pressed", "true"); }
  });
  document.addEventListener("keydown", function (evt) {
    if (!document.getElementById("replay") || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    if (evt.target.closest && evt.target.closest("input, select, textarea")) return;
    var name = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[evt.key];
    if (name && replayGo(name)) { replayStop(); evt.preventDefault(); }
  });
  var swipeX = null;
  document.addEventListener("touchstart", function (evt) {
    swipeX = evt.target.closest && evt.target.closest("[data-replay-swipe]") ? evt.touches[0].clientX : null;
  }, {passive: true});
  document.addEventListener("touchend", function (evt) {
    if (swipeX === null) return;
    var dx = evt.changedTouches[0].clientX - swipeX;
    swipeX = null;
    if (Math.abs(dx) > 60) { replayStop(); replayGo(dx < 0 ? "next" : "prev"); }
  }, {passive: true});
})();
