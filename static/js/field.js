// Arbitre's script for the field, after js/arbitre.js in every page's bundle: countdowns on the
// server's clock and their alerts, news that buzzes once, the screen kept awake, pieces that
// slide between renders (the offline page and a seat taken on opening: js/around.js).
(function () {
  "use strict";

  // ---- countdowns and alerts
  var audio = null;
  function unlockAudio() {
    if (audio || !window.AudioContext) return;
    try { audio = new AudioContext(); } catch (e) { audio = null; }
  }
  function beep(times) {
    // A phone buzzes once it has been touched: before, the browser refuses and logs an error.
    var touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && touched) navigator.vibrate(times > 1 ? [400, 150, 400, 150, 400] : [300]);
    if (!audio) return;
    for (var i = 0; i < times; i++) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.frequency.value = 880;
      osc.connect(gain); gain.connect(audio.destination);
      var start = audio.currentTime + i * 0.35;
      gain.gain.setValueAtTime(0.3, start);
      osc.start(start); osc.stop(start + 0.2);
    }
  }
  function fmt(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var now = Arbitre.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var left = (parseInt(el.dataset.deadline, 10) - now) / 1000;
      var value = el.querySelector(".countdown-value"), text = fmt(left);
      // Four ticks a second, one new figure: the page repaints only when it shows another.
      if (value && value.textContent !== text) value.textContent = text;
      var alertAt = parseInt(el.dataset.alert || "0", 10);
      el.classList.toggle("soon", left <= alertAt && left > 0);
      el.classList.toggle("due", left <= 0);
      var key = el.dataset.deadline;
      if (alertAt && left <= alertAt && left > alertAt - 2 && el._warned !== key) { el._warned = key; beep(1); }
      if (left <= 0 && left > -2 && el._rang !== key) { el._rang = key; beep(3); }
    });
  }
  setInterval(tick, 250);

  // News that buzzes once (a shrink that closed sectors): the first time a phone shows it.
  function buzzNews() {
    document.querySelectorAll("[data-buzz]").forEach(function (el) {
      var id = "buzz:" + el.dataset.buzz;
      try {
        if (sessionStorage.getItem(id)) return;
        sessionStorage.setItem(id, "1");
      } catch (e) { if (el._buzzed) return; el._buzzed = true; }
      beep(3);
    });
  }
  document.addEventListener("htmx:after:settle", buzzNews);
  document.addEventListener("DOMContentLoaded", buzzNews);

  // ---- keep a referee's screen awake
  // A page served over plain HTTP from a laptop on a hotspot is not a secure context: no Wake
  // Lock and no service worker there. The screen is then kept awake by a muted looping video
  // (NoSleep.js, vendored), which a browser starts only on a tap (issue 23).
  var wakeLock = null;
  var secure = window.isSecureContext;
  function keepAwake() {
    if (!document.body.hasAttribute("data-wake-lock")) return;
    if (document.visibilityState !== "visible") return;
    if (secure && navigator.wakeLock) {
      navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () {});
      return;
    }
    videoAwake();
  }
  var noSleep = null;
  function videoAwake() {
    if (noSleep || document.getElementById("nosleep-js")) return;
    var meta = document.querySelector('meta[name="nosleep-src"]');
    if (!meta) return;
    var script = document.createElement("script");
    script.id = "nosleep-js";
    script.src = meta.content;
    script.onload = function () {
      noSleep = new window.NoSleep();
      document.addEventListener("pointerdown", function start() {
        document.removeEventListener("pointerdown", start, true);
        noSleep.enable().then(function () { document.body.dataset.awake = "video"; }).catch(function () {});
      }, true);
    };
    document.head.appendChild(script);
  }
  // Told once to the organizer, on an address that is not HTTPS, what HTTPS would add.
  function insecureHint() {
    var hint = document.getElementById("insecure-hint");
    if (!hint || secure) return;
    try { if (localStorage.getItem("arbitre:insecure-hint")) return; } catch (e) { /* private */ }
    hint.hidden = false;
    hint.querySelector("[data-hint-close]").addEventListener("click", function () {
      hint.hidden = true;
      try { localStorage.setItem("arbitre:insecure-hint", "1"); } catch (e) { /* private */ }
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { keepAwake(); Arbitre.refresh(); }
  });
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("[data-reload]")) location.reload();
  });
  document.addEventListener("DOMContentLoaded", function () {
    keepAwake(); tick(); insecureHint();
    if (secure && "serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
  });

  // A piece that moves between two renders (a replay's steps, a live board) slides from where it
  // was (issue 37): its place is noted before the swap, and the move played back after it.
  var placesBefore = null;
  function piecePlaces() {
    var places = {};
    document.querySelectorAll("[data-piece]").forEach(function (el) {
      places[el.getAttribute("data-piece")] = el.getBoundingClientRect();
    });
    return places;
  }
  document.addEventListener("htmx:before:swap", function () { placesBefore = piecePlaces(); });
  document.addEventListener("htmx:after:settle", function () {
    var before = placesBefore;
    placesBefore = null;
    if (!before || !window.matchMedia || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    document.querySelectorAll("[data-piece]").forEach(function (el) {
      var was = before[el.getAttribute("data-piece")];
      if (!was || !el.animate) return;
      var now = el.getBoundingClientRect();
      var dx = was.left - now.left, dy = was.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      var svg = el.ownerSVGElement, ctm = svg && svg.getScreenCTM();
      if (ctm && ctm.a && ctm.d) { dx = dx / ctm.a; dy = dy / ctm.d; }  // the board's own units
      el.animate([{transform: "translate(" + dx + "px, " + dy + "px)"}, {transform: "none"}],
                 {duration: 350, easing: "ease-out"});
    });
  });

  document.addEventListener("click", unlockAudio);
})();
