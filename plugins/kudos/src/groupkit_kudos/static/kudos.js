/* Kudos Wall: "Remove my note" for the browser that posted it. The kernel script reveals the
   button when this browser holds the note's token; this sends it to the removal path. */
(function () {
  "use strict";
  var words = window.groupkitWords;
  function fail(button, message) {
    var box = button.parentElement.querySelector("[data-error]");
    if (box) { box.textContent = message; box.hidden = false; } else { window.alert(message); }
    button.disabled = false;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-kudos-remove]");
    if (!button) return;
    var key = button.dataset.secretKey;
    var token = localStorage.getItem(key);
    if (!token || !/^[a-z0-9]+$/.test(token)) return;
    if (!window.confirm(words("Take your note down?"))) return;
    button.disabled = true;
    fetch("/api/kudos/n/" + token + "/remove", {
      /* X-Groupkit-Errors: an error also comes `shown`, in the reader's language. */
      method: "POST", headers: { "Content-Type": "application/json", "X-Groupkit-Errors": "all" }, body: "{}",
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        if (response.ok || response.status === 404) {
          localStorage.removeItem(key);  // removed now, or already gone
          window.location.reload();
        } else {
          fail(button, (data && (data.shown || data.error)) || words("Something went wrong — try again."));
        }
      });
    }).catch(function () { fail(button, words("Something went wrong — try again.")); });
  });
})();
