// Small helpers; the site works without them.
// Copy buttons: <button data-copy="input-id" hidden> copies that field's text.
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (b) {
    var f = document.getElementById(b.dataset.copy);
    f.select();
    if (navigator.clipboard) navigator.clipboard.writeText(f.value);
    b.textContent = "✓ " + b.textContent.replace(/^✓ /, "");
    announce(b.textContent);
  }
  // A click outside an open menu of the header closes it.
  document.querySelectorAll("details.drop[open]").forEach(function (d) {
    if (!d.contains(e.target)) d.open = false;
  });
});
document.addEventListener("keydown", function (e) {
  var d = e.key === "Escape" && e.target.closest && e.target.closest("details.drop[open]");
  if (d) { d.open = false; d.querySelector("summary").focus(); }
});
// A field marked data-select selects its text when focused (the invitation link).
document.addEventListener("focusin", function (e) {
  if (e.target.matches("[data-select]")) e.target.select();
});
// announce says a short text to screen readers through a polite live region.
function announce(text) {
  var r = document.getElementById("announce");
  if (!r) {
    r = document.createElement("span");
    r.id = "announce";
    r.className = "vh";
    r.setAttribute("role", "status");
    document.body.appendChild(r);
  }
  r.textContent = text;
}
// The theme toggle keeps the choice in a cookie and switches at once.
document.addEventListener("submit", function (e) {
  var b = e.submitter;
  if (!e.target.matches("form.theme") || !b) return;
  e.preventDefault();
  document.documentElement.dataset.theme = b.value;
  document.cookie = "theme=" + b.value + "; path=/; max-age=31536000; samesite=lax";
  var other = e.target.querySelector("button:not([value=" + b.value + "])");
  if (other) other.focus();
  announce(b.textContent);
});
// Saved board settings win over the game page's sound toggle (turn.js).
document.addEventListener("submit", function (e) {
  if (e.target.matches("form.board-settings")) localStorage.removeItem("oware-sound");
});
// The new-game form: the fours setting is only for Nam-nam.
function foursForNamNam() {
  var f = document.querySelector("fieldset.fours"), nn = document.getElementById("rules-namnam");
  var list = document.querySelector("select[name=rules]");
  if (f && nn) f.disabled = !nn.checked;
  else if (f && list) f.disabled = list.value !== "namnam";
}
document.addEventListener("change", function (e) {
  if (e.target.name === "rules") foursForNamNam();
});
// Sowing: the last move's seeds drop into their pits in turn, within a second.
function sow(root) {
  var drops = root.querySelectorAll(".drop:not(.go)"), step = Math.min(0.15, 0.6 / drops.length) + "s";
  drops.forEach(function (d) {
    d.style.setProperty("--i", d.dataset.i);
    d.style.setProperty("--step", step);
    d.classList.add("go");
  });
}
function showCopy(root) {
  root.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
}
document.addEventListener("DOMContentLoaded", function () {
  foursForNamNam();
  showCopy(document);
  sow(document);
});
// Clocks count down between the server's answers (the game page's, the
// games-now page's and the home page's): data-ms is the time left when
// the server wrote it, data-running marks the clock that runs, data-days
// a correspondence clock; under 10 s a real-time clock shows tenths and
// turns red. The server keeps the time; this is only a display.
function fmt(ms, days) {
  var s = Math.max(0, Math.floor(ms / 1000)), p = function (n) { return (n < 10 ? "0" : "") + n; };
  if (days) {
    var h = Math.floor(s / 3600);
    return h >= 24 ? Math.floor(h / 24) + "d " + (h % 24) + "h" : h + "h " + Math.floor(s / 60) % 60 + "m";
  }
  if (ms < 10000) return Math.floor(Math.max(ms, 0) / 1000) + "." + Math.floor(Math.max(ms, 0) / 100) % 10;
  return s >= 3600 ? Math.floor(s / 3600) + ":" + p(Math.floor(s / 60) % 60) + ":" + p(s % 60) : Math.floor(s / 60) + ":" + p(s % 60);
}
function tick() {
  var now = Date.now();
  document.querySelectorAll(".clock[data-running]").forEach(function (c) {
    if (!c.dataset.t0) c.dataset.t0 = now;
    var left = parseInt(c.dataset.ms, 10) - (now - parseInt(c.dataset.t0, 10));
    var t = c.querySelector(".t");
    if (t) t.textContent = fmt(left, c.hasAttribute("data-days"));
    c.classList.toggle("low", !c.hasAttribute("data-days") && left < 10000);
  });
}
setInterval(tick, 100);
// After a live update: show copy buttons, sow, count; when a rematch started, go there.
// An event of what changed swaps parts of the page out of band: its root is the stream's element.
function updated(e) {
  var root = (e.type === "htmx:sseMessage" && e.target.closest("[sse-connect]")) || e.target;
  showCopy(root);
  sow(root);
  tick();
  var r = root.querySelector("[data-redirect]");
  if (r) location.assign(r.dataset.redirect);
}
document.addEventListener("htmx:afterSettle", updated);
document.addEventListener("htmx:sseMessage", updated);
// The language links follow the address when htmx changes it (replay, tutorials).
document.addEventListener("htmx:pushedIntoHistory", function () {
  var rest = location.pathname.replace(/^\/[a-z]{2}(?=\/)/, "") + location.search;
  document.querySelectorAll(".langs a[hreflang]").forEach(function (a) {
    a.setAttribute("href", "/" + a.getAttribute("hreflang") + rest);
  });
  var next = document.querySelector("form.theme [name=next]");
  if (next) next.value = location.pathname + location.search;
});
// Keyboard and screen-reader users keep their place on the board: when a
// swap of the game took the focus from inside it, it goes back to the same
// pit if still a button, else to the first pit to sow, else to the same
// pit (by script only) or the board. Focus elsewhere stays where it was.
var focusedID = null, focusInGame = false;
function rememberFocus() {
  var a = document.activeElement, g = document.getElementById("game");
  if (a && g && g.contains(a)) {
    focusInGame = true;
    focusedID = a.id || null;
  }
}
document.addEventListener("htmx:beforeRequest", rememberFocus);
document.addEventListener("htmx:sseBeforeMessage", rememberFocus);
function refocus() {
  if (!focusInGame) return;
  focusInGame = false;
  if (document.activeElement && document.activeElement !== document.body) return;
  var same = focusedID && document.getElementById(focusedID);
  var t = same && same.tagName === "BUTTON" ? same :
    document.querySelector('#game button[name="pit"]') || same || document.querySelector("#game .board");
  if (!t) return;
  if (t.tagName !== "BUTTON") t.setAttribute("tabindex", "-1");
  t.focus();
}
document.addEventListener("htmx:afterSettle", refocus);
document.addEventListener("htmx:sseMessage", refocus);
// Live updates. The page's id (the "view" of its event stream) goes with
// every htmx request, so the server does not also stream the panel it
// answers an action of this page with; and a panel is swapped only when
// it is newer than the one shown (the answer's X-Game-Version, the event's
// id), whichever of the two comes first. An event "move" holds only what
// changed since the version before, so it is applied only on that version
// (the page's own, in its stream's "v", until an event came); the server
// sends it only then, and a page that is somehow elsewhere loads itself
// again rather than show a mixture.
var shownVersion = 0;
function streamOf() {
  var s = document.querySelector("[sse-connect]");
  return s ? s.getAttribute("sse-connect") : "";
}
function shown() {
  var m = /[?&]v=(\d+)/.exec(streamOf());
  return Math.max(shownVersion, m ? parseInt(m[1], 10) : 0);
}
document.addEventListener("htmx:configRequest", function (e) {
  var m = /[?&]view=([\w-]+)/.exec(streamOf());
  if (m) e.detail.headers["X-View"] = m[1];
});
document.addEventListener("htmx:beforeSwap", function (e) {
  var v = parseInt(e.detail.xhr.getResponseHeader("X-Game-Version"), 10);
  if (!v) return;
  if (v <= shownVersion && e.detail.xhr.status === 200) e.detail.shouldSwap = false;
  shownVersion = Math.max(shownVersion, v);
});
document.addEventListener("htmx:sseBeforeMessage", function (e) {
  var v = parseInt(e.detail.lastEventId, 10);
  if (!v) return;
  if (e.detail.type === "move" && v > shown() + 1) {
    e.preventDefault();
    location.reload();
  } else if (v <= (e.detail.type === "move" ? shown() : shownVersion)) e.preventDefault();
  else shownVersion = v;
});
// A move answered 503 with X-Move-Unsure may have been stored: the page of
// that answer (which offers to reload the game) replaces the main content,
// instead of nothing happening on the board.
document.addEventListener("htmx:responseError", function (e) {
  var x = e.detail.xhr;
  if (x.status !== 503 || !x.getResponseHeader("X-Move-Unsure")) return;
  var page = new DOMParser().parseFromString(x.responseText, "text/html");
  var from = page.getElementById("main"), to = document.getElementById("main");
  if (!from || !to) return;
  to.replaceChildren.apply(to, Array.from(from.childNodes));
  to.focus();
});
