/* Pixel Gift Registry: picking a part from the picture, claiming it and chipping in (the
   receipt, with how to pay, is shown only to the guest who claimed). Everything user-written is set with textContent. */
(function () {
  "use strict";
  var words = window.groupkitWords;

  var GIFTS_KEY = "groupkit:registry:{slug}:gifts";
  var FALLBACK = words("Something went wrong — try again.");

  function money(cents) {
    var dollars = Math.floor(cents / 100).toLocaleString("en-AU");
    return "$" + dollars + (cents % 100 ? "." + String(cents % 100).padStart(2, "0") : "");
  }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function postJson(url, body) {
    return fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Groupkit-Errors": "all" },
      body: JSON.stringify(body), credentials: "same-origin"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok) {
          var problem = new Error((data && data.error) || FALLBACK);
          problem.field = data && data.field;
          throw problem;
        }
        return data;
      });
    });
  }

  /* --- picking a part ------------------------------------------------------------------ */

  var picked = null;

  function highlight() {
    document.querySelectorAll(".van .part.selected").forEach(function (part) {
      part.classList.remove("selected");
    });
    if (!picked) return;
    var region = document.querySelector('.van .part[data-part="' + picked + '"]');
    if (region) region.classList.add("selected");
  }

  function describe(id) {
    var summary = document.getElementById("registry-picked");
    var region = document.querySelector('.van .part[data-part="' + id + '"]');
    if (!summary || !region) return;
    summary.textContent = "";
    summary.appendChild(el("strong", region.dataset.name));
    summary.appendChild(document.createTextNode(" — " + region.dataset.price));
    if (region.dataset.by) {
      summary.appendChild(document.createTextNode(
        words(". Already built by {name} — pick another part.", { name: region.dataset.by })));
    }
  }

  function pick(id, focus) {
    var select = document.getElementById("partId");
    var region = document.querySelector('.van .part[data-part="' + id + '"]');
    if (!select || !region) return;
    picked = id;
    describe(id);
    highlight();
    var open = Array.prototype.some.call(select.options, function (option) {
      return option.value === id;
    });
    select.value = open ? id : "";
    if (focus) {
      var panel = document.getElementById("claim");
      panel.scrollIntoView({ block: "start" });
      if (open) document.getElementById("claim-name").focus({ preventScroll: true });
    }
  }

  /* The full-size row a part of the picture stands for (its build sheet entry, its claim on
     the organiser's page, the overflow form): opened, brought into view and focused. */
  function reveal(row) {
    var details = row.closest("details");
    if (details) details.open = true;
    var control = row.querySelector("a[href], button, input:not([type=hidden]), select, textarea");
    if (!control) {
      row.setAttribute("tabindex", "-1");
      control = row;
    }
    row.scrollIntoView({ block: "center" });
    control.focus({ preventScroll: true });
    document.querySelectorAll(".van-pointed").forEach(function (other) {
      other.classList.remove("van-pointed");
    });
    row.classList.add("van-pointed");
  }

  /* A part at least a fingertip wide on screen can be aimed at: it is picked in place. */
  function bigEnough(region) {
    var box = region.getBoundingClientRect();
    return box.width >= 24 && box.height >= 24;
  }

  document.addEventListener("click", function (event) {
    var region = event.target.closest(".van [data-part], .van [data-equivalent]");
    var button = event.target.closest("[data-pick]");
    var row = region && region.dataset.equivalent && document.getElementById(region.dataset.equivalent);
    if (region && region.dataset.part && document.getElementById("partId") && bigEnough(region)) {
      event.preventDefault();
      pick(region.dataset.part, true);
    } else if (row) {
      event.preventDefault();
      if (region.dataset.part && document.getElementById("partId")) pick(region.dataset.part, false);
      reveal(row);
    } else if (button) {
      event.preventDefault();  // without script the link reloads with the part chosen
      pick(button.dataset.pick, true);
    } else if (event.target.closest("[data-registry-done]")) {
      window.location.reload();
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.id !== "partId") return;
    if (event.target.value) { pick(event.target.value, false); return; }
    picked = null;  // "Choose a part…" again
    highlight();
  });

  /* --- claiming and chipping in -------------------------------------------------------- */

  function bodyOf(form) {
    var body = {};
    form.querySelectorAll("[name]:not([data-dollars])").forEach(function (input) { body[input.name] = input.value; });
    var dollars = form.querySelector("[data-dollars]");
    if (dollars) {
      var text = dollars.value.trim();
      body.amountCents = text !== "" && isFinite(Number(text)) ? Math.round(Number(text) * 100) : null;
    }
    return body;
  }

  function giftsKey(slug) { return GIFTS_KEY.replace("{slug}", slug); }

  function remember(slug, receipt) {
    var gifts = [];
    try { gifts = JSON.parse(localStorage.getItem(giftsKey(slug)) || "[]"); } catch (e) { gifts = []; }
    gifts.push(receipt);
    localStorage.setItem(giftsKey(slug), JSON.stringify(gifts));
  }

  var PAYMENT_LABELS = [["method", words("Method")], ["aliasId", "PayID"],
                        ["accountName", words("Account name")], ["bsb", "BSB"],
                        ["accountNumber", words("Account number")], ["note", words("Note")]];

  var COPYABLE = ["aliasId", "bsb", "accountNumber"];

  function copyButton() {  // the kernel's share.js copies the text just before it
    var button = el("button", words("Copy"), "copy-text");
    button.type = "button";
    button.setAttribute("data-copy-text", "");
    return button;
  }

  /* A value to copy, as _van.html's `copyable` writes it: the value, whole on its line
     (registry.css), then its Copy button. */
  function copyable(text) {
    var value = el("dd", null, "registry-copyable");
    value.appendChild(el("span", text, "registry-value"));
    value.appendChild(copyButton());
    return value;
  }

  function paymentList(payment) {
    var known = payment && (payment.aliasId || payment.accountName || payment.bsb || payment.accountNumber);
    if (!known) return el("p", words("The couple haven't added payment details here — they'll let you know how to pay."));
    var list = el("dl", null, "registry-pay");
    PAYMENT_LABELS.forEach(function (pair) {
      if (!payment[pair[0]]) return;
      list.appendChild(el("dt", pair[1]));
      list.appendChild(COPYABLE.indexOf(pair[0]) >= 0 ? copyable(payment[pair[0]])
                                                      : el("dd", payment[pair[0]]));
    });
    return list;
  }

  /* What the reader calls the gift: the page names parts and the overflow gift in its own
     language, while a receipt carries the API's English. */
  function itemName(gift) {
    var named = gift.partId ? document.querySelector('.van .part[data-part="' + gift.partId + '"]')
                            : document.getElementById("overflow-heading");
    if (!named) return gift.item;
    return (gift.partId ? named.dataset.name : named.textContent) || gift.item;
  }

  function thank(receipt) {
    var panel = document.getElementById("registry-thanks");
    panel.textContent = "";
    panel.appendChild(el("h2", words("Thank you, {name}!", { name: receipt.name })));
    var gift = { item: itemName(receipt), amount: money(receipt.amountCents) };
    panel.appendChild(el("p", receipt.partId ? words("You're building the {item} — {amount}.", gift)
                                             : words("You're chipping in to {item} — {amount}.", gift)));
    var reference = el("p", words("Your reference: "));
    reference.appendChild(el("strong", receipt.reference, "registry-reference"));
    reference.appendChild(copyButton());
    panel.appendChild(reference);
    panel.appendChild(el("p", words("Pay {amount} and put the reference in the description:",
                                    { amount: money(receipt.amountCents) })));
    panel.appendChild(paymentList(receipt.payment));
    var done = el("button", words("Done"), "primary");
    done.type = "button";
    done.setAttribute("data-registry-done", "");
    panel.appendChild(done);
    panel.hidden = false;
    panel.scrollIntoView({ block: "start" });
    panel.focus({ preventScroll: true });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-registry-form]")) return;
    event.preventDefault();
    var body = bodyOf(form);
    var button = form.querySelector("[type=submit]");
    var box = form.querySelector("[data-error]");
    if (box) box.hidden = true;
    if (button) button.disabled = true;
    postJson(form.dataset.endpoint, body).then(function (reply) {
      var receipt = Object.assign({ name: body.name.trim() }, reply);
      remember(body.slug, receipt);
      if (reply.partId) {
        var option = form.querySelector('option[value="' + reply.partId + '"]');
        if (option) option.remove();
      }
      form.reset();
      picked = null;
      highlight();
      var summary = document.getElementById("registry-picked");
      if (summary && reply.partId) summary.textContent = words("Tap another part of the van, or choose one here.");
      thank(receipt);
      showMine(body.slug);
    }).catch(function (error) {
      form.dispatchEvent(new CustomEvent("groupkit:field-error", {
        bubbles: true, detail: { field: error.field, message: error.message } }));
    }).finally(function () { if (button) button.disabled = false; });
  });

  /* --- this browser's own receipts ------------------------------------------------------ */

  function showMine(slug) {
    var section = document.getElementById("registry-mine");
    if (!section || !slug) return;
    var gifts = [];
    try { gifts = JSON.parse(localStorage.getItem(giftsKey(slug)) || "[]"); } catch (e) { gifts = []; }
    var list = section.querySelector("[data-mine-list]");
    list.textContent = "";
    gifts.forEach(function (gift) {
      var item = el("li", null, "registry-gift");
      var head = el("p");
      head.appendChild(el("strong", itemName(gift)));
      head.appendChild(document.createTextNode(
        words(" — {amount} · reference ", { amount: money(gift.amountCents) })));
      head.appendChild(el("code", gift.reference));
      item.appendChild(head);
      item.appendChild(paymentList(gift.payment));
      list.appendChild(item);
    });
    section.hidden = gifts.length === 0;
  }

  /* The build sheet's sections stay open or closed across live updates. */
  var openSections = {};
  document.addEventListener("toggle", function (event) {
    var section = event.target;
    if (section.matches && section.matches("details[data-section]")) {
      openSections[section.dataset.section] = section.open;
    }
  }, true);
  function restoreSections() {
    document.querySelectorAll("details[data-section]").forEach(function (section) {
      if (openSections[section.dataset.section]) section.open = true;
    });
  }

  function ready() {
    var slugInput = document.querySelector("form[data-registry-form] input[name=slug]");
    if (slugInput) showMine(slugInput.value);
    var select = document.getElementById("partId");
    if (select && select.value) pick(select.value, false);  // arrived with ?part= chosen
    highlight();
  }
  /* A live update may redraw the claim form's list of parts (a part built or released): the
     part picked stays picked while it is still there, and is described again (built by
     someone else meanwhile, the description says so). */
  document.addEventListener("groupkit:live", function () {
    var select = document.getElementById("partId");
    if (picked && select && !select.value &&
        select.querySelector('option[value="' + picked + '"]')) select.value = picked;
    if (picked) describe(picked);
    highlight();
    restoreSections();
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
