// Killpower Ball's own script (bundled after Arbitre's, on a match's pages only).
(function () {
  "use strict";
  // Killpower Ball's board (issue 54: the board is the control). A tap on one of your gladiators
  // (on the board, or its name above it: the move form's choice) lights the squares it may
  // reach and draws the board large around them, each square at least 44 px (the board pans
  // sideways where they do not fit); a tap on a lit square moves it: two taps. After "Aim on the
  // board" (or a tap in a square field), the next tap on a square that field takes fills it
  // instead (a throw's aim, a drop). The forms work without any of it.
  var SQUARE = 46; // px: a square drawn large, above the 44 px of a finger
  var squareInput = null;
  // The squares a square field takes (`data-squares`: the edge in front for a drop, a half's
  // free squares for Téléportation), or null where any square may be aimed at (a throw).
  function allowed(input) {
    return input.dataset.squares ? input.dataset.squares.split(" ") : null;
  }
  function aimWith(input) {  // the next tap on the board fills this field, not the move form
    squareInput = input;
    var only = allowed(input);
    document.querySelectorAll(".kp-board").forEach(function (panel) {
      light(panel, "");
      if (only) {
        panel.querySelectorAll(".kp-square").forEach(function (sq) {
          sq.classList.toggle("lit", only.indexOf(sq.getAttribute("data-square")) >= 0);
        });
      }
    });
  }
  document.addEventListener("focusin", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-square-input]")) aimWith(evt.target);
  });
  // The move's square typed by hand: one lit for the gladiator chosen (the board's
  // `data-moves`), said before the tap in the page's words, as a square field's below.
  function checkMove(form) {
    var input = form.querySelector(".kp-to input[name=to]"), svg = form.querySelector(".kp-field");
    if (!input || !svg) return;
    var who = form.querySelector("input[name=gladiator]:checked"), moves = {};
    try { moves = JSON.parse(svg.getAttribute("data-moves") || "{}"); } catch (e) { moves = {}; }
    var typed = input.value.trim().toUpperCase();
    var ok = !typed || !who || (moves[who.value] || []).indexOf(typed) >= 0;
    input.setCustomValidity(ok ? "" : input.dataset.rule || "?");
  }
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (evt) {
      var form = evt.target.closest && evt.target.closest(".kp-move");
      if (form) checkMove(form);
    });
  });
  // A square typed that the field does not take is said before the tap, in the page's words.
  document.addEventListener("input", function (evt) {
    var input = evt.target, only = input.dataset && input.dataset.squares && allowed(input);
    if (!only) return;
    var ok = !input.value || only.indexOf(input.value.toUpperCase()) >= 0;
    input.setCustomValidity(ok ? "" : input.dataset.rule || "?");
  });
  function boardOf(el) { return el && el.closest && el.closest(".kp-board"); }
  // The board drawn large around these squares (their x, y in the board's units), or whole.
  function zoom(panel, squares) {
    var svg = panel.querySelector(".kp-field"), box = panel.querySelector(".kp-zoom");
    if (!svg.dataset.whole) svg.dataset.whole = svg.getAttribute("viewBox");
    var whole = panel.querySelector("[data-kp-whole]");
    if (!squares.length) {
      svg.setAttribute("viewBox", svg.dataset.whole);
      svg.style.width = "";
      panel.classList.remove("kp-zoomed");
      if (whole) whole.hidden = true;
      return;
    }
    var xs = squares.map(function (s) { return s[0]; }), ys = squares.map(function (s) { return s[1]; });
    var left = Math.min.apply(null, xs) - 0.6, top = Math.min.apply(null, ys) - 0.6;
    var width = Math.max.apply(null, xs) + 1.6 - left, height = Math.max.apply(null, ys) + 1.6 - top;
    var room = box.clientWidth;
    var shown = Math.max(width, Math.min(room / SQUARE, 7));  // never fewer than 7 squares across
    left -= (shown - width) / 2;
    svg.setAttribute("viewBox", [left, top, shown, height].join(" "));
    panel.classList.add("kp-zoomed");
    // Wider than the phone at 46 px a square: the board is as wide as it needs, and pans.
    var drawn = room / shown < SQUARE ? Math.ceil(shown * SQUARE) : 0;
    svg.style.width = drawn ? drawn + "px" : "";
    // Panned so that the gladiator (the last place given) stands in the middle, across and, where
    // the squares lit run taller than the screen leaves (the box is held to it), down.
    var focus = squares[squares.length - 1];
    box.scrollLeft = drawn ? ((focus[0] + 0.5 - left) / shown) * drawn - room / 2 : 0;
    var unit = (drawn || room) / shown;
    box.scrollTop = (focus[1] + 0.5 - top) * unit - box.clientHeight / 2;
    if (whole) whole.hidden = false;
  }
  // The page scrolled the least that shows the whole of `el` under the sticky header (4rem).
  function inSight(el) {
    var box = el.getBoundingClientRect(), under = 64;
    if (box.bottom > window.innerHeight) window.scrollBy(0, Math.min(box.bottom - window.innerHeight + 8, box.top - under));
    else if (box.top < under) window.scrollBy(0, box.top - under);
  }
  function at(el) {  // a square's or a piece's place on the board, in its units
    var shape = el.querySelector ? (el.querySelector("circle") || el) : el;
    if (shape.tagName === "circle") {
      return [parseFloat(shape.getAttribute("cx")) - 0.5, parseFloat(shape.getAttribute("cy")) - 0.5];
    }
    return [parseFloat(shape.getAttribute("x")), parseFloat(shape.getAttribute("y"))];
  }
  function light(panel, id) {
    if (!panel) return false;
    var svg = panel.querySelector(".kp-field");
    var moves = {};
    try { moves = JSON.parse(svg.getAttribute("data-moves") || "{}"); } catch (e) { moves = {}; }
    var lit = moves[id] || [];
    var places = [];
    panel.querySelectorAll(".kp-square").forEach(function (sq) {
      var on = lit.indexOf(sq.getAttribute("data-square")) >= 0;
      sq.classList.toggle("lit", on);
      if (on) places.push(at(sq));
    });
    panel.querySelectorAll(".kp-piece").forEach(function (p) {
      var chosen = p.getAttribute("data-id") === id;
      p.classList.toggle("chosen", chosen);
      if (chosen && lit.length) places.push(at(p));
    });
    panel.querySelectorAll(".kp-pick input[name=gladiator]").forEach(function (radio) {
      radio.checked = radio.value === id && lit.length > 0;
    });
    var form = panel.querySelector(".kp-move");
    if (form) checkMove(form);
    panel.setAttribute("data-chosen", lit.length ? id : "");
    zoom(panel, places);
    return lit.length > 0;
  }
  function choose(panel, id) {
    var form = panel.querySelector(".kp-move");
    return Boolean(form) && light(panel, id);
  }
  document.addEventListener("click", function (evt) {
    var aim = evt.target.closest && evt.target.closest("[data-aim]");
    if (aim) {
      aimWith(document.getElementById(aim.getAttribute("data-aim")));
      var board = document.querySelector(".kp-board .kp-field");
      if (board) board.scrollIntoView({ block: "center" });
      return;
    }
    var panel = boardOf(evt.target);
    if (!panel) return;
    var pick = evt.target.matches("input[name=gladiator]") && evt.target;
    if (pick) {  // a name tapped (its label passes the tap to it), even the one already chosen
      squareInput = null;
      if (choose(panel, pick.value)) {  // the board large in sight, whole (held to the screen),
        var zoomed = panel.querySelector(".kp-zoom");  // once the name's own focus has scrolled
        setTimeout(function () { inSight(zoomed); }, 0);
      }
      return;
    }
    if (evt.target.closest("[data-kp-whole]")) { light(panel, ""); return; }
    var piece = evt.target.closest(".kp-piece");
    var form = panel.querySelector(".kp-move");
    if (piece && !squareInput && panel.getAttribute("data-chosen") !== piece.getAttribute("data-id") &&
        choose(panel, piece.getAttribute("data-id"))) {
      return;
    }
    var square = evt.target.closest(".kp-square") || (piece && panel.querySelector(
      '.kp-square[data-square="' + piece.getAttribute("data-square") + '"]'));
    if (!square) return;
    var name = square.getAttribute("data-square");
    if (squareInput && document.body.contains(squareInput)) {  // aiming: a throw, a drop
      var only = allowed(squareInput);
      if (only && only.indexOf(name) < 0) return;  // not a square this field takes: not lit
      squareInput.value = name;
      squareInput.setCustomValidity("");
      squareInput.scrollIntoView({ block: "center" });
      squareInput = null;
    } else if (form && panel.getAttribute("data-chosen") && square.classList.contains("lit")) {
      form.querySelector("[name=to]").value = name;
      checkMove(form);
      form.requestSubmit();  // the second tap moves
    }
  });
  // "All of them play": every gladiator of the lineup who may play ticked at one tap (3.2; the
  // boxes start unticked: how many play is the coach's to say).
  document.addEventListener("click", function (evt) {
    var all = evt.target.closest && evt.target.closest("[data-tick-all]");
    if (!all) return;
    all.closest("fieldset").querySelectorAll("input[type=checkbox]:not(:disabled)").forEach(function (box) {
      box.checked = true;
      box.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  // The mover's whole board as high as the first screen leaves under what is above it (a
  // warning, more names), not less than 15rem (static/killpower_match/killpower_match.css).
  function fit() {
    document.querySelectorAll(".kp-move .kp-field").forEach(function (svg) {
      var room = Math.floor(window.innerHeight - (svg.getBoundingClientRect().top + window.scrollY) - 12);
      svg.style.setProperty("--kp-room", room + "px");
    });
  }
  // A board drawn anew (a page, a live part) lights the squares of the gladiator its form names.
  function lightBoards() {
    fit();
    document.querySelectorAll(".kp-board").forEach(function (panel) {
      var who = panel.querySelector(".kp-pick input[name=gladiator]:checked");
      if (who) light(panel, who.value);
    });
  }
  document.addEventListener("htmx:after:settle", lightBoards);
  document.addEventListener("DOMContentLoaded", lightBoards);
  window.addEventListener("resize", fit);
  // A move taken: the page goes up to its sentence, with who moves next and the whole board
  // under them (the mover's first screen), instead of keeping a place that showed the board
  // large and now shows its foot (a newcomer's find, issue 54). Runs after the shared script's
  // answer (bundled after it), which floats the sentence where a page keeps its place.
  document.addEventListener("htmx:finally:request", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    var form = ctx && ctx.sourceEvent && ctx.sourceEvent.target;
    if (!form || !form.classList || !form.classList.contains("kp-move")) return;
    if (!ctx.response || ctx.response.status >= 300 || ctx.keptForLater) return;
    if (document.querySelector("#flash .refused, .form-error, .field-error")) return;
    var floating = document.querySelector(".said-float");
    if (floating) floating.remove();
    window.scrollTo(0, 0);
  });
})();
