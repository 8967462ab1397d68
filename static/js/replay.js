// A finished game's replay (issue 37), loaded by its page alone (templates/platform/replay.html).
(function () {
  "use strict";
  // A finished game's replay (issue 37): its steps are links; ← and →, Home and End, a swipe
  // on the board and "Play" follow them. A step comes in by htmx (the board morphed, so pieces
  // move), or as a page where the script is off.
  // A tap is never lost: a step asked while another loads is remembered (`wanted`), and
  // the taps made meanwhile count from it; once the step in flight is in, the last one asked
  // follows (quick taps on "Next" land where they add up to, one request at a time).
  var wanted = null, loading = false;
  function replay() { return document.getElementById("replay"); }
  function shown() { return parseInt(replay().dataset.step, 10); }
  function aim(name) {
    var from = wanted !== null ? wanted : shown(), last = parseInt(replay().dataset.last, 10);
    return {first: 0, prev: Math.max(from - 1, 0), next: Math.min(from + 1, last), last: last}[name];
  }
  function show(n) {
    wanted = n;
    if (loading) return;
    if (n === shown()) { wanted = null; return; }
    loading = true;
    var url = "?step=" + n;
    htmx.ajax("GET", url, {source: "#replay", target: "#replay", select: "#replay", swap: "outerMorph"})
      .then(function () { history.pushState({htmx: true}, "", url); }, function () {})
      .then(function () {
        loading = false;
        if (wanted !== null && replay() && wanted !== shown()) show(wanted); else wanted = null;
      });
  }
  function replayGo(name) {
    if (!replay()) return false;
    var n = aim(name);
    if (n === (wanted !== null ? wanted : shown())) return false;
    show(n);
    return true;
  }
  var NAMES = ["first", "prev", "next", "last"];
  document.addEventListener("click", function (evt) {  // before htmx's own, which drops a tap
    if (evt.button || evt.ctrlKey || evt.metaKey || evt.shiftKey || !evt.target.closest) return;
    var link = evt.target.closest("#replay a[href]");
    var name = link && NAMES.filter(function (n) { return link.hasAttribute("data-replay-" + n); })[0];
    if (!name) return;
    evt.preventDefault();
    evt.stopPropagation();
    replayGo(name);
  }, true);
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
    var at = replay();
    if (at && at.dataset.step === at.dataset.last) replayGo("first");
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
