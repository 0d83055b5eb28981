/* Sharing: a native share button (Web Share API) where the browser has one, falling back to
   the Copy button next to it; a print button on the share sheet; `data-copy-text` buttons that
   copy the text just before them (a payment reference, a PayID). Without JavaScript these
   stay hidden and the text is still there to select. */
(function () {
  "use strict";
  var words = window.groupkitWords;
  var canShare = typeof navigator.share === "function";

  function ready() {
    document.querySelectorAll("button[data-share]").forEach(function (button) {
      button.hidden = !canShare;
    });
    document.querySelectorAll("button[data-copy-text]").forEach(function (button) {
      button.hidden = false;
    });
    document.querySelectorAll("button[data-print]").forEach(function (button) {
      button.hidden = typeof window.print !== "function";
    });
  }

  function copyInstead(button) {
    var copy = button.parentElement.querySelector("button[data-copy]");
    if (copy) copy.click();
  }

  function copyText(button) {
    var source = button.previousElementSibling;
    if (!source) return;
    var done = function () {
      button.textContent = words("Copied");
      setTimeout(function () { button.textContent = words("Copy"); }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.textContent.trim()).then(done);
    } else {  // plain http: select the text and copy the selection
      var range = document.createRange();
      range.selectNodeContents(source);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      document.execCommand("copy");
      done();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-share], button[data-print], button[data-copy-text]");
    if (!button) return;
    if (button.dataset.copyText !== undefined) { copyText(button); return; }
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
