// Small helpers; the site works without them.
// Copy buttons: <button data-copy="input-id" hidden> copies that field's text.
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (!b) return;
  var f = document.getElementById(b.dataset.copy);
  f.select();
  if (navigator.clipboard) navigator.clipboard.writeText(f.value);
  b.textContent = "✓ " + b.textContent.replace(/^✓ /, "");
  announce(b.textContent);
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
// The new-game form: the fours setting is only for Nam-nam.
function foursForNamNam() {
  var f = document.querySelector("fieldset.fours"), nn = document.getElementById("rules-namnam");
  if (f && nn) f.disabled = !nn.checked;
}
document.addEventListener("change", function (e) {
  if (e.target.name === "rules") foursForNamNam();
});
document.addEventListener("DOMContentLoaded", foursForNamNam);
function showCopy(root) {
  root.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
}
// After a live update: show copy buttons; when a rematch started, go there.
function updated(e) {
  showCopy(e.target);
  var r = e.target.querySelector("[data-redirect]");
  if (r) location.assign(r.dataset.redirect);
}
document.addEventListener("DOMContentLoaded", function () { showCopy(document); });
document.addEventListener("htmx:afterSettle", updated);
document.addEventListener("htmx:sseMessage", updated);
// Keyboard and screen-reader users keep their place: when a swap of the
// board took the focus away, give it back to the same pit if it is still a
// button, else to the line that says whose turn it is.
var focusedID = null;
document.addEventListener("htmx:beforeRequest", function () {
  var a = document.activeElement;
  focusedID = a && a.id ? a.id : null;
});
function refocus() {
  if (document.activeElement && document.activeElement !== document.body) return;
  var t = (focusedID && document.getElementById(focusedID)) || document.getElementById("turn");
  focusedID = null;
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
// id), whichever of the two comes first.
var shownVersion = 0;
function streamOf() {
  var s = document.querySelector("[sse-connect]");
  return s ? s.getAttribute("sse-connect") : "";
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
  if (v <= shownVersion) e.preventDefault();
  else shownVersion = v;
});
