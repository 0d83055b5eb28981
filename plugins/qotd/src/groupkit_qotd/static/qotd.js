/* Question of the Day: pages load with empty bars and fill them from the tally; the fill is
   redone whenever the live stream swaps today's question in, and when the day turns over.
   On the public page it also remembers this browser's answer, so picking again changes it. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  var NAME_KEY = "groupkit:qotd:name";
  var last = null; // the last tally shown, re-applied at once after a live swap

  function root() { return document.querySelector("[data-qotd]"); }

  function answerKey(box) {
    return "groupkit:qotd:" + box.dataset.qotdSlug + ":" + box.dataset.day + ":" + box.dataset.qi;
  }


  function show(box, tally) {
    if (tally.day !== box.dataset.day || String(tally.qi) !== box.dataset.qi) return false;
    var total = tally.tally.total;
    ["a", "b"].forEach(function (key) {
      var count = tally.tally[key];
      var share = total ? Math.round(100 * count / total) : 0;
      box.querySelector('[data-qotd-fill="' + key + '"]').style.width = share + "%";
      box.querySelector('[data-qotd-count="' + key + '"]').textContent =
        (count === 1 ? words("{count} pick", { count: count }) : words("{count} picks", { count: count })) +
        (total ? " · " + share + "%" : "");
      box.querySelector('[data-qotd-names="' + key + '"]').textContent = tally.names[key].join(", ");
    });
    box.querySelector("[data-qotd-total]").textContent =
      total === 1 ? words("{count} answer so far today.", { count: total }) :
      total ? words("{count} answers so far today.", { count: total }) : words("No answers yet today.");
    return true;
  }

  function refresh() {
    var box = root();
    if (!box) return;
    fetch(box.dataset.qotdTally, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (tally) {
        var current = root();
        if (!tally || !current) return;
        if (show(current, tally)) { last = tally; }
        else if (current === box) { window.location.reload(); } // the question moved on
      });
  }

  /* The question changes at midnight in Sydney, with no write to tell open pages: look
     again just after the time the tally gave, then every minute if this clock runs fast. */
  var timer = null;
  function watchMidnight() {
    var box = root();
    if (!box || timer !== null) return;
    var wait = Date.parse(box.dataset.changesAt) - Date.now();
    timer = setTimeout(function () { timer = null; refresh(); watchMidnight(); },
      wait > 0 ? Math.min(wait + 2000, 2147483000) : 60000);
  }

  /* Public page: this browser's answer to today's question, if it gave one. */
  function setUpForm() {
    var form = document.querySelector("form[data-qotd-form]");
    var box = root();
    if (!form || !box) return;
    var token = localStorage.getItem(answerKey(box));
    var answered = !!token && /^[a-z0-9]{22}$/.test(token);
    var nameField = form.querySelector("[data-qotd-name-field]");
    var nameInput = nameField.querySelector("input");
    form.dataset.api = answered ? "/api/qotd/v/" + encodeURIComponent(token) : "/api/qotd/vote";
    nameField.hidden = answered;
    nameInput.disabled = answered;
    form.querySelector("[data-qotd-answered]").hidden = !answered;
    form.querySelector("[data-qotd-submit]").textContent = answered ? words("Change my answer") : words("Answer");
    var choice = answered && localStorage.getItem(answerKey(box) + ":choice");
    form.querySelectorAll("input[name=choice]").forEach(function (input) {
      if (choice) input.checked = input.value === choice;
    });
    if (!nameInput.value) {
      nameInput.value = nameInput.defaultValue = localStorage.getItem(NAME_KEY) || "";
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-qotd-form]")) return;
    var box = root();
    var picked = form.querySelector("input[name=choice]:checked");
    if (box && picked) localStorage.setItem(answerKey(box) + ":choice", picked.value);
    var name = form.querySelector("input[name=voterName]");
    if (name && !name.disabled && name.value.trim()) localStorage.setItem(NAME_KEY, name.value.trim());
  }, true);

  document.addEventListener("groupkit:live", function () {
    var box = root();
    if (box && last) show(box, last);
    setUpForm();
    refresh();
  });

  function ready() { setUpForm(); refresh(); watchMidnight(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
