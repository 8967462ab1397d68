// Killpower Ball's own script (bundled after Arbitre's, on a match's pages only).
(function () {
  "use strict";
  // Killpower Ball's board: a tap on one of your gladiators lights the squares it may reach;
  // a tap on a lit square fills the move form. After "Aim on the board" (or a tap in a square
  // field), the next tap on any square fills that field instead (a throw's aim, a drop). The
  // forms work without any of it.
  var squareInput = null;
  function aimWith(input) {  // the next tap on the board fills this field, not the move form
    squareInput = input;
    document.querySelectorAll(".kp-board").forEach(function (panel) { light(panel, ""); });
  }
  document.addEventListener("focusin", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-square-input]")) aimWith(evt.target);
  });
  function boardOf(el) { return el.closest && el.closest(".kp-board"); }
  function light(panel, id) {
    var svg = panel.querySelector(".kp-field");
    var moves = {};
    try { moves = JSON.parse(svg.getAttribute("data-moves") || "{}"); } catch (e) { moves = {}; }
    var lit = moves[id] || [];
    panel.querySelectorAll(".kp-square").forEach(function (sq) {
      sq.classList.toggle("lit", lit.indexOf(sq.getAttribute("data-square")) >= 0);
    });
    panel.querySelectorAll(".kp-piece").forEach(function (p) {
      p.classList.toggle("chosen", p.getAttribute("data-id") === id);
    });
    panel.setAttribute("data-chosen", lit.length ? id : "");
    return lit.length > 0;
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
    var piece = evt.target.closest(".kp-piece");
    var form = panel.querySelector(".kp-move");
    if (piece && form && !squareInput && light(panel, piece.getAttribute("data-id"))) {
      form.querySelector("[name=gladiator]").value = piece.getAttribute("data-id");
      return;
    }
    var square = evt.target.closest(".kp-square") || (piece && panel.querySelector(
      '.kp-square[data-square="' + piece.getAttribute("data-square") + '"]'));
    if (!square) return;
    var name = square.getAttribute("data-square");
    if (squareInput && document.body.contains(squareInput)) {  // aiming: a throw, a drop
      squareInput.value = name;
      squareInput.scrollIntoView({ block: "center" });
      squareInput = null;
    } else if (form && panel.getAttribute("data-chosen") && square.classList.contains("lit")) {
      form.querySelector("[name=to]").value = name;
      form.querySelector("button[type=submit]").focus();
    }
  });
  document.addEventListener("change", function (evt) {
    if (evt.target.id === "move-who") { squareInput = null; light(boardOf(evt.target), evt.target.value); }
  });
  // A board drawn anew (a page, a live part) lights the squares of the gladiator its form names.
  function lightBoards() {
    document.querySelectorAll(".kp-board #move-who").forEach(function (who) {
      light(boardOf(who), who.value);
    });
  }
  document.addEventListener("htmx:after:settle", lightBoards);
  document.addEventListener("DOMContentLoaded", lightBoards);
})();
