/* Scrum Poker: on the share page, a browser that already joined gets a link back to its
   own cards (the kernel script reveals the notice; this fills in the address). */
(function () {
  "use strict";
  function link() {
    document.querySelectorAll("[data-poker-mine]").forEach(function (notice) {
      var token = localStorage.getItem(notice.dataset.secretKey);
      var anchor = notice.querySelector("[data-poker-mine-link]");
      if (token && anchor && /^[a-z0-9]+$/.test(token)) anchor.href = "/p/" + token;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", link);
  else link();
})();
