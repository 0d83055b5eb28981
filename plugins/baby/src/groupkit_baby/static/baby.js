/* Baby Guess Pool: the browser that made a guess keeps its token and may take the guess back
   (POST /api/baby/g/{token}/remove). The weight is typed in kilograms and sent in grams by
   the form itself (`weightGrams:thousandths`), with or without this script. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function refresh() {
    document.querySelectorAll("button[data-baby-token]").forEach(function (button) {
      if (localStorage.getItem(button.dataset.babyToken)) button.hidden = false;
    });
  }

  function showError(button, message) {
    var box = button.parentElement.querySelector("[data-error]");
    if (box) { box.textContent = message; box.hidden = false; } else { window.alert(message); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-baby-token]");
    if (!button) return;
    var key = button.dataset.babyToken;
    var token = localStorage.getItem(key);
    if (!token) return;
    if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
    button.disabled = true;
    fetch("/api/baby/g/" + encodeURIComponent(token) + "/remove", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        // 404: the organiser already removed it; either way the key is spent.
        if (!response.ok && response.status !== 404) {
          throw new Error((data && data.error) || words("Something went wrong — try again."));
        }
        localStorage.removeItem(key);
        window.location.reload();
      });
    }).catch(function (error) { showError(button, error.message); button.disabled = false; });
  });

  document.addEventListener("groupkit:live", refresh);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
