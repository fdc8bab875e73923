// Small helpers; the site works without them.
// Copy buttons: <button data-copy="input-id" hidden> copies that field's text.
document.addEventListener("click", function (e) {
  var b = e.target.closest("[data-copy]");
  if (!b) return;
  var f = document.getElementById(b.dataset.copy);
  f.select();
  if (navigator.clipboard) navigator.clipboard.writeText(f.value);
  b.textContent = "✓ " + b.textContent.replace(/^✓ /, "");
});
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
