// The pages around a game's (people, welcome, slips), bundled after Arbitre's for them alone.
(function () {
  "use strict";
  // The page the service worker shows without network comes back by itself with the network
  // (the phone's word, or the server answering again), at the address it stands for.
  if (document.body && document.body.hasAttribute("data-offline-page")) {
    window.addEventListener("online", function () { location.reload(); });
    setInterval(function () {
      fetch("/healthz", {cache: "no-store"}).then(function (r) { if (r.ok) location.reload(); }, function () {});
    }, 5000);
  }
  // A personal link opened in a browser takes its seat at once (a preview, with no script,
  // takes nothing): `templates/platform/seat.html`.
  document.addEventListener("DOMContentLoaded", function () {
    var seat = document.querySelector("form[data-take-seat]");
    if (seat) seat.submit();
  });
  // What a person types while their tap travels is theirs (issue 54: the next name typed while
  // the last one registers): the form's reset after the answer (js/arbitre.js) and its renewal
  // give it back. What was sent is not kept (a name registered leaves its field).
  document.addEventListener("htmx:before:request", function (evt) {
    var ctx = evt.detail.ctx, form = ctx.sourceElement;
    if (form && form.tagName === "FORM") {
      ctx.typed = Array.from(form.querySelectorAll("input[type=text],input:not([type]),textarea"), function (f) {
        return [f, f.value];
      });
    }
  });
  document.addEventListener("htmx:after:request", function (evt) {  // before the form's reset
    var ctx = evt.detail.ctx, form = ctx.sourceElement;
    if (!ctx.typed || !form) return;
    ctx.kept = ctx.typed.filter(function (t) { return t[0].value && t[0].value !== t[1]; })
      .map(function (t) { return [t[0].name, t[0].value]; });
    ctx.action = form.getAttribute("action");
  }, true);
  document.addEventListener("htmx:after:swap", function (evt) {
    var ctx = evt.detail.ctx, form = ctx && ctx.kept && document.querySelector('form[action="' + ctx.action + '"]');
    if (!form) return;
    ctx.kept.forEach(function (k) {
      var field = form.elements.namedItem(k[0]);
      if (field && !field.value) field.value = k[1];
    });
  });
})();
