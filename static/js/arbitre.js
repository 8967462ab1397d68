// Arbitre's own script: what htmx cannot do alone. Live refresh on each change, the connection
// state, retries of taps made offline (same idempotency key, so never doubled), copy buttons.
// Countdowns, alerts, the screen kept awake and the service worker: js/field.js.
(function () {
  "use strict";
  var offset = 0; // server time minus phone time, in ms
  var pollTimer = null;
  var pending = []; // requests that got no answer: {action, body, target, swap}

  function freshKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  // A filter field for a long list (the assault's 32 player chips): accents and case set aside.
  function fold(text) {
    return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function filter(field) {
    var list = document.querySelector(field.dataset.filter);
    if (!list) return;
    var wanted = fold(field.value.trim());
    list.querySelectorAll("[data-filter-item]").forEach(function (item) {
      item.hidden = wanted !== "" && fold(item.dataset.filterItem).indexOf(wanted) < 0;
    });
  }
  document.addEventListener("input", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-filter]")) filter(evt.target);
  });
  // An action that asks first (`hx-confirm`) asks in the page's own dialog, in the words of
  // the page's language (`#conn`'s), not the browser's: big buttons, and a push renewing the
  // page meanwhile does not close it. Declined: nothing is sent.
  var dialog = null;
  document.addEventListener("htmx:confirm", function (evt) {
    var words = document.getElementById("conn"), asked = evt.detail;
    if (!words || !window.HTMLDialogElement) return;  // the browser's own
    evt.preventDefault();
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "panel";
      dialog.setAttribute("aria-labelledby", "confirm-text");
      dialog.innerHTML = '<form method="dialog" class="stack"><p id="confirm-text"></p><div class="button-grid">' +
        '<button value="no" class="button secondary" autofocus></button><button value="yes" class="button"></button></div></form>';
      var buttons = dialog.querySelectorAll("button");
      buttons[0].textContent = words.dataset.no;
      buttons[1].textContent = words.dataset.yes;
      document.body.appendChild(dialog);
    }
    dialog.querySelector("p").textContent = asked.ctx.confirm;
    dialog.returnValue = "";
    dialog.onclose = function () { dialog.returnValue === "yes" ? asked.issueRequest() : asked.dropRequest(); };
    dialog.showModal();
  });
  // A list renewed by a push is filtered again as its field says.
  function filterAll() { document.querySelectorAll("[data-filter]").forEach(filter); }
  document.addEventListener("htmx:after:settle", filterAll);

  function csrf() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.content : "";
  }
  function stream() { return document.getElementById("stream"); }
  function liveRegions() { return document.querySelectorAll("[data-live]"); }
  function seqOf(el) { return parseInt(el && el.dataset.seq || "0", 10); }
  // A half-made action kept in the page's address (an assault's players picked): the
  // keys its live part reads (`data-page-query`), as the address holds them now. The page's
  // refresh asks its part with them, so that it shows what a fresh load of the address shows.
  function ownQuery(el) {
    var keys = el && el.dataset.pageQuery;
    if (!keys || !/^\/g\/[^/]+$/.test(location.pathname)) return "";
    var kept = new URLSearchParams(), here = new URLSearchParams(location.search);
    keys.split(" ").forEach(function (key) {
      here.getAll(key).forEach(function (value) { kept.append(key, value); });
    });
    return kept.toString();
  }

  // A field being typed in (or a menu open) is not changed under the user's fingers; a box or
  // a button tapped last is no typing (its choice survives the morph: issue 50).
  function typing(el) {
    return el.contains(document.activeElement) &&
      document.activeElement.matches("input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=submit]):not([type=button]):not([data-filter]), textarea, select");
  }
  function refreshLive() {
    liveRegions().forEach(function (el) {
      if (typing(el)) {
        el.dataset.stale = "1"; // the user is typing: refresh when they leave the field
        return;
      }
      htmx.trigger(el, "refresh");
    });
  }

  // ---- a live part that changes under the user's hands keeps what is theirs: a row they
  // unfolded stays open (the server's part knows nothing of it), and a form whose tap is on its
  // way stays as it was sent (its button disabled, its key), until its own answer comes.
  var keepingOpen = 0; // swaps of a live part (pushed or refreshed) under way
  htmx.registerExtension("arbitre", {
    htmx_before_morph_node: function (elt) {
      // (Not in the form's own answer, which replaces it.)
      if (keepingOpen && elt.classList && elt.classList.contains("htmx-request")) return false;
    },
    htmx_before_morph_attr: function (elt, detail) {
      if (keepingOpen && elt.tagName === "DETAILS" && detail.attrName === "open" && detail.newValue === null) return false;
    }
  });

  // ---- connection banner
  function banner(state) {
    var conn = document.getElementById("conn");
    if (!conn) return;
    var text = conn.querySelector("[data-conn-text]");
    conn.classList.toggle("pending", state === "pending");
    if (state === "ok") { conn.hidden = true; return; }
    if ((state === "lost" || state === "pending") && navigator.onLine === false) state = "offline";  // the phone knows
    text.textContent = text.dataset[state] || text.dataset.lost;
    conn.hidden = false;
  }

  // The page's live stream (`#stream`'s `data-stream`): each of its events (hello, changed, part,
  // revoked) is said on `#stream`, its text in `detail.data`. The browser opens a dropped stream
  // again by itself; one it gave up on (the field's server down when the phone came back in
  // range, an answer that is no stream) is opened again by the polling below.
  var source = null;
  function connect() {
    var el = stream();
    if (source) source.close();
    source = null;
    if (!el || !el.dataset.stream || !window.EventSource) return;
    var own = source = new EventSource(el.dataset.stream);
    ["hello", "changed", "part", "revoked"].forEach(function (name) {
      own.addEventListener(name, function (e) {
        var target = stream();
        if (own === source && target) target.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { data: e.data } }));
      });
    });
    own.onerror = function () { if (own === source) lost(); };
  }
  document.addEventListener("DOMContentLoaded", connect);
  window.addEventListener("pagehide", function () { if (source) source.close(); });
  window.addEventListener("pageshow", function (evt) { if (evt.persisted) reconnect(); });  // back from the cache

  // While the stream is down, the live part is fetched every few seconds, and the stream opened
  // again.
  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(function () {
      var s = stream();
      if (s && !s.dataset.connected && navigator.onLine !== false) reconnect(); else refreshLive();
    }, 5000);
  }
  function stopPolling() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }

  function reconnect() {
    if (!stream()) return;
    connect();
    retryPending();
    refreshLive();
  }

  document.addEventListener("htmx:config:request", function (evt) {
    var ctx = evt.detail.ctx;
    ctx.request.headers["X-CSRF-Token"] = csrf();
    if (ctx.replay) ctx.request.body = new URLSearchParams(ctx.replay.body);
    // A live part says what it shows: unchanged for this viewer, the server answers 204 and
    // renders nothing (issue 21).
    var el = ctx.sourceElement;
    if (el && el.dataset && el.hasAttribute("data-live") && ctx.request.method === "GET") {
      if (el.dataset.liveTag) ctx.request.headers["X-Live-Tag"] = el.dataset.liveTag;
      var own = ownQuery(el);
      if (own && ctx.request.action.indexOf("?") < 0) ctx.request.action += "?" + own;
      ctx.asked = own;
    }
  });
  // A tap whose form is the half-made action its address held (the assault rolled, its
  // players in its fields) ends it: the address lets go of it at once, so that no refresh made
  // meanwhile asks for it again. Its answer says the address to hold (a refusal: the same
  // players again); any other tap keeps it (a correction made meanwhile).
  document.addEventListener("htmx:before:request", function (evt) {
    var ctx = evt.detail.ctx, live = heldPart(), form = ctx.sourceElement;
    if (ctx.request.method !== "POST" || !live || !ownQuery(live) || !form || !form.elements) return;
    var keys = live.dataset.pageQuery.split(" ");
    var holds = Array.prototype.some.call(form.elements, function (field) {
      return keys.indexOf((field.name || "").replace(/\[\]$/, "")) >= 0;
    });
    if (holds) history.replaceState(history.state, "", location.pathname);
  });
  // The outbox: a game's tap is kept on the phone from the moment it leaves, so a page closed
  // while it travels loses none (sent again with its key: applied once); listed if its answer
  // is slow to come. Whether it may have reached the server is judged now, not at its failure.
  // Taken once the request really leaves: after its confirmation, never before (a tap whose
  // confirmation was declined, or is still being read, is no action waiting).
  document.addEventListener("htmx:before:request", function (evt) {
    var ctx = evt.detail.ctx, el = ctx.sourceElement;
    var body = ctx.request.body, text = null;
    if (body instanceof URLSearchParams) text = body.toString();
    else if (body instanceof FormData && !Array.from(body.values()).some(function (v) { return v instanceof File; })) {
      text = new URLSearchParams(body).toString();
    }
    if (!ctx.replay && ctx.request.method === "POST" && text !== null && isTap(ctx.request.action)) {
      var job = {action: ctx.request.action, body: text, target: ctx.target, swap: ctx.swap,
                 label: tapLabel(el, text), tried: navigator.onLine !== false, live: true};
      ctx.job = job;
      inflight.push(job);
      keep();
      job.slow = setTimeout(function () { job.live = false; listQueue(); banner("pending"); }, 1500);
    }
  });
  function isTap(action) { return /^\/g\/[^/]+\/act$/.test(action || ""); }

  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail.ctx;
    // A part asked for an address the page no longer holds (a tap changed it meanwhile): not
    // swapped in, and asked again as the page is now.
    if (ctx && ctx.asked !== undefined && ctx.response && ctx.asked !== ownQuery(ctx.sourceElement)) {
      evt.preventDefault();
      refreshLive();
      return;
    }
    // The game went to another phase (setup, running, finished): a refresh brings the new
    // layout by reloading the page; an action's own answer already carries it.
    var status = ctx && ctx.response && ctx.response.headers.get("X-Game-Status");
    if (status && document.body.dataset.status && status !== document.body.dataset.status) {
      if (ctx.request && ctx.request.method === "GET") { location.reload(); return; }
      document.body.dataset.status = status;
    }
    var seq = ctx && ctx.response && ctx.response.headers.get("X-Game-Seq");
    var s = stream();
    // An answer that took its time, while the stream brought a later change: it is swapped in
    // (its sentence, its refusal), then the later change is fetched again.
    if (seq && s && ctx.request.method === "POST" && parseInt(seq, 10) < seqOf(s)) ctx.late = true;
    if (seq && s && parseInt(seq, 10) > seqOf(s)) s.dataset.seq = seq;
    var source = ctx && ctx.sourceElement;
    if (seq && ctx.request.method === "GET" && ctx.response.status === 200) letGoOfSaid(parseInt(seq, 10));
    if (ctx && ctx.response && ctx.request.method === "GET" && source && source.hasAttribute && source.hasAttribute("data-live")) {
      if (!ctx.keepingOpen) { ctx.keepingOpen = true; keepingOpen++; }
      var tag = ctx.response.headers.get("X-Live-Tag");
      if (tag) source.dataset.liveTag = tag; else delete source.dataset.liveTag;
      // Unchanged: the screen is the game's at this number; its forms say so.
      if (ctx.response.status === 204 && seq) {
        source.querySelectorAll('input[name="seq"]').forEach(function (input) { input.value = seq; });
      }
    } else if (ctx && ctx.request && (ctx.request.method === "POST" || (ctx.target && ctx.target.closest && ctx.target.closest("[data-live]")))) {
      // An answer swapped in, or a piece of the live part asked alone (an assault's next
      // step): the part held is no longer the one its fingerprint names.
      liveRegions().forEach(function (el) { delete el.dataset.liveTag; });
    }
    // An action applied: its form goes back to a blank sheet, so a second tap is a new action
    // on purpose, not the last one's values sent again.
    var form = ctx && ctx.sourceElement;
    if (form && form.tagName === "FORM" && ctx.request.method === "POST" && ctx.response.status < 300) {
      form.reset();
      // ...with a key of its own: the server refuses a key sent again with another body.
      var idem = form.querySelector('input[name="idem"]');
      if (idem) idem.value = freshKey();
    }
  });

  // The sentence of this phone's last action goes once the game has moved on past it: the
  // page is then what a fresh load shows, and its controls stay where they were (issue 50).
  // The journal and the latest actions keep it.
  function letGoOfSaid(seq) {
    document.querySelectorAll("#flash .flash[data-seq]").forEach(function (said) {
      if (seq > parseInt(said.dataset.seq, 10)) said.remove();
    });
  }

  // After an action, its sentence (to read aloud) is brought into view and focused, with the
  // decision it calls for right under it.
  // A refusal (a changed screen, a card that cannot be used, a die to type) is brought into view
  // the same way: a referee must not think the tap was lost, and tap again.
  function reveal(el, box) {
    el.setAttribute("tabindex", "-1");
    (box || el).scrollIntoView({block: "start"});
    el.focus({preventScroll: true});
  }
  // A tap sent again when the network came back, and refused (the game moved on meanwhile): the
  // refusal is said where the next change of the live part cannot take it away (once the
  // answer, which brings its own news region, is in).
  function refusedLater(text) {
    var flash = document.getElementById("flash");
    var conn = document.querySelector("#conn [data-conn-text]");
    if (!flash || !conn) return;
    var answer = new DOMParser().parseFromString(text || "", "text/html");
    var why = answer.querySelector("#flash .refused, .form-error, .field-error, .dice-prompt label");
    var note = document.createElement("p");
    note.className = "flash refused";
    note.setAttribute("role", "alert");
    note.textContent = conn.dataset.refused + (why ? " " + why.textContent.trim() : "");
    flash.replaceChildren(note);
    reveal(note, flash);
  }
  document.addEventListener("htmx:finally:request", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    if (ctx && ctx.keepingOpen) { ctx.keepingOpen = false; keepingOpen--; }
    if (ctx && ctx.late) { ctx.late = false; liveRegions().forEach(function (el) { delete el.dataset.liveTag; }); refreshLive(); }
    if (!ctx || !ctx.request || ctx.request.method !== "POST" || !ctx.response) return;
    if (ctx.keptForLater) return;  // sent again later: nothing to say yet
    if (ctx.replay && ctx.response.status >= 400) { refusedLater(ctx.text); return; }
    var problem = document.querySelector("#flash .refused, .form-error, .dice-prompt, .field-error");
    if (problem) { reveal(problem, problem.closest("#flash")); return; }
    if (ctx.response.status >= 300) return;
    var said = document.querySelector("#flash .flash");
    if (!said) return;
    // A page played far from its top (a coach's controls under the board) keeps its place: the
    // sentence floats at the bottom of the screen until the next tap, instead of a jump up...
    // unless what was tapped is done with (a one-time step taken: no form of its kind left),
    // and the place kept shows nothing of what comes next (issue 54): the page goes up to the
    // sentence, the now-line and the next controls under it.
    var tapped = ctx.sourceEvent && ctx.sourceEvent.target;  // the form sent (its submit)
    var type = tapped && tapped.querySelector && tapped.querySelector('input[name="type"]');
    var gone = type && !document.querySelector('#live form input[name="type"][value="' + CSS.escape(type.value) + '"]');
    if (document.body.dataset.said === "float" && !gone) floatSaid(said, document.getElementById("flash"));
    else reveal(said, document.getElementById("flash"));
  });
  // A copy floats at the bottom of the screen until the next touch, or until someone else's
  // change renews the page (an old sentence never covers a question just asked, issue 54); the
  // sentence itself stays where it is (read by screen readers there), so nothing on the page
  // moves under a finger.
  function dropFloat() {
    var old = document.querySelector(".said-float");
    if (old) old.remove();
  }
  function floatSaid(said, region) {
    dropFloat();
    var box = region.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;  // in sight already
    var copy = said.cloneNode(true);
    copy.removeAttribute("role");
    copy.setAttribute("aria-hidden", "true");
    copy.classList.add("said-float");
    document.body.appendChild(copy);
    document.addEventListener("pointerdown", function sink() {
      copy.remove();
      document.removeEventListener("pointerdown", sink, true);
    }, true);
  }

  // The stream says "hello" (its sequence number and the server time) and "changed".
  document.addEventListener("hello", function (evt) {
    if (evt.target !== stream()) return;
    var data = JSON.parse(evt.detail.data);
    offset = data.now - Date.now();
    stream().dataset.connected = "1";
    if (data.seq > seqOf(stream())) { stream().dataset.seq = data.seq; refreshLive(); }
    stopPolling();
    banner(pending.length ? "pending" : "ok");
  });
  // A page's stream says "changed" with the fingerprint of this viewer's part (the same as the
  // one held: only the forms' number moves, nothing is fetched), or brings the part itself
  // ("part"), one trip instead of a nudge and a request (issue 21).
  function heldPart() { return document.querySelector("#live[data-live]"); }
  document.addEventListener("changed", function (evt) {
    if (evt.target !== stream()) return;
    var data = JSON.parse(evt.detail.data);
    offset = data.now - Date.now();
    if (data.seq <= seqOf(stream())) return;
    stream().dataset.seq = data.seq;
    dropFloat();  // someone else's change: the sentence floating is no longer the last word
    var live = heldPart();
    if (data.tag && live && live.dataset.liveTag === data.tag) {
      live.querySelectorAll('input[name="seq"]').forEach(function (input) { input.value = data.seq; });
      return;
    }
    refreshLive();
  });
  document.addEventListener("part", function (evt) {
    if (evt.target !== stream()) return;
    var data = JSON.parse(evt.detail.data);
    offset = data.now - Date.now();
    if (data.status && document.body.dataset.status && data.status !== document.body.dataset.status) {
      location.reload();  // another phase of the game: another layout
      return;
    }
    var live = heldPart();
    if (!live || data.seq <= seqOf(stream())) return;
    dropFloat();
    if (ownQuery(live)) {  // a part made for the address this page holds: asked as it is
      stream().dataset.seq = data.seq;
      refreshLive();
      return;
    }
    if (typing(live)) {
      live.dataset.stale = "1"; // the user is typing: their refresh comes when they leave the field
      return;
    }
    stream().dataset.seq = data.seq;
    // The part is the same for every phone of this projection: it holds marks where this
    // page puts its own cross-site token and a base of its own for its forms' keys.
    var html = data.html.split(data.marks.csrf).join(csrf()).split(data.marks.keys).join(freshKey());
    keepingOpen++;
    Promise.resolve(htmx.swap({ text: html, target: live, swap: "innerMorph" })).finally(function () {
      keepingOpen--;
    }).then(function () {
      live.dataset.liveTag = data.tag;
      letGoOfSaid(data.seq);
      filterAll();
    });
  });
  document.addEventListener("revoked", function (evt) {
    if (evt.target !== stream()) return;
    banner("revoked");
    setTimeout(function () { location.reload(); }, 1500);
  });
  function lost() {
    var s = stream();
    if (s) delete s.dataset.connected;
    banner("lost");
    startPolling();
  }

  // ---- taps whose answer never came (offline, or the answer was lost on the way back): the
  // very same request body is sent again, hence the same idempotency key: applied once at most,
  // whatever the page has become in between.
  var retryTimer = null;
  document.addEventListener("htmx:error", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    if (!ctx || !ctx.request || ctx.request.method !== "POST") return;
    keepTap(ctx);
  });
  function keepTap(ctx) {
    if (!(ctx.request.body instanceof URLSearchParams)) return; // a file: the user sends it again
    if (!ctx.replay) {
      var job = ctx.job;
      if (job) {  // from the outbox to the queue
        clearTimeout(job.slow);
        sent(job);
        job.live = false;
      } else {
        job = {action: ctx.request.action, body: ctx.request.body.toString(), target: ctx.target,
               swap: ctx.swap, label: tapLabel(ctx.sourceElement, ctx.request.body), tried: true};
      }
      // A phone that knew it had no network when the tap left sent nothing: it can still be
      // cancelled. Otherwise it may have reached the server (an answer lost): it cannot be.
      pending.push(job);
      keep();
      // Taken into the queue: the form starts a new action, with a key of its own (the next
      // tap is another assault, not this one sent again).
      var idem = ctx.sourceElement && ctx.sourceElement.querySelector && ctx.sourceElement.querySelector('input[name="idem"]');
      if (idem) idem.value = freshKey();
    } else if (pending.indexOf(ctx.replay) < 0) {
      sent(ctx.replay);
      ctx.replay.tried = true;
      pending.push(ctx.replay);
      keep();
    }
    banner("pending");
    if (!retryTimer) retryTimer = setTimeout(retryPending, 3000);
  }
  // A tap answered by a proxy in front (502, 504: the process behind died under it) or by a
  // server asking to be asked again (503): no answer of the game's. Nothing is swapped in (an
  // empty page would be); the tap is kept and sent again with its key: applied once (issue 55).
  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    if (!ctx || !ctx.request || ctx.request.method !== "POST" || !ctx.response) return;
    if ([502, 503, 504].indexOf(ctx.response.status) < 0 || !isTap(ctx.request.action)) return;
    evt.preventDefault();
    ctx.keptForLater = true;
    keepTap(ctx);
  });
  // A tap being sent again stays kept until its answer comes: a page left meanwhile loses none.
  var inflight = [];
  function sent(job) {
    var at = inflight.indexOf(job);
    if (at >= 0) inflight.splice(at, 1);
  }
  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail && evt.detail.ctx;
    if (ctx && ctx.replay && ctx.response) { sent(ctx.replay); keep(); }
    if (ctx && ctx.job && ctx.response) {  // answered (done or refused): out of the outbox
      clearTimeout(ctx.job.slow);
      sent(ctx.job);
      ctx.job = null;
      keep();
      if (!pending.length && !inflight.length) banner(stream() && !stream().dataset.connected ? "lost" : "ok");
    }
  });
  // Sent again in order: the game's own taps together to its queue (each applied unless someone
  // else changed what it names meanwhile; those come back, said, with the later taps naming the
  // same people held behind them), any other request (an invitation) on its own, as it was.
  function retryPending() {
    clearTimeout(retryTimer);
    retryTimer = null;
    // The phone knows it has no network: nothing is tried until it says it is back ("online").
    if (navigator.onLine === false) return;
    var jobs = pending;
    pending = [];
    inflight = inflight.concat(jobs);
    jobs.forEach(function (job) { job.tried = true; });
    keep();  // listed as being sent: too late to cancel
    var chain = Promise.resolve(), batch = [];
    function flush() {
      var taps = batch;
      batch = [];
      if (taps.length) chain = chain.then(function () { return drainKept(taps); });
    }
    jobs.forEach(function (job) {
      if (isTap(job.action)) { batch.push(job); return; }
      flush();
      chain = chain.then(function () {
        var target = job.target && job.target.isConnected ? job.target : document.getElementById("live");
        return htmx.ajax("POST", job.action, {
          source: document.getElementById("conn") || document.body,
          target: target || document.body,
          swap: job.swap,
          replay: job
        });
      }).catch(function () {});
    });
    flush();
    chain.then(function () {
      var s = stream();
      if (!pending.length) banner(s && !s.dataset.connected ? "lost" : "ok");
    });
  }
  window.addEventListener("online", function () { retryPending(); reconnect(); });
  // An open stream may not notice a dead network for minutes: the phone's own word is enough.
  window.addEventListener("offline", lost);

  // ---- the waiting taps, listed under the banner (each cancellable), and kept in the phone's
  // storage: a reload or a closed browser loses none (issue 36). Back online, they go to the
  // game's queue in order: each applied unless someone else changed what it names meanwhile;
  // those come back, said and kept too, until their referee sends each again, edits or drops it.
  // Each page (tab) keeps its own; a page that opens takes in every queue kept for its address
  // (another tab's, closed or not): sent twice, a tap is applied once, by its key.
  var QUEUES = "arbitre-queue:" + location.pathname;
  var QUEUE = QUEUES + "#" + freshKey().slice(0, 8);
  var returned = [];  // {job, result}: taps the queue sent back, until their referee answers
  function keep() {
    try {
      var kept = inflight.concat(pending).map(function (j) { return {action: j.action, body: j.body, label: j.label, tried: !!j.tried}; })
        .concat(returned.map(function (r) { return {action: r.job.action, body: r.job.body, label: r.job.label, returned: r.result}; }));
      if (kept.length) localStorage.setItem(QUEUE, JSON.stringify(kept));
      else localStorage.removeItem(QUEUE);
    } catch (e) { /* private mode: the queue lives as long as the page */ }
    listQueue();
  }
  function tapLabel(form, body) {
    var words = [];
    if (form && form.querySelectorAll) {
      form.querySelectorAll("select").forEach(function (sel) {
        var opt = sel.options[sel.selectedIndex];
        if (opt && opt.value) words.push(opt.textContent.trim());
      });
      var button = form.querySelector("button[type=submit], button:not([type])");
      var who = form.querySelector("[data-who]");
      if (who) words.unshift(who.textContent.trim());
      else {
        // Whom it names, when the form says it only by a hidden number (a row's correction).
        form.querySelectorAll('input[type=hidden][name="player"], input[type=hidden][name="target"]').forEach(function (h) {
          var named = h.value && document.querySelector('[data-player="' + CSS.escape(h.value) + '"][data-name]');
          if (named) words.unshift(named.dataset.name);
        });
        if (button) words.unshift(button.textContent.trim());
      }
    }
    return words.join(" · ") || decodeURIComponent((/type=([^&]*)/.exec(body) || ["", "?"])[1]);
  }
  function smallButton(text, secondary, then) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button small" + (secondary ? " secondary" : "");
    button.textContent = text;
    button.addEventListener("click", then);
    return button;
  }
  function listQueue() {
    var conn = document.getElementById("conn");
    if (!conn) return;
    var list = document.getElementById("queue");
    if (!list) {
      list = document.createElement("ol");
      list.id = "queue";
      list.className = "queue";
      conn.insertAdjacentElement("afterend", list);
    }
    list.textContent = "";
    inflight.concat(pending).filter(function (job) { return !job.live; }).forEach(function (job) {
      var item = document.createElement("li");
      item.textContent = job.label + " ";
      if (!job.tried && pending.indexOf(job) >= 0) {
        item.appendChild(smallButton(conn.dataset.cancel, true, function () {
          pending = pending.filter(function (j) { return j !== job; });
          keep();
          if (!pending.length) banner("ok");
        }));
      } else {  // it may have reached the server already: said, not offered to cancel
        var note = document.createElement("small");
        note.textContent = conn.dataset.tried;
        item.appendChild(note);
      }
      list.appendChild(item);
    });
    returned.forEach(function (r) { list.appendChild(returnedItem(r, conn)); });
    list.hidden = !list.children.length;
  }
  function answered(r) {
    returned = returned.filter(function (x) { return x !== r; });
    keep();
  }
  function returnedItem(r, conn) {
    var item = document.createElement("li");
    item.className = "queue-" + r.result.status;
    item.textContent = r.job.label + " — " + r.result.message + " ";
    item.appendChild(smallButton(conn.dataset.again, false, function () {
      // Confirmed: sent again on the screen as it is now, with a key of its own (re-checked).
      answered(r);
      // Its key follows from the first one's: the same tap confirmed in two tabs is one action.
      var was = (/(^|&)idem=([^&]*)/.exec(r.job.body) || [])[2] || freshKey();
      var turn = /-(\d+)$/.exec(was);
      var key = turn ? was.replace(/-\d+$/, "-" + (parseInt(turn[1], 10) + 1)) : was.slice(0, 56) + "-2";
      var again = {action: r.job.action, label: r.job.label, tried: true,
                   body: r.job.body.replace(/(^|&)seq=\d*/, "$1seq=" + seqOf(stream()))
                                   .replace(/(^|&)idem=[^&]*/, "$1idem=" + key)};
      inflight.push(again);
      keep();
      drainKept([again]);
    }));
    var edit = editor(r.job);
    if (edit) item.appendChild(smallButton(conn.dataset.edit, true, function () { edit(r); }));
    item.appendChild(smallButton(conn.dataset.drop, true, function () { answered(r); }));
    return item;
  }
  // Edited: the tap's own form, on the page as it is now, filled with what was sent (an
  // assault: its panel opened on the same players, then filled), for its referee to change and
  // send. The tap is let go only once its form is on the screen (offline, nothing happens).
  function fill(form, was) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden" || !was.has(field.name)) return;
      if (field.type === "radio" || field.type === "checkbox") field.checked = was.getAll(field.name).indexOf(field.value) >= 0;
      else field.value = was.get(field.name);
    });
    for (var fold = form.closest("details"); fold; fold = fold.parentElement && fold.parentElement.closest("details")) fold.open = true;
    var inner = form.querySelector("details");
    if (inner && /roll_[a-z]/.test(Array.from(was.keys()).join(" "))) inner.open = true;
    reveal(form);
  }
  function editor(job) {
    var was = new URLSearchParams(job.body), type = was.get("type");
    // A game whose tap is edited on a form of its own making says how (its script's editor).
    var own = Arbitre.editors[type] && Arbitre.editors[type](was);
    if (own) return function (r) { own().then(function (done) { if (done) answered(r); }, function () {}); };
    var form = Array.prototype.find.call(document.querySelectorAll("#live form"), function (f) {
      var t = f.querySelector('input[type=hidden][name="type"]');
      return t && t.value === type && Array.prototype.every.call(f.querySelectorAll("input[type=hidden]"), function (h) {
        return ["type", "seq", "idem", "csrf_token"].indexOf(h.name) >= 0 || !was.has(h.name) || was.getAll(h.name).indexOf(h.value) >= 0;
      });
    });
    if (!form) return null;
    return function (r) { fill(form, was); answered(r); };
  }
  // Drains under way: the network back, one hung on the dead one is given up and sent again.
  var draining = [];
  window.addEventListener("online", function () {
    draining.forEach(function (c) { c.abort(); });
    draining = [];
  });
  function drainKept(jobs) {
    var game = /^\/g\/([^/]+)/.exec(location.pathname);
    if (!game || !jobs.length) return Promise.resolve();
    if (jobs.length > 50) {  // the server takes 50 at a time: the rest after, in order
      return drainKept(jobs.slice(0, 50)).then(function () { return drainKept(jobs.slice(50)); });
    }
    // A network that takes the request and never answers (a hotspot's edge): given up after a
    // while, and sent again later with the same keys.
    var giveUp = new AbortController(), timer = setTimeout(function () { giveUp.abort(); }, 20000);
    draining.push(giveUp);
    function back(results) {  // what became of each: said, or returned to its referee
      var applied = [];
      results.forEach(function (result, i) {
        if (result.status === "applied") applied.push(result);
        else returned.push({job: jobs[i], result: result});
      });
      jobs.forEach(sent);
      keep();
      saidApplied(applied);
      refreshLive();
      if (!pending.length && !inflight.length) banner("ok");
    }
    return fetch("/g/" + game[1] + "/queue", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrf()},
      body: JSON.stringify({taps: jobs.map(function (j) { return {body: j.body}; })}),
      signal: giveUp.signal
    }).then(function (answer) {
      clearTimeout(timer);
      draining = draining.filter(function (c) { return c !== giveUp; });
      if (answer.ok) return answer.json().then(function (data) { back(data.results); });
      if (answer.status < 500 && answer.status !== 429 && answer.status !== 408) {
        // Refused whole (a link revoked, a queue the server cannot read): each comes back
        // with the reason, to drop or edit; sent again, it would be refused again.
        return answer.json().catch(function () { return {}; }).then(function (data) {
          var said = {status: "refused", message: (data && data.message) || String(answer.status)};
          back(jobs.map(function () { return said; }));
        });
      }
      return Promise.reject(answer);
    }).catch(function () {  // no answer (the network, a server restarting): kept, to send again
      clearTimeout(timer);
      draining = draining.filter(function (c) { return c !== giveUp; });
      jobs.forEach(function (job) { sent(job); job.tried = true; });
      pending = jobs.concat(pending);
      keep();
      banner("pending");
      if (!retryTimer) retryTimer = setTimeout(retryPending, 3000);
    });
  }
  // What the queue applied, said where this phone's last sentence goes.
  function saidApplied(results) {
    var flash = document.getElementById("flash");
    if (!flash || !results.length) return;
    // Said together, they go together, once the game moves past the last of them.
    var last = Math.max.apply(null, results.map(function (result) { return result.seq || 0; }));
    flash.replaceChildren.apply(flash, results.map(function (result) {
      var line = document.createElement("p");
      line.className = "flash";
      line.setAttribute("role", "status");
      if (last) line.dataset.seq = last;
      line.textContent = result.message;
      return line;
    }));
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("conn")) return;  // not a game's page (the offline page)
    var kept = [], seen = {};
    try {
      Object.keys(localStorage).filter(function (k) { return k === QUEUES || k.indexOf(QUEUES + "#") === 0; }).forEach(function (k) {
        JSON.parse(localStorage.getItem(k) || "[]").forEach(function (job) {
          var idem = (/(^|&)idem=([^&]*)/.exec(job.body) || [])[2] || job.body;
          if (!seen[idem]) { seen[idem] = true; kept.push(job); }
        });
        localStorage.removeItem(k);
      });
    } catch (e) { kept = []; }
    if (!kept.length) return;
    returned = kept.filter(function (j) { return j.returned; }).map(function (j) { return {job: j, result: j.returned}; });
    pending = kept.filter(function (j) { return !j.returned; });
    if (!pending.length) { keep(); return; }
    if (navigator.onLine === false) { keep(); banner("pending"); return; }
    retryPending();
  });

  document.addEventListener("focusout", function (evt) {
    var region = evt.target.closest && evt.target.closest("[data-live]");
    if (region && region.dataset.stale) {
      setTimeout(function () {
        if (!region.contains(document.activeElement)) { delete region.dataset.stale; htmx.trigger(region, "refresh"); }
      }, 300);
    }
  });

  // The language switch comes back to the address the page holds now (an assault being
  // entered, its players in the address: issue 50).
  document.addEventListener("submit", function (evt) {
    var next = evt.target.matches && evt.target.matches("form.lang") && evt.target.querySelector('[name="next"]');
    if (next && !/^\/t\//.test(location.pathname)) next.value = location.pathname + location.search;
  });
  document.addEventListener("click", function (evt) {
    var retry = evt.target.closest("[data-conn-retry]");
    if (retry) { reconnect(); return; }
    var copy = evt.target.closest("[data-copy]");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.dataset.copy).then(function () {
        copy.textContent = copy.dataset.copied || "✓";
      });
    }
  });

  // What the field's script (js/field.js) and a game's own (static/<kind>/<kind>.js), bundled
  // after this one, may use.
  window.Arbitre = {
    editors: {},  // by command type: (fields sent) -> null, or () -> Promise(form shown?)
    freshKey: freshKey,
    seq: function () { return seqOf(stream()); },
    fill: fill,
    reveal: reveal,
    now: function () { return Date.now() + offset; },  // the server's clock, as this phone reads it
    refresh: refreshLive
  };

})();
