/* Team Picker create page: shuffle the names into teams here in the browser (the service
   only stores the finished grouping), filling the team rows the form then posts. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  /* A uniform integer in [0, n), from the browser's cryptographic generator. */
  function randomBelow(n) {
    var limit = Math.floor(0x100000000 / n) * n;
    var word = new Uint32Array(1);
    do { window.crypto.getRandomValues(word); } while (word[0] >= limit);
    return word[0] % n;
  }

  function shuffled(items) {
    var result = items.slice();
    for (var i = result.length - 1; i > 0; i--) {
      var j = randomBelow(i + 1);
      var keep = result[i]; result[i] = result[j]; result[j] = keep;
    }
    return result;
  }

  function teamCount(input) {
    var wanted = parseInt(input.value, 10);
    if (isNaN(wanted)) wanted = 2;
    return Math.min(40, Math.max(2, wanted));
  }

  function matchRows(list, template, count) {
    var rows = list.querySelectorAll("[data-row]");
    for (var n = rows.length; n < count; n++) list.appendChild(template.content.cloneNode(true));
    rows = list.querySelectorAll("[data-row]");
    for (var extra = rows.length - 1; extra >= count; extra--) rows[extra].remove();
    return list.querySelectorAll("[data-row]");
  }

  function shuffleInto(form) {
    var names = form.querySelector("[data-teams-names]").value.split(/\r?\n/)
      .map(function (line) { return line.trim(); })
      .filter(function (line) { return line !== ""; });
    var status = form.querySelector("[data-teams-status]");
    var countInput = form.querySelector("[data-teams-count]");
    var count = teamCount(countInput);
    countInput.value = count;
    if (names.length < 2) {
      status.textContent = words("Add at least two names to shuffle.");
      return;
    }
    var rows = matchRows(form.querySelector('[data-list="teams"]'),
      form.querySelector('template[data-row-template="teams"]'), count);
    var groups = [];
    for (var t = 0; t < count; t++) groups.push([]);
    // Deal the shuffled names round the teams, starting from a random team, so sizes differ
    // by at most one and no team is always the one that gets the extra person.
    var start = randomBelow(count);
    shuffled(names).forEach(function (name, i) { groups[(start + i) % count].push(name); });
    rows.forEach(function (row, i) {
      var members = row.querySelector('[data-key="members"]');
      members.value = groups[i].join("\n");
      var title = row.querySelector('[data-key="title"]');
      // The name an unnamed team is saved with: the tool's data, in English in every language.
      if (!title.value) { title.placeholder = "Team " + (i + 1); title.lang = "en"; }
    });
    status.textContent = words(
      "Shuffled {names} names into {teams} teams. Shuffle again, or save these teams.",
      { names: names.length, teams: count });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-teams-shuffle]");
    if (!button) return;
    event.preventDefault();  /* here, not the create page's shuffle for a page without script */
    shuffleInto(button.closest("form"));
  });
  /* The names box and count are the no-script shuffle's fields, never the teams' body. */
  document.querySelectorAll("[form='teams-shuffle']").forEach(function (field) {
    field.removeAttribute("name");
  });
})();
