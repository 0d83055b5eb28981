/* groupkit sign-up boards (groupkit/_spots.html): a spot's claim form, opened in place, takes
   the focus; a claim that loses a race (409: the spot went meanwhile) says who got there first,
   read from a fresh copy of the page, and offers the next free spot of the same group as one
   button that claims it with what was typed. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("details.spot-claim") || !details.open) return;
    var field = details.querySelector("input:not([type=hidden]), textarea");
    if (field) field.focus();
  }, true);

  function freshPage() {
    return fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : ""; })
      .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); });
  }

  function lostRace(form, message) {
    var field = form.querySelector('input[type=hidden][name="' + form.dataset.spotClaim + '"]');
    var box = form.querySelector("[data-error]");
    var old = form.querySelector(".spot-offer");
    if (old) old.remove();
    box.textContent = message;
    box.hidden = false;
    freshPage().then(function (fresh) {
      var lost = null;
      fresh.querySelectorAll("[data-slot]").forEach(function (spot) {
        if (spot.dataset.slot === field.value) lost = spot;
      });
      var who = lost && lost.querySelector("[data-slot-who]");
      if (who) {
        box.textContent = message + " " + words("{name} got there first.", { name: who.textContent.trim() });
        var state = form.closest("details").querySelector(".spot-state");
        if (state) state.textContent = words("Taken by {name}", { name: who.textContent.trim() });
      }
      var group = lost && lost.closest("[data-slot-group]");
      if (!group) return;
      var next = group.querySelector("[data-slot]:not([data-slot-taken])");
      var offer = document.createElement("p");
      offer.className = "spot-offer";
      if (next) {
        var take = document.createElement("button");
        take.type = "button";
        take.className = "primary";
        take.textContent = words("Take {spot} instead", { spot: next.dataset.slotLabel });
        take.addEventListener("click", function () {
          field.value = next.dataset.slot;
          offer.remove();
          form.requestSubmit();
        });
        offer.appendChild(take);
      } else {
        offer.textContent = words("Every spot in {group} is taken now.", { group: group.dataset.slotGroup });
      }
      box.insertAdjacentElement("afterend", offer);
    });
  }

  document.addEventListener("groupkit:error", function (event) {
    var form = event.target;
    if (!form.matches("form[data-spot-claim]") || event.detail.error.status !== 409) return;
    event.preventDefault();
    lostRace(form, event.detail.error.message);
  });
})();
