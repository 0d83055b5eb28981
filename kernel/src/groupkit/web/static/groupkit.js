/* groupkit: small progressive-enhancement helpers driven by data- attributes.
   Forms post JSON to the API; secrets a browser must keep live in localStorage. */
(function () {
  "use strict";

  /* A page's words in its reader's language: the page hands its scripts the translations of
     every words("...") message of the page scripts (#groupkit-words; an English page needs
     none). `{name}` placeholders are filled from `values` after translating. Other scripts
     say `var words = window.groupkitWords;`. */
  var scriptWords = null;
  function words(text, values) {
    if (scriptWords === null) {
      var given = document.getElementById("groupkit-words");
      try { scriptWords = given ? JSON.parse(given.textContent) : {}; } catch (e) { scriptWords = {}; }
    }
    var said = Object.prototype.hasOwnProperty.call(scriptWords, text) ? scriptWords[text] : text;
    return said.replace(/\{(\w+)\}/g, function (whole, key) {
      return values && values[key] !== undefined ? String(values[key]) : whole;
    });
  }
  window.groupkitWords = words;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return values[key] === undefined ? "" : encodeURIComponent(values[key]);
    });
  }

  /* The body a form sends, the same whether the script posts it as JSON or the browser posts
     the form itself without the script (decoded by the server: groupkit/forms.py holds the
     table of these conventions). A field's name is its place in the body: `key`,
     `group.key` or `list.3.key`, with an optional kind after a colon: `:lines` (non-blank
     lines, like textarea[data-lines]), `:number` (like [data-type=number]) or `:bool` (a
     checkbox's tick; a hidden `x:bool` of "false" before it sends false when unticked) or
     `:json` (a hidden field holding any JSON value: a number, true, null) or `:list` (the
     values of every ticked box or chosen radio of that name, as a list) or `:cents` (an
     amount in dollars, sent in whole cents) or `:thousandths` (a number sent in whole
     thousandths: kilograms typed, grams sent) or `:local` (a date and time read in the zone
     of the form's `x:zone` select, which is not sent itself, and sent in UTC).
     Rows of a [data-list] are read in page order (rows the script added have no index),
     a [data-group] is one nested object; inside both, data-key names a field as well.
     Disabled fields and unchecked radio buttons are not sent, as in a plain form post. */
  function kindOf(input) { var name = input.getAttribute("name") || ""; var at = name.indexOf(":"); return at < 0 ? "" : name.slice(at + 1); }
  function pathOf(input) { return (input.getAttribute("name") || "").split(":")[0].split("."); }
  function readInput(input) {
    var kind = kindOf(input);
    if (input.type === "checkbox") return input.checked;
    if (kind === "bool") return input.value !== "" && input.value !== "false";
    if (kind === "json") { try { return JSON.parse(input.value); } catch (e) { return input.value; } }
    if (kind === "cents" || kind === "thousandths") {
      var typed = input.value.trim();
      return typed !== "" && !isNaN(Number(typed)) ? Math.round(Number(typed) * (kind === "cents" ? 100 : 1000)) : input.value;
    }
    if (kind === "local") { return zoned(input); }
    if (input.hasAttribute("data-lines") || kind === "lines") {
      return input.value.split(/\r?\n/).filter(function (line) { return line.trim() !== ""; });
    }
    if ((input.dataset.type === "number" || kind === "number") && input.value.trim() !== "" && !isNaN(Number(input.value))) {
      return Number(input.value);
    }
    return input.value;
  }
  /* `x:local` (a date and time as typed) read in the zone of the form's `x:zone`, as UTC,
     the way the server reads it: the zone's offset at that moment, found with Intl. */
  function offsetAt(zone, ms) {
    var parts = {};
    new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric",
      day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" })
      .formatToParts(new Date(ms)).forEach(function (part) { parts[part.type] = Number(part.value); });
    return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - ms;
  }
  function zoned(input) {
    var text = input.value.trim(), match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d))?$/.exec(text);
    var select = input.form && input.form.querySelector('[name="' + pathOf(input).join(".") + ':zone"]');
    if (text === "") return "";
    if (!match || !select) return input.value;
    var wall = Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5], +(match[6] || 0));
    try {
      /* The offset a day before and a day after: a time that has the earlier one is read
         with it, else with the later one; one a change skips takes the earlier (Python's
         zoneinfo with fold=0, as the server reads it). */
      var before = offsetAt(select.value, wall - 864e5), after = offsetAt(select.value, wall + 864e5);
      var at = wall - before;
      if (offsetAt(select.value, at) !== before && offsetAt(select.value, wall - after) === after) at = wall - after;
      return new Date(at).toISOString().replace(".000Z", "Z");
    } catch (e) { return input.value; }
  }
  function sent(input) {
    if (input.disabled || input.matches("button") || kindOf(input) === "zone") return false;
    if (kindOf(input) === "list" && (input.type === "checkbox" || input.type === "radio")) return input.checked;
    return !(input.type === "radio" && !input.checked);
  }
  function keyOf(input) { var path = pathOf(input); return input.dataset.key || path[path.length - 1]; }
  function readObject(scope) {
    var item = {};
    scope.querySelectorAll("[data-key], [name]").forEach(function (input) {
      if (sent(input) && keyOf(input)) item[keyOf(input)] = readInput(input);
    });
    return item;
  }

  function serialize(form) {
    var body = {};
    form.querySelectorAll("[data-list]").forEach(function (list) {
      body[list.dataset.list] = Array.prototype.map.call(list.querySelectorAll("[data-row]"), readObject);
    });
    form.querySelectorAll("[data-group]").forEach(function (group) {
      body[group.dataset.group] = readObject(group);
    });
    form.querySelectorAll("[name]").forEach(function (input) {
      if (input.closest("[data-list], [data-group]") || !sent(input)) return;
      if (/^groupkit-/.test(input.getAttribute("name"))) return;  /* the form's own, never the body's */
      var path = pathOf(input);
      if (kindOf(input) === "list") { body[path[0]] = (Array.isArray(body[path[0]]) ? body[path[0]] : []).concat([input.value]); return; }
      if (path.length === 1) { body[path[0]] = readInput(input); return; }
      if (path.length !== 2) return;
      if (typeof body[path[0]] !== "object" || body[path[0]] === null || Array.isArray(body[path[0]])) body[path[0]] = {};
      body[path[0]][path[1]] = readInput(input);
    });
    return body;
  }

  function showError(scope, message) {
    /* A one-button form has no message box of its own: its row's or section's is used. */
    var box = scope && (scope.querySelector("[data-error]") || ((scope.parentElement || scope).closest("section, form, li") || document).querySelector("[data-error]"));
    if (box) { box.textContent = message; box.hidden = false; box.focus && box.focus(); }
    else { window.alert(message); }
  }

  /* A button that fetches a private address (a calendar feed) shows it in the link next to
     it ([data-link]) instead of reloading: only this browser ever sees it. It is kept in
     memory too, so a live update that redraws the spot shows it again. */
  var shownLinks = {};
  function linkKey(button) { return button.dataset.post + " " + (button.dataset.secretKey || ""); }
  function showLink(button, address) {
    if (!address) return;
    var key = linkKey(button);
    shownLinks[key] = address;
    if (!button.isConnected) {  // a live update redrew the spot while the address was on its way
      document.querySelectorAll("button[data-show-link]").forEach(function (fresh) {
        if (linkKey(fresh) === key) button = fresh;
      });
    }
    var link = button.isConnected && button.parentElement.querySelector("a[data-link]");
    if (!link) return;
    link.href = address;
    link.hidden = false;
    button.hidden = true;
  }

  /* A button that fetches words only this browser's holder may read (a meal's drop-off
     address) shows them in the paragraph after it ([data-text]), as text; kept in memory,
     so a live update that redraws the spot shows them again. */
  var shownTexts = {};
  function showText(button, text) {
    var key = linkKey(button);
    shownTexts[key] = text || "";
    if (!button.isConnected) {
      document.querySelectorAll("button[data-show-text]").forEach(function (fresh) {
        if (linkKey(fresh) === key) button = fresh;
      });
    }
    var shown = button.isConnected && button.parentElement.querySelector("[data-text]");
    if (!shown) return;
    shown.textContent = text || "";
    shown.hidden = false;
    button.hidden = true;
  }

  /* Posts in flight, and whether this page is on its way elsewhere. A live change that
     comes while this page's own post is on its way is read once the post has its answer,
     unless that answer sends the page elsewhere: read meanwhile, it could find the page
     gone (the organiser's own delete). A re-read that fails anyway leaves the page to the
     post's outcome instead of reloading over it. */
  var sending = 0;
  var leaving = false;
  var changedWhileSending = false;

  function post(url, body, extraHeaders) {
    sending += 1;
    var headers = Object.assign({ "Content-Type": "application/json", "X-Groupkit-Errors": "all" }, extraHeaders || {});
    return fetch(url, {
      method: "POST", headers: headers,
      body: JSON.stringify(body || {}), credentials: "same-origin"
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var parsed = type.indexOf("json") >= 0 ? response.json() : response.blob();
      return parsed.then(function (data) {
        if (!response.ok) {
          /* `shown` is the message in the reader's language, beside the spec's English. */
          var failure = new Error((data && (data.shown || data.error)) || words("Something went wrong — try again."));
          failure.field = data && data.field;
          failure.status = response.status;
          failure.confirm = data && data.confirm === true;
          failure.errors = data && Array.isArray(data.errors) ? data.errors : [];
          failure.conflicts = data && Array.isArray(data.conflicts) ? data.conflicts : [];
          failure.version = data && data.version;
          throw failure;
        }
        return data;
      });
    }).finally(function () {
      sending -= 1;
      if (!sending && changedWhileSending) {
        /* After the caller has seen the answer (and maybe left). */
        setTimeout(function () {
          if (sending || !changedWhileSending) return;
          changedWhileSending = false;
          if (!leaving) refreshRegions();
        }, 0);
      }
    });
  }

  function after(element, data, sent) {
    var values = Object.assign({}, sent, data);
    leaving = true;
    if (element.dataset.remember && data.secret) {
      localStorage.setItem(fill(element.dataset.remember, values), data.secret);
    }
    if (element.dataset.rememberToken && data.token) {
      localStorage.setItem(fill(element.dataset.rememberToken, values), data.token);
    }
    if (element.dataset.redirect) {
      window.location.assign(fill(element.dataset.redirect, values));
    } else if (element.dataset.goto && data.token) {
      window.location.assign(fill(element.dataset.goto, values));
    } else {
      window.location.reload();
    }
  }

  /* Errors at the field: an error body naming its `field` is shown next to that field
     (input[name], [data-list] or [data-field]) with aria-invalid and aria-describedby, focus
     moves there, and the message clears as soon as the field changes. */
  function fieldTarget(form, field) {
    var name = String(field).replace(/["\\]/g, "");
    /* A list row's field ("categories.2.name"): that row's input, counted as serialize()
       read the rows, so rows added or removed meanwhile do not mislead. */
    var path = /^([^.]+)\.(\d+)\.([^.:]+)$/.exec(name);
    var list = path && form.querySelector('[data-list="' + path[1] + '"]');
    var row = list && list.querySelectorAll("[data-row]")[Number(path[2])];
    var cell = row && row.querySelector('[data-key="' + path[3] + '"]');
    if (cell) return cell;
    return form.querySelector('[name="' + name + '"], [name^="' + name + ':"], [data-list="' + name + '"], [data-group="' + name + '"], [data-field="' + name + '"]');
  }
  function clearFieldErrors(form, only) {
    form.querySelectorAll("[data-field-error]").forEach(function (box) {
      var target = only && fieldTarget(form, box.getAttribute("data-field-error"));
      if (only && !(target && target.contains(only))) return;
      var owner = form.querySelector('[aria-describedby~="' + box.id + '"]');
      if (owner) {
        owner.removeAttribute("aria-invalid");
        var rest = owner.getAttribute("aria-describedby").split(" ").filter(function (id) { return id !== box.id; });
        if (rest.length) owner.setAttribute("aria-describedby", rest.join(" "));
        else owner.removeAttribute("aria-describedby");
      }
      box.remove();
    });
  }
  function showFieldError(form, field, message, later) {
    var target = fieldTarget(form, field);
    if (!target) return false;
    var input = target.matches("input, textarea, select") ? target : target.querySelector("input:not([type=hidden]), textarea, select") || target;
    var box = document.createElement("p");
    box.className = "error field-error";
    box.id = (form.id || "form") + "-error-" + String(field).replace(/[^\w-]/g, "");
    box.setAttribute("data-field-error", field);
    if (!later) box.setAttribute("role", "alert");
    box.textContent = message;
    target.insertAdjacentElement("afterend", box);
    input.setAttribute("aria-invalid", "true");
    var described = input.getAttribute("aria-describedby");
    input.setAttribute("aria-describedby", described ? described + " " + box.id : box.id);
    if (!later) input.focus();
    return true;
  }
  function fieldChanged(event) {
    var form = event.target.form || event.target.closest("form");
    if (form && form.querySelector("[data-field-error]")) clearFieldErrors(form, event.target);
  }
  document.addEventListener("input", fieldChanged);
  document.addEventListener("change", fieldChanged);
  /* A page script posting a form of its own shows its error the same way: it dispatches
     "groupkit:field-error" on the form (`detail.field`, `.message`). */
  document.addEventListener("groupkit:field-error", function (event) {
    var form = event.target, detail = event.detail || {};
    if (!(form instanceof HTMLFormElement)) return;
    clearFieldErrors(form);
    if (!(detail.field && showFieldError(form, detail.field, detail.message))) {
      showError(form, detail.message);
    }
  });

  function submitForm(form, body, base) {
    var button = form.querySelector("[type=submit]");
    var general = form.querySelector("[data-error]");
    if (button) button.disabled = true;
    clearFieldErrors(form);
    clearConflicts(form);
    if (general) general.hidden = true;
    var headers = base === undefined ? {} : { "If-Match": '"' + base + '"' };
    post(form.dataset.api, body, headers).then(function (data) { after(form, data, body); })
      .catch(function (error) {
        /* A page script may take the error over ("groupkit:error", cancelable). */
        var heard = new CustomEvent("groupkit:error", { bubbles: true, cancelable: true, detail: { error: error, body: body } });
        if (!form.dispatchEvent(heard)) return;
        if (error.conflicts.length) {
          showError(form, error.message);
          offerChoices(form, body, error);
        } else if (error.confirm && window.confirm(error.message)) {
          submitForm(form, Object.assign({}, body, { confirm: true }), base);
        } else if (!(error.field && showFieldError(form, error.field, error.message))) {
          showError(form, error.message);
        }
        /* A create form hears of every failing field at once: the first is focused. */
        (error.errors || []).forEach(function (extra) {
          if (extra.field !== error.field) showFieldError(form, extra.field, extra.shown || extra.error, true);
        });
      })
      .finally(function () { if (button) button.disabled = false; });
  }

  /* Edits that never undo each other (groupkit/core/_edits.py). An edit form
     ([data-edit-version]) remembers the version it showed and what each field held then; it
     sends only the fields the organiser changed, with If-Match naming that version, so a
     field someone else saved meanwhile is never sent back stale. */
  var edits = new WeakMap();
  function fieldsOf(form) {
    var values = {}, body = serialize(form);
    Object.keys(body).forEach(function (key) { values[key] = JSON.stringify(body[key]); });
    return values;
  }
  function editState(form) {
    if (!edits.has(form)) edits.set(form, { version: form.dataset.editVersion, shown: fieldsOf(form), waiting: {} });
    return edits.get(form);
  }
  function watchEditForms() {
    document.querySelectorAll("form[data-edit-version]").forEach(editState);
  }
  function changedFields(form) {
    var state = editState(form), body = serialize(form), changed = {};
    Object.keys(body).forEach(function (key) {
      if (JSON.stringify(body[key]) !== state.shown[key]) changed[key] = body[key];
    });
    return changed;
  }
  function clearConflicts(form) {
    form.querySelectorAll("[data-conflict]").forEach(function (box) { box.remove(); });
  }
  /* A box at the field: what it says, and buttons that each call `choose(choice)`. */
  function choiceBox(form, field, text, labels, choose) {
    var box = document.createElement("div");
    box.className = "conflict";
    box.setAttribute("data-conflict", field);
    box.setAttribute("role", "group");
    var para = document.createElement("p");
    para.className = "error field-error";
    para.textContent = text;
    box.appendChild(para);
    Object.keys(labels).forEach(function (choice) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = choice === "mine" ? "primary" : "secondary";
      button.textContent = labels[choice];
      button.addEventListener("click", function () { box.remove(); choose(choice); });
      box.appendChild(button);
    });
    var target = fieldTarget(form, field);
    if (target) target.insertAdjacentElement("afterend", box);
    else form.insertBefore(box, form.firstChild);
    return box;
  }
  /* A 409 naming fields someone else changed: each gets a one-tap choice; once every one
     is chosen, the edit goes again, based on the version that has theirs, without the
     fields whose value the organiser let them keep. */
  function offerChoices(form, body, error) {
    var chosen = {};
    error.conflicts.forEach(function (conflict) {
      choiceBox(form, conflict.field, conflict.shown || conflict.text, { theirs: words("Keep theirs"), mine: words("Use mine") }, function (choice) {
        chosen[conflict.field] = choice;
        if (Object.keys(chosen).length < error.conflicts.length) return;
        var again = {};
        Object.keys(body).forEach(function (key) { if (chosen[key] !== "theirs") again[key] = body[key]; });
        submitForm(form, again, error.version);
      });
    });
    var first = form.querySelector("[data-conflict] button");
    if (first) first.focus();
  }
  /* Someone else saved while this form is open: a field the organiser left alone takes the
     new value; one they changed too says so, with the choice. Returns true when the form
     was brought up to date here (the region around it is then left to the usual merge). */
  function followEdit(form, fresh) {
    var state = editState(form);
    if (!fresh || fresh.dataset.editVersion === state.version) return false;
    var mine = fieldsOf(form), theirs = fieldsOf(fresh), told = false;
    Object.keys(theirs).forEach(function (key) {
      if (theirs[key] === state.shown[key]) return;  /* nobody else changed it */
      if (mine[key] === theirs[key] || mine[key] === state.shown[key]) {
        if (mine[key] !== theirs[key]) takeField(form, fresh, key);
        state.shown[key] = theirs[key];
        told = told || mine[key] !== theirs[key];
        return;
      }
      if (state.waiting[key]) state.waiting[key].remove();
      state.waiting[key] = choiceBox(form, key, words("Someone else just saved this field. Take their version, or keep yours?"),
        { theirs: words("Take theirs"), mine: words("Keep mine") }, function (choice) {
          if (choice === "theirs") takeField(form, fresh, key);
          state.shown[key] = theirs[key];
          delete state.waiting[key];
          if (!Object.keys(state.waiting).length) state.version = fresh.dataset.editVersion;
        });
    });
    if (!Object.keys(state.waiting).length) state.version = fresh.dataset.editVersion;
    if (told) {
      var note = form.querySelector("[data-followed]") || document.createElement("p");
      note.className = "notice";
      note.setAttribute("data-followed", "");
      note.setAttribute("role", "status");
      note.textContent = words("Someone else saved changes: this form now shows them.");
      if (!note.isConnected) form.insertBefore(note, form.firstChild);
    }
    return true;
  }
  function takeField(form, fresh, key) {
    var mine = fieldTarget(form, key), theirs = fieldTarget(fresh, key);
    if (mine && theirs) mine.replaceWith(document.importNode(theirs, true));
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-api]")) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    if (form.dataset.editVersion !== undefined) submitForm(form, changedFields(form), editState(form).version);
    else submitForm(form, withSecret(form, serialize(form)));
  });
  /* A form about a spot this browser holds ([data-secret-prefix]: the email reminder) sends
     the spot's secret kept since claiming it, unless the person typed their code. */
  function withSecret(form, body) {
    if (form.dataset.secretPrefix && !body.secret) {
      body.secret = localStorage.getItem(form.dataset.secretPrefix + body.slotId) || "";
    }
    return body;
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target) return;
    if (target.dataset.copy) {
      var input = document.querySelector(target.dataset.copy);
      var done = function () { target.textContent = words("Copied"); setTimeout(function () { target.textContent = words("Copy"); }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done);
      } else { input.select(); document.execCommand("copy"); done(); }
    } else if (target.dataset.post) {
      /* Inside its one-button form (which posts it without the script) the script posts it. */
      event.preventDefault();
      if (target.dataset.confirm && !window.confirm(target.dataset.confirm)) return;
      var body = target.dataset.body ? JSON.parse(target.dataset.body) : {};
      if (target.dataset.secretKey) {
        body.secret = localStorage.getItem(target.dataset.secretKey);
      }
      target.disabled = true;
      post(target.dataset.post, body).then(function (data) {
        if (target.dataset.secretKey && target.dataset.keepSecret === undefined) {
          localStorage.removeItem(target.dataset.secretKey);
        }
        if (target.dataset.showLink) { showLink(target, data[target.dataset.showLink]); return; }
        if (target.dataset.showText) { showText(target, data[target.dataset.showText]); return; }
        after(target, data, body);
      }).catch(function (error) { showError(target.parentElement, error.message); target.disabled = false; });
    } else if (target.dataset.download) {
      event.preventDefault();  // its form downloads the same without the script
      post(target.dataset.download, {}).then(function (data) {
        var blob = data instanceof Blob ? data : new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
        var link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = target.dataset.filename || "export";
        document.body.appendChild(link); link.click(); link.remove();
      }).catch(function (error) { showError(target.parentElement, error.message); });
    } else if (target.dataset.addRow) {
      var list = document.querySelector('[data-list="' + target.dataset.addRow + '"]');
      var template = document.querySelector('template[data-row-template="' + target.dataset.addRow + '"]');
      if (list && template) list.appendChild(template.content.cloneNode(true));
    } else if (target.dataset.removeRow !== undefined) {
      var row = target.closest("[data-row]");
      if (row && row.parentElement.querySelectorAll("[data-row]").length > 1) row.remove();
    }
  });

  /* Controls that only the browser holding a secret may use (e.g. "release my spot"), and
     controls that need this script ([data-script-only]: hidden for a browser without it). */
  function revealOwned() {
    document.querySelectorAll("[data-secret-key]").forEach(function (element) {
      if (localStorage.getItem(element.dataset.secretKey)) element.hidden = false;
    });
    document.querySelectorAll("[data-script-only]").forEach(function (element) {
      element.hidden = false;
    });
    document.querySelectorAll("button[data-show-link]").forEach(function (button) {
      var address = shownLinks[linkKey(button)];
      if (address && !button.hidden) showLink(button, address);
    });
    document.querySelectorAll("button[data-show-text]").forEach(function (button) {
      var text = shownTexts[linkKey(button)];
      if (text !== undefined && !button.hidden) showText(button, text);
    });
  }

  /* Live updates. When the instance changes, every [data-live-region id=...] is brought up
     to date: on a public page from the parts pushed in the event stream itself (event
     "parts": the version, a newline, then each changed element with an id, such as one spot's
     row: one render serves every viewer), elsewhere from a fresh copy of the page re-read from
     the server (event "version"). The swap is as fine-grained as the
     visitor allows: a region nobody is busy in is replaced whole; inside a busy one (focus in
     it, or a field typed into) only the parts the visitor is not busy in are replaced, down to
     single elements and text, so counts and other people's spots stay current while what the
     visitor types is never touched. A busy part is retried until the visitor is done.
     Plugin scripts hear "groupkit:live" after each swap. */
  function dirty(field) {
    if (field.type === "hidden") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }
  function busy(node) {
    if (node.nodeType !== 1) return false;
    var active = document.activeElement;
    if (active && active !== document.body && node.contains(active)) return true;
    /* A disclosure the visitor opened (a spot's claim form) stays open. */
    if (node.matches("details[open]") || node.querySelector("details[open]")) return true;
    if (node.matches("input, textarea, select") && dirty(node)) return true;
    return Array.prototype.some.call(node.querySelectorAll("input, textarea, select"), dirty);
  }
  /* An element kept because the visitor is busy inside it still takes the fresh copy's
     attributes (a page script may read its data-* state); fields keep what was typed. */
  function syncAttributes(current, fresh) {
    if (current.matches("input, textarea, select, option")) return;
    Array.prototype.slice.call(current.attributes).forEach(function (attribute) {
      if (attribute.name === "open" && current.tagName === "DETAILS") return;
      if (!fresh.hasAttribute(attribute.name)) current.removeAttribute(attribute.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (attribute) {
      if (current.getAttribute(attribute.name) !== attribute.value) current.setAttribute(attribute.name, attribute.value);
    });
  }
  /* Make `current` look like `fresh` without touching what the visitor is busy in; returns
     false when something had to wait. */
  function merge(current, fresh) {
    /* A page script holds a region still (data-live-held) while the visitor points at it. */
    if (current.hasAttribute("data-live-held")) return false;
    /* What the visitor was just told (an error shown at a form) stays until they act on it:
       the fresh copy's message box is empty and hidden. */
    if (current.matches("[data-error]:not([hidden])")) return false;
    if (!busy(current)) {
      if (!current.isEqualNode(fresh)) current.replaceWith(document.importNode(fresh, true));
      return true;
    }
    if (current.matches("select")) return false;  /* a busy select waits whole */
    var mine = current.childNodes, theirs = fresh.childNodes;
    if (current.tagName !== fresh.tagName || mine.length !== theirs.length) return false;
    syncAttributes(current, fresh);
    if (!mine.length) return current.isEqualNode(fresh);
    var done = true;
    Array.prototype.slice.call(mine).forEach(function (child, i) {
      var other = theirs[i];
      if (child.nodeType !== other.nodeType) { done = false; return; }
      if (child.nodeType === 1) { done = merge(child, other) && done; }
      else if (child.nodeType === 3 && child.nodeValue !== other.nodeValue) { child.nodeValue = other.nodeValue; }
    });
    return done;
  }
  /* Parsed apart from the page, <noscript> holds elements (a parser without scripting); in
     the page it holds text. Made text again, so a <noscript> input never joins a form. */
  function asInPage(root) {
    root.querySelectorAll("noscript").forEach(function (element) { element.textContent = element.innerHTML; });
    return root;
  }
  /* Fresh elements, by id, that wait for the visitor (or for the element around them): a
     region from a page read again, or a part pushed in the stream. A newer one replaces what
     waits under its id and anything it holds. Pushed parts are changes to what the stream
     sent before, so none is ever skipped; a stream's first parts are its regions whole,
     newer than a page read before them (which is dropped, even if still on its way). */
  var waiting = {};
  var retry = null;
  var partsSeen = 0;
  function wait(fresh) {
    fresh.querySelectorAll("[id]").forEach(function (inner) { delete waiting[inner.id]; });
    delete waiting[fresh.id];
    waiting[fresh.id] = fresh;
  }
  function swapRegions(html) {
    var fresh = asInPage(new DOMParser().parseFromString(html, "text/html"));
    waiting = {};  /* a whole page read now is newer than anything still waiting */
    document.querySelectorAll("[data-live-region][id]").forEach(function (region) {
      var replacement = fresh.getElementById(region.id);
      if (!replacement) return;
      var form = region.querySelector("form[data-edit-version]");
      var followed = form && busy(region) && followEdit(form, form.id && fresh.getElementById(form.id));
      if (followed) { syncAttributes(form, replacement.querySelector("#" + form.id) || form); return; }
      wait(replacement);
    });
    flush();
  }
  function applyParts(html) {
    partsSeen += 1;
    var template = document.createElement("template");
    template.innerHTML = html;
    Array.prototype.forEach.call(asInPage(template.content).children, function (part) {
      if (part.id) wait(part);
    });
    flush();
  }
  function flush() {
    var found = false;
    Object.keys(waiting).forEach(function (id) {
      var current = document.getElementById(id);
      if (!current) return;
      found = true;
      if (merge(current, waiting[id])) delete waiting[id];
    });
    /* What has no place on the page and waits on nothing that could bring one is dropped. */
    if (!found) waiting = {};
    if (Object.keys(waiting).length && retry === null) {
      retry = setTimeout(function () { retry = null; flush(); }, 1500);
    }
    revealOwned();
    watchEditForms();
    document.dispatchEvent(new CustomEvent("groupkit:live"));
  }
  function refreshRegions() {
    if (sending) { changedWhileSending = true; return; }
    var partsBefore = partsSeen;
    /* A private link the organiser reset answers 404 with a page that says so: its regions
       are taken like any other's. A page with none of them (gone) is loaded whole. */
    fetch(window.location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        return response.ok || response.status === 404 ? response.text() : null;
      })
      .then(function (html) {
        if (html === null || html.indexOf("data-live-region") < 0) {
          if (!sending && !leaving) window.location.reload();
          return;
        }
        if (partsSeen === partsBefore) swapRegions(html);
      });
  }
  function startLive() {
    var body = document.body;
    if (!body.dataset.live || !document.querySelector("[data-live-region]") || !window.EventSource) return;
    var seen = body.dataset.liveVersion;
    var pushed = window.location.pathname.indexOf("/s/") === 0 && !window.location.search;
    var source = new EventSource(body.dataset.live + (pushed ? "?page=public" : ""));
    source.addEventListener("version", function (event) {
      if (event.data !== seen) { seen = event.data; refreshRegions(); }
    });
    source.addEventListener("parts", function (event) {
      var cut = event.data.indexOf("\n");
      var version = cut < 0 ? event.data : event.data.slice(0, cut);
      seen = version;
      applyParts(cut < 0 ? "" : event.data.slice(cut + 1));
    });
    source.addEventListener("gone", function () {
      source.close();
      var main = document.querySelector("main");
      var notice = document.createElement("p");
      notice.className = "notice";
      notice.setAttribute("role", "status");
      notice.textContent = words("The organiser has deleted this, so there is nothing more to see here.");
      main.replaceChildren(notice);
    });
  }
  function ready() { revealOwned(); watchEditForms(); startLive(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
