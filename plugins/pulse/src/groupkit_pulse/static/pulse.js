/* Weekly Pulse: a browser that checked in this week says so instead of offering a second
   check-in. Answers are anonymous, so nothing but the week's name is kept: noted when the
   form is sent, kept once the page comes back thanking (only then did it count). */
(function () {
  "use strict";

  function done() { return document.querySelector("[data-pulse-done]"); }
  function pendingKey(box) { return box.dataset.pulseDone + ":sending"; }

  document.addEventListener("submit", function (event) {
    var box = done();
    if (box && event.target.matches && event.target.matches("form.pulse-form")) {
      sessionStorage.setItem(pendingKey(box), box.dataset.week);
    }
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-pulse-again]");
    if (!button) return;
    document.documentElement.removeAttribute("data-pulse-done");
    done().hidden = true;
    var first = document.querySelector("form.pulse-form input[name=score]");
    if (first) first.focus();
  });

  function start() {
    var box = done();
    if (!box) return;
    var sent = sessionStorage.getItem(pendingKey(box));
    sessionStorage.removeItem(pendingKey(box));
    if (sent && new URLSearchParams(window.location.search).get("thanks") === "1") {
      localStorage.setItem(box.dataset.pulseDone, sent);
    }
    if (localStorage.getItem(box.dataset.pulseDone) !== box.dataset.week) return;
    document.documentElement.setAttribute("data-pulse-done", "");
    box.hidden = false;
    /* Just thanked: the server's notice says it already. */
    if (document.querySelector(".pulse-thanks")) box.querySelector(".pulse-done-line").hidden = true;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
