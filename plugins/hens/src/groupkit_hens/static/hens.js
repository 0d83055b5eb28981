/* Hens & Shower Planner: a guest who answered from this browser finds their own page again
   from the share page (the answer's token is kept under the notice's key). */
(function () {
  "use strict";
  function showOwnAnswer() {
    var notice = document.querySelector("[data-hens-answered]");
    var token = notice && localStorage.getItem(notice.dataset.secretKey);
    if (!token || !/^[A-Za-z0-9_-]+$/.test(token)) return;
    notice.querySelector("[data-hens-answer-link]").setAttribute("href", "/p/" + token);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showOwnAnswer);
  else showOwnAnswer();
})();
