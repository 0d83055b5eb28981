/* Sharing: a native share button (Web Share API) where the browser has one, falling back to
   the Copy button next to it; a print button on the share sheet. Without JavaScript both stay
   hidden and the link, Copy-less, is still there to select. */
(function () {
  "use strict";
  var canShare = typeof navigator.share === "function";

  function ready() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      button.hidden = !canShare;
    });
    document.querySelectorAll("button[data-print]").forEach(function (button) {
      button.hidden = typeof window.print !== "function";
    });
  }

  function copyInstead(button) {
    var copy = button.parentElement.querySelector("button[data-copy]");
    if (copy) copy.click();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share], button[data-print]");
    if (!button) return;
    if (button.dataset.print !== undefined) { window.print(); return; }
    var field = document.querySelector(button.dataset.share);
    var url = field.value.trim();
    if (!canShare) { copyInstead(button); return; }
    navigator.share({ title: button.dataset.shareTitle || document.title, url: url })
      .catch(function (error) {
        if (!error || error.name !== "AbortError") copyInstead(button);  // closed by the person: nothing to do
      });
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
