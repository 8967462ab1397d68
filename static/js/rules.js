// A form's rules across its fields, said before the tap (issue 53): the server judges each
// command, and a page never offers what it would refuse, a combination of fields included.
// A group (a fieldset, a div) declares its rule; the page marks the group invalid with the
// group's own words (`data-rule`, written in the page's language) until it holds, and the
// browser then keeps the form from being sent, as it does a required field:
//   data-pick="N"       exactly N of its menus chosen (keep two tokens of four);
//   data-distinct       its menus never on one value (two wounds, two places), an option
//                       chosen in one menu greyed out in the others; but the values its
//                       `data-shared` lists (a passport holds several objects); an option
//                       that takes others' places too says so (`data-covers="left right"`);
//   data-total="A-B"    its numbers, each weighing its `data-points`, total A to B (B may be
//                       "@name": what the form's field of that name holds), or 0 where
//                       `data-total-none` allows nothing (left to chance);
//   data-changed        one of its fields at least changed from what the page showed (a
//                       correction that corrects nothing is not one);
//   data-least="N"      N of its boxes ticked at least (one player or more in a team);
//   data-most="N"       N at most (with data-least: exactly N, the cards to discard).
// And a menu whose choice decides what another offers (`data-limits`, the other's name): each
// of its options lists the other's values it allows (`data-allows`); the rest are greyed out,
// and so is an option that says whose it is (`data-of`, values of the first) for another's
// choice: two bearers' cards of one name, each offered with its own bearer only.
// A field asked only for some choices of another (`data-required-when="action:aim exchange"`)
// is required while that other holds one of them; one that only counts for some choices
// (`data-enabled-when`, the same way) is greyed out, and not sent, otherwise (a box ticked for
// a gladiator who played). Fields that share a `data-unique` key never hold one value (the
// gladiators' numbers; an option may say how many may hold it, `data-copies`), and a number
// may be bounded by another (`data-max-from`); a name is never one already taken (`data-taken`,
// a JSON list, told apart whatever their case and spaces: a team's in a league). An option that needs another menu of the
// form on a value (`data-needs="backpack"`: a pocket needs the backpack worn), or a menu named so
// on one of some values (`data-needs="slot_7:outfit backpack"`), is greyed out until one is.
(function () {
  "use strict";
  var GROUPS = "[data-pick],[data-distinct],[data-total],[data-changed],[data-least],[data-most]";

  // An option greyed out for one reason or more (a rule of its group, another menu's choice,
  // a need unmet): each sets its own, and the option is back once none holds. One the page
  // itself greyed out stays so.
  function block(option, why, on) {
    if (option.dataset.blocked === undefined) option.dataset.blocked = option.disabled ? "page" : "";
    var reasons = option.dataset.blocked.split(" ").filter(function (r) { return r && r !== why; });
    if (on) reasons.push(why);
    option.dataset.blocked = reasons.join(" ");
    option.disabled = reasons.length > 0;
  }
  // The places a menu's choice takes: its value, and those its option covers.
  function taken(menu) {
    var option = menu.selectedOptions[0];
    if (!option || option.value === "") return [];
    return [option.value].concat((option.dataset.covers || "").split(" ").filter(Boolean));
  }
  function holds(group) {
    var menus = Array.prototype.slice.call(group.querySelectorAll("select"));
    var ticked = group.querySelectorAll("[type=checkbox]:checked").length;
    if (ticked < (group.dataset.least || 0)) return false;
    if (group.dataset.most !== undefined && ticked > parseInt(group.dataset.most, 10)) return false;
    if (group.dataset.pick) {
      var chosen = menus.filter(function (m) { return m.value !== ""; }).length;
      if (chosen !== parseInt(group.dataset.pick, 10)) return false;
    }
    if (group.hasAttribute("data-distinct")) {
      var seen = {}, shared = sharedOf(group);
      for (var i = 0; i < menus.length; i++) {
        var places = taken(menus[i]);
        for (var j = 0; j < places.length; j++) {
          if (shared[places[j]]) continue;
          if (seen[places[j]]) return false;
          seen[places[j]] = true;
        }
      }
    }
    if (group.hasAttribute("data-changed")) {
      var fields = group.querySelectorAll("input:not([type=hidden]), select");
      var changed = Array.prototype.some.call(fields, function (field) {
        if (field.tagName === "SELECT") {
          return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
        }
        return field.value !== field.defaultValue;
      });
      if (!changed) return false;
    }
    if (group.dataset.total) {
      var bounds = group.dataset.total.split("-").map(function (b) {
        if (b.charAt(0) !== "@") return Number(b);
        var named = group.closest("form").elements.namedItem(b.slice(1));
        return named ? Number(named.value || 0) : 0;
      }), total = 0;
      group.querySelectorAll("input[type=number]").forEach(function (field) {
        total += (parseInt(field.value, 10) || 0) * Number(field.dataset.points || 1);
      });
      var none = total === 0 && group.hasAttribute("data-total-none");
      if (!none && (total < bounds[0] || total > bounds[1])) return false;
    }
    return true;
  }

  function sharedOf(group) {
    var shared = {};
    (group.dataset.shared || "").split(" ").forEach(function (v) { if (v) shared[v] = true; });
    return shared;
  }
  // What the other menus of a distinct group hold is greyed out in each.
  function grey(group) {
    if (!group.hasAttribute("data-distinct")) return;
    var menus = Array.prototype.slice.call(group.querySelectorAll("select")), shared = sharedOf(group);
    menus.forEach(function (menu) {
      var held = {};
      menus.forEach(function (other) {
        if (other !== menu) taken(other).forEach(function (p) { if (!shared[p]) held[p] = true; });
      });
      Array.prototype.forEach.call(menu.options, function (option) {
        if (option.value === "") return;
        var places = [option.value].concat((option.dataset.covers || "").split(" ").filter(Boolean));
        block(option, "rule", places.some(function (p) { return held[p]; }));
      });
    });
  }

  // What a field says when it keeps its form back: each rule its own line, the first said.
  function say(field, who, message) {
    var said = field.arbitreSaid || (field.arbitreSaid = {});
    said[who] = message;
    field.setCustomValidity(Object.keys(said).map(function (k) { return said[k]; }).filter(Boolean)[0] || "");
  }
  // A group that holds as many choices as it picks leaves its other menus closed (a third
  // token is not kept by a slip of the finger).
  function full(group) {
    if (!group.dataset.pick) return;
    var menus = Array.prototype.slice.call(group.querySelectorAll("select"));
    var done = menus.filter(function (m) { return m.value !== ""; }).length >= parseInt(group.dataset.pick, 10);
    menus.forEach(function (menu) {
      Array.prototype.forEach.call(menu.options, function (option) {
        if (option.value !== "") block(option, "pick", done && menu.value === "");
      });
    });
  }
  // The group's words are on the page once a person touched it (or tried to send it), not
  // before: a correction not yet begun says nothing.
  function judge(group) {
    grey(group);
    full(group);
    var first = group.querySelector("select, input:not([type=hidden]):not([data-points='0']):not(:disabled)");
    var ok = holds(group);
    if (first) say(first, "group", ok ? "" : group.dataset.rule || "?");
    var shown = !ok && !!group.dataset.touched, line = group.querySelector(":scope > .rule-said");
    group.classList.toggle("rule-broken", shown);
    if (shown && !line) {
      line = document.createElement("p");
      line.className = "rule-said";
      line.setAttribute("role", "status");
      group.appendChild(line);
    }
    if (shown) line.textContent = group.dataset.rule || "";
    else if (line) line.remove();
  }

  function limit(menu) {
    var other = menu.form && menu.form.elements.namedItem(menu.dataset.limits);
    var chosen = menu.selectedOptions[0];
    if (!other || !other.options) return;
    var allowed = chosen && chosen.value !== "" ? " " + (chosen.dataset.allows || "") + " " : null;
    Array.prototype.forEach.call(other.options, function (option) {
      if (option.value === "") return;
      var whose = option.dataset.of === undefined ? null : " " + option.dataset.of + " ";
      block(option, "limit", allowed !== null && (allowed.indexOf(" " + option.value + " ") < 0
        || (whose !== null && whose.indexOf(" " + chosen.value + " ") < 0)));
    });
    if (other.selectedOptions[0] && other.selectedOptions[0].disabled) other.value = "";
  }
  // Whether the form's field `rule` names ("name:v1 v2") holds one of its values: a box of
  // that name ticked with one, or a menu or a choice on one.
  function fieldHolds(form, rule) {
    var parts = rule.split(":"), values = " " + parts[1] + " ";
    return Array.prototype.some.call(form.querySelectorAll('[name="' + CSS.escape(parts[0]) + '"]'), function (el) {
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return false;
      return el.value !== "" && values.indexOf(" " + el.value + " ") >= 0;
    });
  }
  function requiredWhen(field) {
    field.required = !!field.form && fieldHolds(field.form, field.dataset.requiredWhen);
  }
  function enabledWhen(field) {
    var on = !!field.form && fieldHolds(field.form, field.dataset.enabledWhen);
    field.disabled = !on;
    if (!on && field.type === "checkbox") field.checked = false;
  }
  // A value held by more of a key's fields than it may be (once; an option's `data-copies`),
  // or by what the game already holds (`data-taken`).
  function folded(text) { return String(text).trim().split(/\s+/).join(" ").toLowerCase(); }
  function unique(form) {
    var seen = {};
    form.querySelectorAll("[data-unique]").forEach(function (field) {
      if (field.disabled) { say(field, "unique", ""); return; }
      var option = field.selectedOptions && field.selectedOptions[0];
      var cap = Number(option && option.dataset.copies || 1), key = field.dataset.unique + "\u0000" + folded(field.value);
      seen[key] = (seen[key] || 0) + 1;
      var taken = JSON.parse(field.dataset.taken || "[]").map(folded).indexOf(folded(field.value)) >= 0;
      say(field, "unique", field.value !== "" && (seen[key] > cap || taken) ? field.dataset.rule || "?" : "");
    });
  }
  // A number at most what another field holds, divided (`data-max-from="exp_3/10"`).
  function maxFrom(field) {
    var rule = field.dataset.maxFrom.split("/"), other = field.form && field.form.elements.namedItem(rule[0]);
    field.max = String(Math.floor(Number(other && other.value || 0) / Number(rule[1] || 1)));
  }
  function needs(form) {
    var held = {};
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (menu) { held[menu.value] = true; });
    form.querySelectorAll("option[data-needs]").forEach(function (option) {
      // A value some menu holds, or one of the values a menu named so holds ("slot_7:outfit
      // backpack": a token on the sneakers while they are worn).
      var need = option.dataset.needs;
      block(option, "need", need.indexOf(":") < 0 ? !held[need] : !fieldHolds(form, need));
      if (option.disabled && option.selected) option.parentNode.value = "";
    });
  }
  function judgeAll(root) {
    (root || document).querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("option[data-needs]")) needs(form);
    });
    (root || document).querySelectorAll(GROUPS).forEach(judge);
    (root || document).querySelectorAll("select[data-limits]").forEach(limit);
    (root || document).querySelectorAll("[data-required-when]").forEach(requiredWhen);
    (root || document).querySelectorAll("[data-enabled-when]").forEach(enabledWhen);
    (root || document).querySelectorAll("[data-max-from]").forEach(maxFrom);
    (root || document).querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-unique]")) unique(form);
    });
  }

  document.addEventListener("invalid", function (evt) {  // a tap on send: the words shown
    var group = evt.target.closest && evt.target.closest(GROUPS);
    if (group) { group.dataset.touched = "1"; judge(group); }
  }, true);
  ["change", "input"].forEach(function (type) {
    document.addEventListener(type, function (evt) {
      var touched = evt.target.closest && evt.target.closest(GROUPS);
      if (touched) touched.dataset.touched = "1";
      if (evt.target.matches && evt.target.matches("select[data-limits]")) limit(evt.target);
      var form = evt.target.form;
      if (form) form.querySelectorAll("[data-required-when]").forEach(requiredWhen);
      if (form) form.querySelectorAll("[data-enabled-when]").forEach(enabledWhen);
      if (form) form.querySelectorAll("[data-max-from]").forEach(maxFrom);
      if (form && form.querySelector("[data-unique]")) unique(form);
      if (form && form.querySelector("option[data-needs]")) needs(form);
      var group = evt.target.closest && evt.target.closest(GROUPS);
      if (group) judge(group);
    });
  });
  document.addEventListener("DOMContentLoaded", function () { judgeAll(); });
  document.addEventListener("htmx:after:settle", function () { judgeAll(); });
})();
