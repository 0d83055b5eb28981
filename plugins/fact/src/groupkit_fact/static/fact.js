/* Fact Matcher: each visitor's own guesses (kept in this browser only, never sent), marked
   right or wrong once the answers are revealed, and the way back to your own fact page. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function storeKey(board) { return "groupkit:fact:" + board.dataset.factBoard + ":guesses"; }

  function readGuesses(board) {
    try { return JSON.parse(localStorage.getItem(storeKey(board))) || {}; }
    catch (error) { return {}; }
  }

  function markAnswers(board, guesses) {
    var answers = {};
    board.querySelectorAll("[data-fact-answer]").forEach(function (row) {
      answers[row.dataset.factAnswer] = row.dataset.name;
    });
    var revealed = board.querySelector("[data-fact-score]");
    var right = 0, tried = 0;
    board.querySelectorAll("select[data-fact-guess]").forEach(function (select) {
      var mark = select.parentElement.querySelector("[data-fact-mark]");
      var answer = answers[select.dataset.factGuess];
      if (!revealed || !mark || answer === undefined) return;
      var guess = guesses[select.dataset.factGuess];
      if (guess) tried += 1;
      if (guess === answer) {
        right += 1;
        mark.textContent = words("Right!");
        mark.className = "fact-mark fact-right";
      } else {
        mark.textContent = words("It was {name}", { name: answer });
        mark.className = "fact-mark fact-wrong";
      }
      mark.hidden = false;
    });
    if (revealed && tried) {
      revealed.textContent = words("You matched {right} of {tried} you guessed.",
        { right: right, tried: tried });
      revealed.hidden = false;
    }
  }

  /* A guess is saved in this browser the moment it is picked, so it is no unsent typing:
     marked as the select's default, it does not hold back the board's live updates. */
  function saved(select) {
    Array.prototype.forEach.call(select.options, function (o) { o.defaultSelected = o.selected; });
  }

  function setUp(board) {
    var guesses = readGuesses(board);
    board.querySelectorAll("select[data-fact-guess]").forEach(function (select) {
      var guess = guesses[select.dataset.factGuess];
      if (guess && !Array.prototype.some.call(select.options, function (o) { return o.value === guess; })) {
        /* The organiser took that name off the list: the guess stays, and says so. */
        var gone = document.createElement("option");
        gone.value = guess;
        gone.textContent = words("{name} (no longer on the list)", { name: guess });
        gone.setAttribute("data-fact-gone", "");
        select.appendChild(gone);
      }
      if (guess) select.value = guess;
      saved(select);
    });
    markAnswers(board, guesses);
  }

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.matches || !select.matches("select[data-fact-guess]")) return;
    var board = select.closest("[data-fact-board]");
    var guesses = readGuesses(board);
    if (select.value) guesses[select.dataset.factGuess] = select.value;
    else delete guesses[select.dataset.factGuess];
    localStorage.setItem(storeKey(board), JSON.stringify(guesses));
    saved(select);
    markAnswers(board, guesses);
  });

  /* The way back to this browser's fact page; again after a live update, which brings the
     claim form back (hidden) when the organiser hides the answers again. */
  function showMine() {
    document.querySelectorAll("[data-fact-mine]").forEach(function (box) {
      var token = localStorage.getItem(box.dataset.factMine);
      if (!token) return;
      box.querySelector("[data-fact-mine-link]").href = "/p/" + encodeURIComponent(token);
      box.hidden = false;
    });
  }

  function ready() {
    document.querySelectorAll("[data-fact-board]").forEach(setUp);
    showMine();
  }

  document.addEventListener("groupkit:live", function () {
    document.querySelectorAll("[data-fact-board]").forEach(setUp);
    showMine();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
