// Game pages (app.js counts the clocks down): at the player's turn the tab title
// and favicon are marked; every move of a seated player's game makes a
// short sound (on unless turned off; the browser lets it play once the
// page was clicked or a key pressed) and a notification (asked once, with
// a button) tells of the turn; a screen reader hears the opponent's move;
// a premove (a pit clicked during the opponent's turn, a second click
// cancels it) is sown the instant it is legal, and a screen reader hears
// it set, cancelled and played; the chat's mute hides the opponent's messages.
// The server keeps the time; this is only a display.
(function () {
  var game = document.getElementById("game");
  if (!game) return;
  var title = document.title, mine = false;
  function soundOn() {
    var v = localStorage.getItem("oware-sound");
    return v ? v === "on" : game.dataset.sound !== "off";
  }
  var icons = [].slice.call(document.querySelectorAll("link[rel=icon]")), plain = icons.map(function (l) { return l.href; });
  var marked = "data:image/svg+xml," + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#9a5b26"/><circle cx="32" cy="32" r="22" fill="#e0201b"/></svg>');
  function markIcon(on) {
    icons.forEach(function (l, i) {
      var href = on ? marked : plain[i];
      if (l.href !== href) l.href = href;
    });
  }
  // One audio context for the page: the autoplay rule keeps it suspended
  // until the first click or key press, which resume it.
  var audio = null;
  function context() {
    var A = window.AudioContext || window.webkitAudioContext;
    if (!audio && A) audio = new A();
    return audio;
  }
  function unlock() {
    var a = context();
    if (a && a.state === "suspended") a.resume();
  }
  document.addEventListener("pointerdown", unlock, true);
  document.addEventListener("keydown", unlock, true);
  // beep is the move sound: a short wooden knock.
  function beep() {
    var a = context();
    if (!a || a.state !== "running") return;
    var o = a.createOscillator(), g = a.createGain();
    o.frequency.setValueAtTime(520, a.currentTime);
    o.frequency.exponentialRampToValueAtTime(260, a.currentTime + 0.12);
    g.gain.setValueAtTime(0.25, a.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, a.currentTime + 0.15);
    o.connect(g); g.connect(a.destination);
    o.start(); o.stop(a.currentTime + 0.15);
  }
  // The moves played so far (the last move's data-ply).
  function ply() {
    var l = document.getElementById("last-move");
    return l ? parseInt(l.dataset.ply, 10) : 0;
  }
  var plies = ply();
  // After an update: a new move sounds and, when the opponent's move gave
  // the turn to the player, is announced with its label.
  function moved(live) {
    var n = ply(), last = document.getElementById("last-move");
    if (n <= plies) { plies = Math.max(plies, n); return; }
    plies = n;
    if (game.dataset.soundLabel && soundOn()) beep();
    if (live && game.dataset.opponentMoved && last && document.querySelector("#turn .turn-mine")) {
      announce(game.dataset.opponentMoved.replace("%s", last.dataset.last));
    }
  }
  // A turn that comes to the player (a live update): title, notification.
  function turn(live) {
    var now = !!document.querySelector("#turn .turn-mine");
    document.title = now && game.dataset.turnTitle ? game.dataset.turnTitle : title;
    markIcon(now && !!game.dataset.turnTitle);
    if (live && now && !mine && document.hidden && window.Notification && Notification.permission === "granted") {
      new Notification(game.dataset.turnTitle, { body: game.dataset.notifyText });
    }
    mine = now;
  }
  // The sound switch and the notification request, for seated players.
  if (game.dataset.soundLabel) {
    var tools = document.createElement("div");
    tools.className = "turn-tools";
    var b = document.createElement("button");
    b.type = "button";
    b.className = "button";
    b.textContent = game.dataset.soundLabel;
    b.setAttribute("aria-pressed", soundOn());
    b.addEventListener("click", function () {
      localStorage.setItem("oware-sound", soundOn() ? "off" : "on");
      b.setAttribute("aria-pressed", soundOn());
      if (soundOn()) beep();
    });
    tools.appendChild(b);
    if (window.Notification && Notification.permission === "default") {
      var n = document.createElement("button");
      n.type = "button";
      n.className = "button";
      n.textContent = game.dataset.notifyLabel;
      n.addEventListener("click", function () {
        Notification.requestPermission().then(function () { n.hidden = true; });
      });
      tools.appendChild(n);
    }
    document.getElementById("turn").after(tools);
  }
  var premove = null;
  function myPits() { return game.querySelectorAll(".rows .row:last-child .pit"); }
  function showPremove() {
    myPits().forEach(function (p) { p.classList.toggle("premove", p.querySelector(".label").textContent === premove); });
  }
  // say reads the premove message of data-premove-KEY with the pit's label.
  function say(key, label) { announce((game.dataset["premove" + key] || "").replace("%s", label)); }
  function playPremove() {
    if (!premove) return;
    if (!document.querySelector("#turn .turn-mine")) { showPremove(); return; }
    var b = game.querySelector('button[name="pit"][value="' + premove + '"]');
    say(b ? "Played" : "Cancelled", premove);
    premove = null;
    showPremove();
    if (!b) return;
    htmx.process(b.form); // a live update's new form: htmx sends it (no page load)
    b.click();
  }
  if (game.hasAttribute("data-premove")) {
    document.addEventListener("DOMContentLoaded", function () { announce(""); });
    game.addEventListener("click", function (e) {
      var pit = e.target.closest(".rows .row:last-child div.pit");
      if (!pit || document.querySelector("#turn .turn-mine")) return;
      var label = pit.querySelector(".label").textContent;
      say(premove === label ? "Cancelled" : "Set", label);
      premove = premove === label ? null : label;
      showPremove();
    });
  }
  var chat = document.getElementById("chat");
  if (chat) {
    var mute = chat.querySelector(".chat-mute");
    var muted = function () { return localStorage.getItem("oware-chat-mute") === "on"; };
    var showMute = function () { chat.classList.toggle("muted", muted()); mute.setAttribute("aria-pressed", muted()); };
    mute.hidden = false;
    mute.addEventListener("click", function () { localStorage.setItem("oware-chat-mute", muted() ? "off" : "on"); showMute(); });
    showMute();
  }
  turn(false);
  document.addEventListener("htmx:sseMessage", function () { moved(true); turn(true); playPremove(); });
  document.addEventListener("htmx:afterSettle", function () { moved(false); turn(false); playPremove(); });
})();
