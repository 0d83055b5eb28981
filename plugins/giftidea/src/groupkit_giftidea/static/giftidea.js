/* Gift Idea Board: upvotes remembered in this browser (the only place they are
   deduplicated), "Remove my idea" with the token this browser kept when suggesting, and a
   list that never re-sorts under the visitor: while a mouse is over it, and for a few
   seconds after a tap or key press in it, the live update waits (the kernel's
   data-live-held), so a second tap lands on the idea the first one did. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function showError(button, message) {
    var boxes = button.closest("li, section").querySelectorAll("[data-error]");
    var box = boxes[boxes.length - 1];  /* the idea's own, not its claim form's */
    if (box) { box.textContent = message; box.hidden = false; }
  }

  function send(url, body) {
    return fetch(url, {
      /* X-Groupkit-Errors: an error also comes `shown`, in the reader's language. */
      method: "POST", headers: { "Content-Type": "application/json", "X-Groupkit-Errors": "all" },
      body: JSON.stringify(body || {}), credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.shown || data.error || words("Something went wrong — try again."));
        return data;
      });
    });
  }

  function markVoted(button) {
    button.disabled = true;
    button.setAttribute("aria-pressed", "true");
    button.classList.add("voted");
    button.title = words("You've upvoted this one");
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
      event.preventDefault();  /* its form posts it without this script */
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

  var HOLD_MS = 3000;
  var inside = false, touched = 0, timer = null;
  function list() { return document.getElementById("giftidea-ideas"); }
  function within(node) { var region = list(); return !!(region && node && region.contains(node)); }
  function settle() {
    var region = list();
    if (!region) return;
    var wait = touched + HOLD_MS - Date.now();
    if (inside || wait > 0) {
      region.setAttribute("data-live-held", "");
      clearTimeout(timer);
      if (!inside) timer = setTimeout(settle, wait);
    } else {
      region.removeAttribute("data-live-held");
    }
  }
  /* Where the mouse is, from any pointer event (none reach a disabled button, such as an
     upvote just given, so leaving one is seen on the next element the mouse reaches). */
  function pointed(event) {
    if (event.pointerType !== "mouse") return;
    var now = within(event.target);
    if (now === inside) return;
    inside = now;
    if (!now) touched = Math.max(touched, Date.now());
    settle();
  }
  document.addEventListener("pointerover", pointed);
  document.addEventListener("pointermove", pointed);
  ["pointerdown", "keydown"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (within(event.target)) { touched = Date.now(); settle(); }
    }, true);
  });

  document.addEventListener("groupkit:live", markAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markAll);
  else markAll();
})();
