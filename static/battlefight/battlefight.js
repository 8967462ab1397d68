// BattleFight's own script (bundled after Arbitre's, on its pages only).
(function () {
  "use strict";
  // A deck form says, type by type, how many cards are chosen of the 4 wanted (1.1.3).
  function deckCounts() {
    document.querySelectorAll("[data-deck-type]").forEach(function (set) {
      var sum = 0;
      set.querySelectorAll("input[type=number]").forEach(function (input) {
        sum += parseInt(input.value || "0", 10) || 0;
      });
      var out = set.querySelector("[data-deck-count]");
      if (out) { out.textContent = String(sum); out.classList.toggle("off", sum !== 4); }
      // A type holding its 4: no "+" more (a card less first).
      set.querySelectorAll('[data-step="1"]').forEach(function (b) { b.disabled = sum >= 4; });
    });
  }
  document.addEventListener("input", function (evt) {
    if (evt.target.closest && evt.target.closest("[data-deck-type]")) deckCounts();
  });
  document.addEventListener("DOMContentLoaded", deckCounts);
  document.addEventListener("htmx:after:settle", deckCounts);
  // − and + beside a number field (a deck's counts): a card a tap, within the field's bounds.
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("[data-step]");
    var input = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!input) return;
    if (button.dataset.step === "1") input.stepUp(); else input.stepDown();
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // A cell of the hex board taps the same choice as its button below the board (the buttons
  // stay the way in for a keyboard and a screen reader).
  document.addEventListener("click", function (evt) {
    var cell = evt.target.closest && evt.target.closest("[data-choose]");
    if (!cell) return;
    var button = document.querySelector('button[name="values[]"][value="' + CSS.escape(cell.dataset.choose) + '"]');
    if (button) button.click();
  });
})();
