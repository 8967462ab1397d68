// Serial Battle's own script (bundled after Arbitre's, on its pages only): without network, an
// assault is entered on the phone itself, and a queued assault is edited on its panel.
(function () {
  "use strict";
  var freshKey = Arbitre.freshKey;
  // ---- without network, a Serial Battle assault is entered on the phone itself: the chips'
  // next step cannot come from the server, so the form is built from what the chips carry
  // (each player's cards), and its tap waits in the queue like any other (issue 36). Who
  // attacks is read from the panel as it is (chosen online: the panel says it; offline: the chip
  // marked chosen in it), never remembered across panels.
  var freshChips = null;  // the first step's chips, as last seen: the panel after an assault kept
  function noteChips() {
    var panel = document.querySelector("#assault .assault");
    if (panel && !panel.dataset.player && panel.querySelector("#assault-chips") && !panel.querySelector(".chosen")) {
      freshChips = panel.cloneNode(true);
    }
  }
  document.addEventListener("DOMContentLoaded", noteChips);
  document.addEventListener("htmx:after:settle", noteChips);
  function backToChips(panel) {
    // The assault kept or let go: its players are no longer the page's (back online, the
    // panel shows the chips, never the same pair to tap again).
    history.replaceState(history.state, "", location.pathname);
    var chips = (freshChips || panel).cloneNode(true);
    chips.querySelectorAll(".chosen").forEach(function (c) { c.classList.remove("chosen"); });
    panel.replaceWith(chips);
    htmx.process(chips);
  }
  document.addEventListener("htmx:error", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    var source = ctx && ctx.sourceElement;
    var chip = source && source.closest && source.closest("#assault-chips [data-player]");
    var panel = chip && chip.closest(".assault");
    if (!panel || !ctx.request || ctx.request.method !== "GET") return;
    var attacker = panel.dataset.player ? panel : panel.querySelector("#assault-chips .chosen");
    var title = document.getElementById("assault-title");
    if (attacker === chip) {  // tapped again: not the attacker after all
      chip.classList.remove("chosen");
      chip.removeAttribute("aria-pressed");
      if (title && title.dataset.was) title.textContent = title.dataset.was;
      history.replaceState(history.state, "", location.pathname);
      return;
    }
    if (!attacker) {
      chip.classList.add("chosen");
      chip.setAttribute("aria-pressed", "true");
      if (title) { title.dataset.was = title.dataset.was || title.textContent; title.textContent = chip.dataset.name + " → …"; }
      // Kept in the page's address as online: the network back, the panel renewed says so.
      history.replaceState(history.state, "", location.pathname + "?attacker=" + encodeURIComponent(chip.dataset.player));
      return;
    }
    var skeleton = document.getElementById("assault-offline");
    if (!skeleton) return;
    var form = skeleton.content.firstElementChild.cloneNode(true);
    form.querySelector('[name="attacker"]').value = attacker.dataset.player;
    form.querySelector('[name="defenders[]"]').value = chip.dataset.player;
    form.querySelector("[data-who]").textContent = attacker.dataset.name + " → " + chip.dataset.name;
    form.querySelector('[data-name-of="attacker"]').textContent = attacker.dataset.name;
    form.querySelector('[data-name-of="defender"]').textContent = chip.dataset.name;
    // Each player's cards as the online form's buttons, the usable one chosen (the spec's
    // declared defaults, as online: three taps either way).
    [[attacker, "attacker"], [chip, "defender"]].forEach(function (pair) {
      var who = pair[0], group = form.querySelector('[data-cards-of="' + pair[1] + '"]');
      form.querySelector('[data-card-title="' + pair[1] + '"]').textContent = who.dataset.cardTitle;
      JSON.parse(who.dataset.cards || "[]").concat([["bare", group.dataset.bare]]).forEach(function (card) {
        var label = document.createElement("label"), input = document.createElement("input");
        var name = document.createElement("span");
        input.type = "radio";
        input.name = group.dataset.field;
        input.value = card[0];
        input.checked = card[0] === (who.dataset.default || "bare");
        name.textContent = card[1];
        label.append(input, " ", name);
        group.appendChild(label);
      });
    });
    form.querySelector('[name="idem"]').value = freshKey();
    form.querySelector('[name="seq"]').value = Arbitre.seq();
    panel.replaceChildren(form);
    delete panel.dataset.player;
    // Built on this phone: a refresh of the live part when the network comes back leaves it
    // as it is, until it is kept (sent to the queue) or let go. Its players are the address's.
    panel.setAttribute("hx-morph-skip", "");
    history.replaceState(history.state, "", location.pathname + "?attacker=" +
      encodeURIComponent(attacker.dataset.player) + "&defenders=" + encodeURIComponent(chip.dataset.player));
    htmx.process(form);
  });
  // Its tap leaves: the panel is the live part's again, renewed by the answer (sent once the
  // network is back, the form must not stay to be tapped a second time).
  document.addEventListener("htmx:before:request", function (evt) {
    var form = evt.detail.ctx.sourceElement;
    var panel = form && form.classList && form.classList.contains("offline-assault") && form.closest(".assault");
    if (panel) panel.removeAttribute("hx-morph-skip");
  });
  document.addEventListener("click", function (evt) {
    var back = evt.target.closest && evt.target.closest("[data-offline-back]");
    var panel = back && back.closest(".assault");
    if (panel) backToChips(panel);
  });
  // An assault kept (built offline, or the panel's own form whose sending failed): the chips
  // come back for the next one, so that the same assault is not tapped twice by mistake.
  document.addEventListener("htmx:error", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    var form = ctx && ctx.sourceElement;
    var panel = form && form.closest && form.closest("#assault .assault");
    if (!panel || form.tagName !== "FORM" || ctx.request.method !== "POST") return;
    backToChips(panel);
  });

  // A queued assault edited: its panel opened on the same players, then filled with what was
  // sent, for its referee to change and send (the defender gone: the attacker's chips).
  Arbitre.editors.assault = function (was) {
    var game = /^\/g\/([^/]+)/.exec(location.pathname);
    if (!document.getElementById("assault") || !game) return null;
    return function () {
      var q = new URLSearchParams({attacker: was.get("attacker")});
      was.getAll("defenders[]").forEach(function (d) { q.append("defenders", d); });
      return htmx.ajax("GET", "/g/" + game[1] + "/serial_battle/assault?" + q, {target: "#assault"}).then(function () {
        // The assault being edited is the page's again: a push keeps it, as any online.
        history.replaceState(history.state, "", location.pathname + "?" + q);
        var form = document.querySelector("#assault form:not(.offline-assault)");
        var panel = document.querySelector("#assault .assault");
        if (form && form.querySelector('[name="attacker"]')) { Arbitre.fill(form, was); return true; }
        if (panel && panel.dataset.player) { Arbitre.reveal(panel); return true; }
        return false;
      });
    };
  };
})();
