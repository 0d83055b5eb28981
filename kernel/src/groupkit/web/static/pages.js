/* groupkit pages: times in the viewer's own zone, the tab's title kept with live updates
   and the home page's tool filter.
   Without script, times read in UTC (and say so) and every tool is listed. */
(function () {
  "use strict";

  var words = window.groupkitWords;
  /* Times are written the page's way (its language); where the browser speaks a variant
     of that language (en-AU on an English page), its own way of writing it. */
  function language() {
    var page = document.documentElement.lang || "";
    var browser = navigator.language || "";
    if (page && browser.toLowerCase().split("-")[0] === page.toLowerCase().split("-")[0]) {
      return browser;
    }
    return page || undefined;
  }

  var WHEN = { day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" };

  /* <time datetime="…Z" data-local>: the moment in the viewer's zone; the UTC text stays
     as the title. <time datetime data-local-clock>: a time of day ("midnight, Sydney
     time"), said as the viewer's own clock time. */
  function localise(root) {
    root.querySelectorAll("time[data-local]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment.getTime()) || element.dataset.localised) return;
      element.title = element.textContent;
      element.textContent = moment.toLocaleString(language(), WHEN);
      element.dataset.localised = "1";
    });
    root.querySelectorAll("time[data-local-clock]").forEach(function (element) {
      var moment = new Date(element.getAttribute("datetime"));
      if (isNaN(moment.getTime()) || element.dataset.localised) return;
      var clock = moment.toLocaleTimeString(language(), { hour: "numeric", minute: "2-digit" });
      element.title = element.textContent;
      element.textContent = moment.getHours() === 0 && moment.getMinutes() === 0
        ? words("midnight your time") : words("{time} your time", { time: clock });
      element.dataset.localised = "1";
    });
  }

  /* The home page: typing narrows the tool list to titles and summaries with every word. */
  function startFilter() {
    var box = document.querySelector("[data-tool-filter]");
    if (!box) return;
    var input = box.querySelector("input");
    var empty = box.querySelector("[data-tool-filter-empty]");
    box.hidden = false;
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      document.querySelectorAll("[data-tool-group]").forEach(function (group) {
        var inGroup = 0;
        group.querySelectorAll("[data-tool-item]").forEach(function (item) {
          var text = item.textContent.toLowerCase();
          var match = words.every(function (word) { return text.indexOf(word) >= 0; });
          item.hidden = !match;
          if (match) inGroup += 1;
        });
        group.hidden = inGroup === 0;
        shown += inGroup;
      });
      empty.hidden = shown > 0;
    });
  }

  /* The tab's title follows the page's: groupkit/base.html writes it again in a live region
     (#groupkit-title), which a live update brings up to date. */
  function retitle() {
    var title = document.getElementById("groupkit-title");
    if (title && document.title !== title.textContent) document.title = title.textContent;
  }

  function ready() { localise(document); startFilter(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
  document.addEventListener("groupkit:live", function () { localise(document); retitle(); });
})();
