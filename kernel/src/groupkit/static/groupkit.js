/* groupkit: small progressive-enhancement helpers driven by data- attributes.
   Forms post JSON to the API; secrets a browser must keep live in localStorage. */
(function () {
  "use strict";

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return values[key] === undefined ? "" : encodeURIComponent(values[key]);
    });
  }

  function readInput(input) {
    if (input.type === "checkbox") return input.checked;
    if (input.hasAttribute("data-lines")) {
      return input.value.split(/\r?\n/).filter(function (line) { return line.trim() !== ""; });
    }
    if (input.dataset.type === "number" && input.value.trim() !== "" && !isNaN(Number(input.value))) {
      return Number(input.value);
    }
    return input.value;
  }

  function serialize(form) {
    var body = {};
    form.querySelectorAll("[data-list]").forEach(function (list) {
      body[list.dataset.list] = Array.prototype.map.call(list.querySelectorAll("[data-row]"), function (row) {
        var item = {};
        row.querySelectorAll("[data-key]").forEach(function (input) { item[input.dataset.key] = readInput(input); });
        return item;
      });
    });
    form.querySelectorAll("[name]").forEach(function (input) {
      if (input.closest("[data-list]") || input.disabled) return;
      if (input.type === "radio" && !input.checked) return;
      body[input.name] = readInput(input);
    });
    return body;
  }

  function showError(scope, message) {
    var box = scope && (scope.querySelector("[data-error]") || (scope.closest("section, form, li") || document).querySelector("[data-error]"));
    if (box) { box.textContent = message; box.hidden = false; box.focus && box.focus(); }
    else { window.alert(message); }
  }

  /* A button that fetches a private address (a calendar feed) shows it in the link next to
     it ([data-link]) instead of reloading: only this browser ever sees it. */
  function showLink(button, address) {
    var link = button.parentElement.querySelector("a[data-link]");
    if (!link || !address) return;
    link.href = address;
    link.hidden = false;
    button.hidden = true;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}), credentials: "same-origin"
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var parsed = type.indexOf("json") >= 0 ? response.json() : response.blob();
      return parsed.then(function (data) {
        if (!response.ok) {
          throw new Error((data && data.error) || "Something went wrong — try again.");
        }
        return data;
      });
    });
  }

  function after(element, data, sent) {
    var values = Object.assign({}, sent, data);
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

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-api]")) return;
    event.preventDefault();
    var body = serialize(form);
    var button = form.querySelector("[type=submit]");
    if (button) button.disabled = true;
    post(form.dataset.api, body).then(function (data) { after(form, data, body); })
      .catch(function (error) { showError(form, error.message); })
      .finally(function () { if (button) button.disabled = false; });
  });

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target) return;
    if (target.dataset.copy) {
      var input = document.querySelector(target.dataset.copy);
      var done = function () { target.textContent = "Copied"; setTimeout(function () { target.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done);
      } else { input.select(); document.execCommand("copy"); done(); }
    } else if (target.dataset.post) {
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
        after(target, data, body);
      }).catch(function (error) { showError(target.parentElement, error.message); target.disabled = false; });
    } else if (target.dataset.download) {
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

  /* Controls that only the browser holding a secret may use (e.g. "release my spot"). */
  function revealOwned() {
    document.querySelectorAll("[data-secret-key]").forEach(function (element) {
      if (localStorage.getItem(element.dataset.secretKey)) element.hidden = false;
    });
  }

  /* Live updates: when the instance changes, re-read this page and swap every
     [data-live-region id=...] for its fresh copy. A region the visitor is busy in (focus
     inside it, or a field typed into) waits and is retried, so nobody loses what they typed.
     Plugin scripts hear "groupkit:live" after each swap. */
  var retry = null;
  function busy(region) {
    if (region.contains(document.activeElement) && document.activeElement !== document.body) return true;
    return Array.prototype.some.call(region.querySelectorAll("input, textarea"), function (field) {
      return field.type !== "hidden" && field.value !== field.defaultValue;
    });
  }
  function refreshRegions() {
    retry = null;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { window.location.reload(); return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var waiting = false;
        document.querySelectorAll("[data-live-region][id]").forEach(function (region) {
          if (busy(region)) { waiting = true; return; }
          var replacement = fresh.getElementById(region.id);
          if (replacement) region.replaceWith(document.importNode(replacement, true));
        });
        if (waiting && retry === null) retry = setTimeout(refreshRegions, 1500);
        revealOwned();
        document.dispatchEvent(new CustomEvent("groupkit:live"));
      });
  }
  function startLive() {
    var body = document.body;
    if (!body.dataset.live || !document.querySelector("[data-live-region]") || !window.EventSource) return;
    var seen = body.dataset.liveVersion;
    var source = new EventSource(body.dataset.live);
    source.addEventListener("version", function (event) {
      if (event.data !== seen) { seen = event.data; refreshRegions(); }
    });
    source.addEventListener("gone", function () {
      source.close();
      var main = document.querySelector("main");
      var notice = document.createElement("p");
      notice.className = "notice";
      notice.setAttribute("role", "status");
      notice.textContent = "The organiser has deleted this, so there is nothing more to see here.";
      main.replaceChildren(notice);
    });
  }
  function ready() { revealOwned(); startLive(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
