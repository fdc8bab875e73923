// Game pages: the clocks count down; at the player's turn the tab title
// and favicon are marked, a sound (on unless turned off) and a
// notification (asked once, with a button) tell of it; a premove (a pit
// clicked during the opponent's turn, a second click cancels it) is sown
// the instant it is legal; the chat's mute hides the opponent's messages.
// The server keeps the time; this is only a display.
(function () {
  var game = document.getElementById("game");
  if (!game) return;
  var title = document.title, mine = false;
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
  function beep() {
    var A = window.AudioContext || window.webkitAudioContext;
    if (!A) return;
    var a = new A(), o = a.createOscillator(), g = a.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.2, a.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, a.currentTime + 0.25);
    o.connect(g); g.connect(a.destination);
    o.start(); o.stop(a.currentTime + 0.25);
  }
  // A turn that comes to the player (a live update): title, sound, notification.
  function turn(live) {
    var now = !!document.querySelector("#turn .turn-mine");
    document.title = now && game.dataset.turnTitle ? game.dataset.turnTitle : title;
    markIcon(now && !!game.dataset.turnTitle);
    if (live && now && !mine) {
      if (soundOn()) beep();
      if (document.hidden && window.Notification && Notification.permission === "granted") {
        new Notification(game.dataset.turnTitle, { body: game.dataset.notifyText });
      }
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
  function playPremove() {
    if (!premove) return;
    if (!document.querySelector("#turn .turn-mine")) { showPremove(); return; }
    var b = game.querySelector('button[name="pit"][value="' + premove + '"]');
    premove = null;
    showPremove();
    if (b) b.form.requestSubmit(b);
  }
  if (game.hasAttribute("data-premove")) {
    game.addEventListener("click", function (e) {
      var pit = e.target.closest(".rows .row:last-child div.pit");
      if (!pit || document.querySelector("#turn .turn-mine")) return;
      var label = pit.querySelector(".label").textContent;
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
  tick();
  document.addEventListener("htmx:sseMessage", function () { turn(true); tick(); playPremove(); });
  document.addEventListener("htmx:afterSettle", function () { turn(false); tick(); playPremove(); });
})();
