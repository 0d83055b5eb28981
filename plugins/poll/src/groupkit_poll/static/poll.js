/* Group Vote: the two things the kernel's data attributes can't do on their own.
   1. A ballot's ticked options travel as the hidden `choices` field (data-lines), filled
      just before the kernel's submit handler reads the form.
   2. A browser that voted (the kernel keeps the ballot token) gets a link to its ballot. */
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-poll-ballot]")) return;
    var ids = Array.prototype.map.call(form.querySelectorAll("[data-choice]:checked"),
      function (input) { return input.value; });
    form.querySelector("input[name=choices]").value = ids.join("\n");
  }, true);

  function showMine() {
    document.querySelectorAll("[data-poll-mine]").forEach(function (box) {
      var token = localStorage.getItem(box.dataset.pollMine);
      if (!token || !/^[a-z0-9]{22}$/.test(token)) return;
      box.querySelector("[data-poll-mine-link]").href = "/p/" + encodeURIComponent(token);
      box.hidden = false;
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showMine);
  else showMine();
})();
