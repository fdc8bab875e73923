// Replay keyboard: ← → step through the moves, Home and End jump to the
// start and the end. The links work without this script.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, textarea, select")) return;
  var nav = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[e.key];
  var a = nav && document.querySelector('#replay a[data-nav="' + nav + '"]');
  if (!a) return;
  e.preventDefault();
  if (window.htmx) htmx.process(a); // a key pressed right after a swap
  a.click();
});
// A navigation link that had the focus gets it back in the new panel.
var replayFocus = null;
document.addEventListener("click", function (e) {
  var a = e.target.closest("#replay [data-nav]");
  replayFocus = a && document.activeElement === a ? a.dataset.nav : null;
});
document.addEventListener("htmx:afterSettle", function () {
  var a = replayFocus && document.querySelector('#replay [data-nav="' + replayFocus + '"]');
  if (a) a.focus();
  replayFocus = null;
});
// The review's progress comes by its event stream while it is open; the
// poll asks only while it is not (no EventSource, a refused stream).
document.addEventListener("htmx:sseOpen", function (e) {
  if (e.target.id === "review-live") e.target.dataset.open = "1";
});
document.addEventListener("htmx:sseError", function (e) {
  if (e.target.id === "review-live") delete e.target.dataset.open;
});
document.addEventListener("htmx:beforeRequest", function (e) {
  var live = document.getElementById("review-live");
  if (e.target.id === "review-poll" && live && live.dataset.open) e.preventDefault();
});
