// Roi / Chevalier / Bourreau's own script (bundled after Arbitre's, on its pages only).
(function () {
  "use strict";
  // A form of class `auto-submit` goes as soon as each of its choices is made (a round's two
  // fighters, its two stakes: the game master's taps, issue 54); its button stays, for a
  // keyboard and a page without this script.
  document.addEventListener("change", function (evt) {
    var form = evt.target.type === "radio" && evt.target.closest("form.auto-submit");
    if (form && Array.from(form.querySelectorAll("input[type=radio]")).every(function (r) {
      return form.elements.namedItem(r.name).value;
    })) form.requestSubmit();
  });
})();
