/* Find a Date in the browser: the create form takes the browser's time zone, and each timed
   option also says when it is in the viewer's own zone when that is not the poll's. The
   answer grid needs no script (finddate.css makes its radio buttons cycle). */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function browserZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }

  /* Only the create form's untouched field: an organiser's saved zone is never changed. */
  function fillZone(zone) {
    document.querySelectorAll("input[data-browser-zone]").forEach(function (input) {
      if (zone && input.value === input.defaultValue) input.value = zone;
    });
  }

  var DAY = { weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit" };
  var CLOCK = { hour: "numeric", minute: "2-digit" };

  /* A label that a live update redrew is plain again: run after every update too. */
  function yourTimes(zone) {
    document.querySelectorAll(".finddate-when[data-starts]").forEach(function (label) {
      if (!zone || label.dataset.zone === zone || label.querySelector(".finddate-yours")) return;
      var start = new Date(label.dataset.starts);
      if (isNaN(start.getTime())) return;
      var text = start.toLocaleString(document.documentElement.lang || undefined, DAY);
      var end = label.dataset.ends ? new Date(label.dataset.ends) : null;
      if (end && !isNaN(end.getTime())) text += "–" + end.toLocaleTimeString(document.documentElement.lang || undefined, CLOCK);
      var yours = document.createElement("span");
      yours.className = "finddate-yours";
      yours.textContent = words("{time} your time", { time: text });
      label.appendChild(document.createTextNode(" "));
      label.appendChild(yours);
    });
  }

  function ready() {
    var zone = browserZone();
    fillZone(zone);
    yourTimes(zone);
    document.addEventListener("groupkit:live", function () { yourTimes(zone); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
