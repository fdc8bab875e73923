// Tutorial steps: the ← and → keys follow the previous and next links
// (htmx swaps the step in); after a swap the focus goes to the answer's
// verdict, or else to the step's heading (app.js makes the language links
// follow the new URL). The pages work without this script.
function showKeysTip() {
  // The keys tip is for a keyboard: not on a touch screen without one.
  if (!window.matchMedia || !window.matchMedia("(pointer: coarse)").matches)
    document.querySelectorAll(".keys-tip[hidden]").forEach(function (p) { p.hidden = false; });
}
document.addEventListener("DOMContentLoaded", showKeysTip);
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
  if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
  var rel = e.key === "ArrowLeft" ? "prev" : e.key === "ArrowRight" ? "next" : "";
  if (!rel) return;
  var a = document.querySelector('#tutorial a[rel="' + rel + '"]');
  if (!a) return;
  e.preventDefault();
  a.click();
});
document.addEventListener("htmx:afterSettle", function (e) {
  if (e.target.id !== "tutorial") return;
  showKeysTip();
  var f = document.getElementById("feedback") || document.getElementById("step-title");
  if (f) f.focus();
});
