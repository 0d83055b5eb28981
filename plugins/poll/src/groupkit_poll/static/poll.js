/* Group Vote: what the kernel's data attributes can't do on their own.
   1. A browser that voted (the kernel keeps the ballot token) gets "You voted — change your
      vote", a link to its ballot, instead of a fresh one (unless someone else votes here).
   2. The closing time's zone is the browser's own (the page says UTC without the script);
      the kernel's `closesAt:local` / `closesAt:zone` fields send it in UTC.
   3. A closing time shows in the reader's time zone with a countdown; at zero the page
      reloads, and the server (which closes the poll by the clock) shows it closed. Both are
      read again after each live update ("groupkit:live"), which may bring a new closing
      time or take it away.
   4. Ranked choice: an option picked for a second place is said at that place as soon as
      it is picked, and the ballot waits until it is changed (the API would drop it). */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function showMine() {
    document.querySelectorAll("[data-poll-mine]").forEach(function (box) {
      var token = localStorage.getItem(box.dataset.pollMine);
      if (!token || !/^[a-z0-9]{22}$/.test(token)) return;
      box.querySelector("[data-poll-mine-link]").href = "/p/" + encodeURIComponent(token);
      box.hidden = false;
      /* The ballot this browser cast stands in for a fresh one (poll.css folds the form),
         unless someone else is voting here now (a live update redraws the box). */
      if (!again) document.documentElement.setAttribute("data-poll-voted", "");
      else box.querySelector("[data-poll-again]").closest("p").hidden = true;
    });
  }
  var again = false;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-poll-again]");
    if (!button) return;
    again = true;
    document.documentElement.removeAttribute("data-poll-voted");
    button.closest("p").hidden = true;
    var first = document.querySelector("form[data-poll-ballot] input, form[data-poll-ballot] select");
    if (first) first.focus();
  });

  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  var format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "numeric", minute: "2-digit", timeZoneName: "short"
  });

  function left(ms) {
    var minutes = Math.floor(ms / 60000), days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
    if (days === 1) return words("1 day {hours} h", { hours: hours });
    if (days > 0) return words("{days} days {hours} h", { days: days, hours: hours });
    if (hours > 0) return words("{hours} h {minutes} min", { hours: hours, minutes: mins });
    if (minutes > 0) {
      return words("{minutes} min {seconds} s",
        { minutes: mins, seconds: Math.floor((ms % 60000) / 1000) });
    }
    return words("{seconds} s", { seconds: Math.ceil(ms / 1000) });
  }

  var reloading = false;
  function tick() {
    document.querySelectorAll("time[data-poll-closes]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      if (!time.dataset.localised) {
        time.textContent = format.format(at) + (zone ? " (" + zone + ")" : "");
        time.dataset.localised = "1";
      }
      var ms = at.getTime() - Date.now();
      var box = time.parentNode.querySelector("[data-poll-countdown]");
      if (box) box.textContent = ms > 0 ? words(", in {time}", { time: left(ms) }) : words(", now");
      if (ms <= 0 && !reloading) {
        reloading = true;
        window.setTimeout(function () { window.location.reload(); }, 1000);
      }
    });
  }

  /* The closing time's zone becomes the browser's own; a stored time (in UTC, the page's
     zone without the script) is shown in it. */
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function fillClosing() {
    if (!zone) return;
    document.querySelectorAll("[data-poll-local-time]").forEach(function (local) {
      var select = local.form && local.form.querySelector("select[name='closesAt:zone']");
      if (!select || select.value === zone) return;
      var at = local.value ? new Date(local.value + (local.value.length > 16 ? "Z" : ":00Z")) : null;
      if (!Array.prototype.some.call(select.options, function (o) { return o.value === zone; })) {
        var option = document.createElement("option");
        option.textContent = zone;
        select.insertBefore(option, select.firstChild);
      }
      select.value = zone;
      if (!at || isNaN(at.getTime())) return;
      local.value = at.getFullYear() + "-" + two(at.getMonth() + 1) + "-" + two(at.getDate()) +
        "T" + two(at.getHours()) + ":" + two(at.getMinutes()) + (at.getSeconds() ? ":" + two(at.getSeconds()) : "");
    });
  }

  /* Each place ([data-poll-twice] fieldset's selects, in order) that repeats an earlier
     one: { select, first } with the index of the earlier place. */
  function rankedTwice(fieldset) {
    var seen = {}, twice = [];
    fieldset.querySelectorAll("select").forEach(function (select, i) {
      if (!select.value) return;
      if (seen[select.value] === undefined) seen[select.value] = i;
      else twice.push({ select: select, first: seen[select.value] });
    });
    return twice;
  }
  function markTwice(fieldset) {
    fieldset.querySelectorAll("[data-poll-twice-error]").forEach(function (box) { box.remove(); });
    fieldset.querySelectorAll("select[aria-invalid]").forEach(function (select) {
      select.removeAttribute("aria-invalid");
      select.removeAttribute("aria-describedby");
    });
    var places = fieldset.querySelectorAll(".poll-place");
    var twice = rankedTwice(fieldset);
    twice.forEach(function (item) {
      var box = document.createElement("p");
      box.className = "error field-error";
      box.id = item.select.id + "-twice";
      box.setAttribute("data-poll-twice-error", "");
      box.textContent = fieldset.dataset.pollTwice
        .replace("{option}", item.select.options[item.select.selectedIndex].text)
        .replace("{place}", places[item.first].textContent);
      item.select.closest("label").insertAdjacentElement("afterend", box);
      item.select.setAttribute("aria-invalid", "true");
      item.select.setAttribute("aria-describedby", box.id);
    });
    return twice;
  }
  document.addEventListener("change", function (event) {
    var fieldset = event.target.closest && event.target.closest("[data-poll-twice]");
    if (fieldset) markTwice(fieldset);
  });
  /* Before the kernel's own submit handler (capture): a repeated place stops the vote. */
  document.addEventListener("submit", function (event) {
    var fieldset = event.target.querySelector("[data-poll-twice]");
    var twice = fieldset ? markTwice(fieldset) : [];
    if (!twice.length) return;
    event.preventDefault();
    event.stopPropagation();
    twice[0].select.focus();
  }, true);

  function start() {
    showMine();
    fillClosing();
    tick();
    window.setInterval(tick, 1000);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  /* A live update swapped regions in: the closing time (new, gone, or moved) is read again at
     once, not a second later, and the way back to this browser's vote shows again. */
  document.addEventListener("groupkit:live", function () { showMine(); tick(); });
})();
