/* Kris Kringle: turn a private page whose link the organiser has just reset into the reset
   notice. (Times on the pages are put in the viewer's own zone by the kernel's pages.js.) */
(function () {
  "use strict";
  function afterLive() {
    // The live swap brought the reset notice into a page still showing the draw.
    if (document.querySelector("[data-reset]") && document.getElementById("wishlist")) {
      window.location.reload();
    }
  }
  document.addEventListener("groupkit:live", afterLive);
})();
