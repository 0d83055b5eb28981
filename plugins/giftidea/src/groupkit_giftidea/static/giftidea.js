/* Gift Idea Board: upvotes remembered in this browser (the only place they are
   deduplicated), and "Remove my idea" with the token this browser kept when suggesting. */
(function () {
  "use strict";

  function showError(button, message) {
    var boxes = button.closest("li, section").querySelectorAll("[data-error]");
    var box = boxes[boxes.length - 1];  /* the idea's own, not its claim form's */
    if (box) { box.textContent = message; box.hidden = false; }
  }

  function send(url, body) {
    return fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}), credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.error || "Something went wrong — try again.");
        return data;
      });
    });
  }

  function markVoted(button) {
    button.disabled = true;
    button.setAttribute("aria-pressed", "true");
    button.classList.add("voted");
    button.title = "You've upvoted this one";
  }

  function markAll() {
    document.querySelectorAll("button[data-upvote]").forEach(function (button) {
      if (localStorage.getItem(button.dataset.votedKey)) markVoted(button);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-upvote")) {
      if (localStorage.getItem(button.dataset.votedKey)) return;
      button.disabled = true;
      send("/api/giftidea/upvote", JSON.parse(button.dataset.body)).then(function (data) {
        localStorage.setItem(button.dataset.votedKey, "1");
        button.querySelector("[data-votes]").textContent = String(data.votes);
        markVoted(button);
      }).catch(function (error) { button.disabled = false; showError(button, error.message); });
    } else if (button.hasAttribute("data-remove-own")) {
      var token = localStorage.getItem(button.dataset.secretKey);
      if (!token || (button.dataset.confirm && !window.confirm(button.dataset.confirm))) return;
      button.disabled = true;
      send(button.dataset.removeOwn.replace("{token}", encodeURIComponent(token))).then(function () {
        localStorage.removeItem(button.dataset.secretKey);
        window.location.reload();
      }).catch(function (error) { button.disabled = false; showError(button, error.message); });
    }
  });

  document.addEventListener("groupkit:live", markAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markAll);
  else markAll();
})();
