/* Kris Kringle: show the times on a page (reset, first opened, questions) in the viewer's
   own time zone (without script they read in UTC), and turn a private page whose link the
   organiser has just reset into the reset notice. */
(function () {
  "use strict";
  function localise() {
    document.querySelectorAll("time[data-local]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment.getTime())) return;
      element.textContent = moment.toLocaleString(undefined, {
        weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit"
      });
      element.title = element.getAttribute("datetime");
    });
  }
  function afterLive() {
    // The live swap brought the reset notice into a page still showing the draw.
    if (document.querySelector("[data-reset]") && document.getElementById("wishlist")) {
      window.location.reload();
      return;
    }
    localise();
  }
  document.addEventListener("DOMContentLoaded", localise);
  document.addEventListener("groupkit:live", afterLive);
})();
