/* Secret Role Dealer: the role editor (create and organiser pages), the "open your role"
   link for a returning player, and the player page following the game live. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  function post(url, body) {
    return fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    });
  }

  /* --- the role editor: presets, the running total (the kernel posts the form) ---------- */

  /* C(80) as the service cleans a role, so a briefing's key matches its role exactly. */
  function cleanRole(text) {
    return Array.from(text.replace(/\s+/g, " ").trim()).slice(0, 80).join("");
  }

  function readRows(form) {
    var roles = [], briefs = {};
    form.querySelectorAll("[data-list='roles'] [data-row]").forEach(function (row) {
      var name = cleanRole(row.querySelector("[data-key='name']").value);
      var count = parseInt(row.querySelector("[data-key='count']").value, 10);
      var brief = row.querySelector("[data-key='brief']").value;
      if (!name) return;
      count = isNaN(count) || count < 1 ? 1 : Math.min(count, 1000);
      for (var i = 0; i < count; i += 1) roles.push(name);
      if (brief.trim() && !briefs[name]) briefs[name] = brief;
    });
    return { roles: roles, briefs: briefs };
  }

  function showTotal(form) {
    var total = form.querySelector("[data-roles-total]");
    if (!total) return;
    var count = readRows(form).roles.length;
    total.textContent = count === 1 ? words("1 role in all") :
      words("{n} roles in all, one per player", { n: count });
  }

  function fillRows(form, rows) {
    var list = form.querySelector("[data-list='roles']");
    var template = form.querySelector("template[data-row-template='roles']");
    list.textContent = "";
    rows.forEach(function (item) {
      var row = template.content.cloneNode(true);
      row.querySelector("[data-key='name']").value = item.name;
      row.querySelector("[data-key='count']").value = item.count;
      row.querySelector("[data-key='brief']").value = item.brief || "";
      list.appendChild(row);
    });
    showTotal(form);
  }

  /* The page lists the presets (and fills the editor itself for a browser without this
     script, through "Fill in the roles"); here a choice fills the rows in place, and the
     form's hidden `preset` keeps the choice for the record. */
  function setUpPresets(form) {
    var select = form.querySelector("select[data-roles-presets]");
    if (!select) return;
    var kept = form.querySelector("[data-roles-preset-kept]");
    var fill = form.querySelector("[data-roles-preset-fill]");
    if (fill) fill.hidden = true;
    fetch(select.dataset.rolesPresets, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (presets) {
        select.addEventListener("change", function () {
          if (kept) kept.value = presets[select.value] ? select.value : "";
          if (presets[select.value]) fillRows(form, presets[select.value].roles);
        });
      });
  }

  /* --- the share page: a returning player's own link ------------------------------------ */

  function offerOwnLink(box) {
    var token = localStorage.getItem(box.dataset.rolesMine);
    if (!token) return;
    post("/api/roles/held", { slug: box.dataset.slug, token: token }).then(function (reply) {
      if (reply.ok && reply.data.held) {
        box.querySelector("[data-roles-mine-link]").href = "/p/" + encodeURIComponent(token);
        box.hidden = false;
        /* Joined already: the join form is for someone else on this device, on request. */
        var form = document.querySelector("form[data-api='/api/roles/claim']");
        var another = box.querySelector("[data-roles-another]");
        if (form && another) {
          form.hidden = true;
          another.addEventListener("click", function () {
            form.hidden = false;
            another.hidden = true;
            form.querySelector("input[name='name']").focus();
          });
        }
      } else if (reply.ok) {
        localStorage.removeItem(box.dataset.rolesMine);
      }
    });
  }

  /* --- the player page ------------------------------------------------------------------ */

  function followGame(root) {
    var source = document.body.dataset.live && window.EventSource ?
      new EventSource(document.body.dataset.live) : null;
    var seen = document.body.dataset.liveVersion;
    var notice = root.querySelector("[data-roles-notice]");
    var game = document.getElementById("roles-hand").dataset.game;
    var busy = false, again = false, stopped = false;

    function say(message) { notice.textContent = message; notice.hidden = false; }

    function stop() {
      stopped = true;
      if (source) source.close();
    }

    function out(message) {
      stop();
      var hand = document.getElementById("roles-hand");
      if (hand) hand.remove();
      say(message);
    }

    function whyGone() {
      stop();  // this link is dead: ask once why, and listen no more
      post("/api/roles/held", { slug: root.dataset.slug, token: root.dataset.token })
        .then(function (reply) {
          if (reply.status === 404) {
            out(words("The organiser deleted this game."));
          } else if (reply.ok && !reply.data.held && root.dataset.rolesPersonal !== undefined) {
            out(String(reply.data.game) !== game ?
              words("The organiser restarted the game with new links, so this one is gone. Ask the organiser for yours.") :
              words("The organiser reset your link, so this one is gone. Ask the organiser for your fresh link."));
          } else if (reply.ok && !reply.data.held) {
            out(String(reply.data.game) !== game ?
              words("The organiser restarted the game, so this role is gone. Join again from the game's page.") :
              words("The organiser took you out of the game, so this role is gone. Join again from the game's page if you're still playing."));
            root.querySelector("[data-roles-rejoin]").hidden = false;
          } else if (reply.ok) {
            window.location.reload();  // still held: the re-read failed for another reason
          }
        });
    }

    function refresh() {
      if (stopped) return;
      if (busy) { again = true; return; }
      busy = true;
      fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) { whyGone(); return; }
          return response.text().then(function (html) {
            var fresh = new DOMParser().parseFromString(html, "text/html");
            var freshHand = fresh.getElementById("roles-hand");
            var hand = document.getElementById("roles-hand");
            if (!freshHand || !hand) return;
            if (freshHand.dataset.round !== hand.dataset.round ||
                freshHand.dataset.game !== hand.dataset.game) {
              hand.replaceWith(document.importNode(freshHand, true));
              game = freshHand.dataset.game;
              say(words("The organiser re-dealt the roles — this is your role now."));
            } else if (freshHand.innerHTML !== hand.innerHTML) {
              hand.replaceWith(document.importNode(freshHand, true));  // a fixed typo or briefing
            }
            /* The organiser's edit: the title (the tab's too) and note follow. */
            ["roles-heading", "roles-from-organiser"].forEach(function (id) {
              var mine = document.getElementById(id), theirs = fresh.getElementById(id);
              if (mine && theirs && mine.innerHTML !== theirs.innerHTML) {
                mine.replaceWith(document.importNode(theirs, true));
              }
            });
            if (fresh.title && document.title !== fresh.title) document.title = fresh.title;
          });
        })
        .finally(function () {
          busy = false;
          if (again) { again = false; refresh(); }
        });
    }

    if (!source) return;
    source.addEventListener("version", function (event) {
      if (event.data !== seen) { seen = event.data; refresh(); }
    });
    source.addEventListener("gone", function () { out(words("The organiser deleted this game.")); });
  }

  function ready() {
    document.querySelectorAll(".roles-editor").forEach(function (editor) {
      var form = editor.closest("form");
      /* "Add a role" stands in for the blank rows a page without the script needs. */
      form.querySelectorAll("[data-spare]").forEach(function (row) {
        if (!row.querySelector("[data-key='name']").value) row.remove();
      });
      setUpPresets(form);
      showTotal(form);
      /* Too few roles: the page says it in the editor's words (rows, not lines). */
      form.addEventListener("groupkit:error", function (event) {
        var error = event.detail.error;
        if (error.field !== "roles" || !editor.dataset.rolesFew || readRows(form).roles.length >= 2) return;
        event.preventDefault();
        form.dispatchEvent(new CustomEvent("groupkit:field-error",
          { bubbles: true, detail: { field: "roles", message: editor.dataset.rolesFew } }));
      });
      form.addEventListener("input", function () { showTotal(form); });
      form.addEventListener("click", function () { setTimeout(function () { showTotal(form); }, 0); });
    });
    document.querySelectorAll("[data-roles-mine]").forEach(offerOwnLink);
    document.querySelectorAll("[data-roles-player]").forEach(followGame);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
