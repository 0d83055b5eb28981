/* Weekly Pulse: a browser that checked in this week says so instead of offering a second
   check-in. Answers are anonymous, so nothing but the week's name is kept: noted when the
   form is sent, kept once the page comes back thanking (only then did it count). */
(function () {
  "use strict";

  /* The notice (not <html>, which carries data-pulse-done too while it shows). */
  function done() { return document.querySelector("div[data-pulse-done]"); }
  function pendingKey(box) { return box.dataset.pulseDone + ":sending"; }

  document.addEventListener("submit", function (event) {
    var box = done();
    if (box && event.target.matches && event.target.matches("form.pulse-form")) {
      sessionStorage.setItem(pendingKey(box), box.dataset.week);
    }
  }, true);

  var again = false;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-pulse-again]");
    if (!button) return;
    again = true;
    show();
    var first = document.querySelector("form.pulse-form input[name=score]");
    if (first) first.focus();
  });

  /* Checked in this week (the week the page shows now: a live update brings the next one
     when it turns over), and nobody else is checking in on this device: say so. */
  function show() {
    var box = done();
    if (!box) return;
    var checked = !again && localStorage.getItem(box.dataset.pulseDone) === box.dataset.week;
    if (checked) document.documentElement.setAttribute("data-pulse-done", "");
    else document.documentElement.removeAttribute("data-pulse-done");
    box.hidden = !checked;
    /* Just thanked: the server's notice says it already. */
    if (checked && document.querySelector(".pulse-thanks")) box.querySelector(".pulse-done-line").hidden = true;
  }

  function start() {
    var box = done();
    if (!box) return;
    var sent = sessionStorage.getItem(pendingKey(box));
    sessionStorage.removeItem(pendingKey(box));
    if (sent && new URLSearchParams(window.location.search).get("thanks") === "1") {
      localStorage.setItem(box.dataset.pulseDone, sent);
    }
    show();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  document.addEventListener("groupkit:live", show);
})();
