"""Pixel Gift Registry in a real browser: the couple create a registry with payment details;
a guest on a phone taps a part of the van, builds it, sees the reference and how to pay, and
chips in to the overflow item; another guest never sees payment details or references and is
told when a part was taken under them; the organiser marks a claim paid and releases a part.
Every page is screenshotted and must load without console errors or CSP violations."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browsing import Watched
from browsing import code_of
from playwright.sync_api import Page
from playwright.sync_api import Route
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
PAYMENT = {"method": "Bank transfer", "aliasId": "mia.sam.payid@example.com",
           "accountName": "Mia Sam Kowalczyk", "bsb": "062-914", "accountNumber": "10457788",
           "note": "Pop the reference in the description"}
PRIVATE = [PAYMENT["aliasId"], PAYMENT["accountName"], PAYMENT["bsb"],
           PAYMENT["accountNumber"], PAYMENT["note"]]
TAKEN = "Someone beat you to that one by a whisker."


def region(page: Page, part_id: str) -> Any:
    return page.locator(f'.van .part[data-part="{part_id}"]')


def assert_private_absent(page: Page, references: list[str]) -> None:
    text = page.content()
    for value in [*PRIVATE, *references]:
        assert value not in text, value


def refused(watched: Watched, status: int, path: str) -> None:
    """A refusal the test provoked on purpose: Chromium logs the failed request as a console
    error; take exactly that one off the watcher's list."""
    expected = [problem for problem in watched.problems
                if f"status of {status}" in problem and problem.endswith(f"{path})")]
    assert len(expected) == 1, watched.problems
    watched.problems.remove(expected[0])


def test_registry_create_claim_chip_in_and_organise(
        server: Any, api: httpx.Client, open_context: Callable[[], Watched]) -> None:
    couple = open_context()
    page = couple.page
    page.goto("/")
    page.get_by_role("link", name="Pixel Gift Registry").click()
    page.wait_for_url("**/new/registry")
    page.fill("#coupleNames", "Mia & Sam")
    page.fill("#tagline", "Help us build the honeymoon van")
    page.fill("#weddingDate", "Saturday 14 March")
    page.fill("#pay-method", PAYMENT["method"])
    page.fill("#pay-alias", PAYMENT["aliasId"])
    page.fill("#pay-name", PAYMENT["accountName"])
    page.fill("#pay-bsb", PAYMENT["bsb"])
    page.fill("#pay-number", PAYMENT["accountNumber"])
    page.fill("#pay-note", PAYMENT["note"])
    couple.check("registry-create")
    page.get_by_role("button", name="Start the build").click()
    page.wait_for_url(re.compile(r"/e/[^/?]+\?new=1$"))
    edit_token = code_of(page.url, "e")
    share = page.input_value("#share-link")
    slug = code_of(share, "s")
    payment_box = page.locator(".registry-payment").inner_text()
    for value in PRIVATE:
        assert value in payment_box
    assert page.locator(".van .part.open").count() == 126
    assert page.locator(".van [data-equivalent]").count() == 0  # no claim to point at yet
    couple.check("registry-organiser-new")
    stored = api.post(f"/api/registry/{edit_token}/export").raise_for_status().json()
    assert stored["data"]["payment"] == PAYMENT

    # A guest on a phone: the van, no payment details anywhere on the page.
    guest = open_context()
    phone = guest.page
    phone.set_viewport_size(PHONE)
    phone.goto(share)
    assert phone.get_by_role("heading", level=1).inner_text() == "Mia & Sam"
    assert phone.locator(".van .part[data-equivalent]").count() == 126
    assert_private_absent(phone, [])
    guest.check("registry-public-phone")

    # Tap the co-pilot pup in the picture: it is picked, with its name and price.
    pup = api.get(f"/api/registry/{slug}").json()["parts"]
    pup_part = next(part for part in pup if part["name"] == "Co-pilot pup")
    region(phone, pup_part["id"]).click()
    expect(phone.locator("#registry-picked")).to_contain_text("Co-pilot pup — $80")
    assert phone.input_value("#partId") == pup_part["id"]
    expect(region(phone, pup_part["id"])).to_have_class(re.compile(r"\bselected\b"))
    phone.fill("#claim-name", "Aunty Jo")
    phone.fill("#claim-message", "Every van needs a co-pilot!")
    guest.check("registry-public-phone-picked")
    phone.get_by_role("button", name="Build it").click()

    thanks = phone.locator("#registry-thanks")
    expect(thanks).to_be_visible()
    expect(thanks).to_contain_text("Thank you, Aunty Jo!")
    expect(thanks).to_contain_text("Co-pilot pup — $80.")
    reference = thanks.locator(".registry-reference").inner_text()
    assert re.fullmatch(r"VAN-[2-9A-Z]{6}", reference)
    for value in PRIVATE:
        expect(thanks).to_contain_text(value)
    # The picture shows the pup built without a reload (live update).
    expect(region(phone, pup_part["id"])).to_have_class(re.compile(r"\bbuilt\b"), timeout=3000)
    guest.check("registry-public-phone-claimed")

    # Done: the page reloads; this browser keeps its own receipt, nothing else does.
    phone.get_by_role("button", name="Done").click()
    phone.wait_for_load_state("load")
    mine = phone.locator("#registry-mine")
    expect(mine).to_be_visible()
    expect(mine).to_contain_text(reference)
    expect(phone.locator("#registry-crew")).to_contain_text("Aunty Jo")
    expect(phone.locator(f"#sheet-{pup_part['id']}")).to_contain_text("Built by Aunty Jo")

    # Chip in to the overflow item.
    phone.locator("#overflow").scroll_into_view_if_needed()
    phone.fill("#overflow-amount", "50")
    phone.fill("#overflow-name", "Aunty Jo")
    phone.get_by_role("button", name="Chip in").click()
    expect(thanks).to_contain_text("You're chipping in to Fuel & rego for the first year — $50.")
    fuel_reference = thanks.locator(".registry-reference").inner_text()
    assert fuel_reference != reference
    guest.check("registry-public-phone-chipped-in")
    phone.get_by_role("button", name="Done").click()
    phone.wait_for_load_state("load")
    expect(mine.locator("li")).to_have_count(2)
    guest.check("registry-public-phone-my-gifts")

    # A too-small amount is refused with the spec's message, at the amount, until changed.
    phone.fill("#overflow-amount", "2")
    phone.fill("#overflow-name", "Aunty Jo")
    phone.get_by_role("button", name="Chip in").click()
    message = phone.locator("#overflow [data-field-error]")
    expect(message).to_have_text("Pick an amount between $5 and $2,000.")
    amount = phone.locator("#overflow-amount")
    expect(amount).to_have_attribute("aria-invalid", "true")
    expect(amount).to_have_attribute("aria-describedby", message.get_attribute("id") or "-")
    expect(amount).to_be_focused()
    refused(guest, 400, "/api/registry/overflow")
    phone.fill("#overflow-amount", "20")
    expect(message).to_have_count(0)
    expect(amount).not_to_have_attribute("aria-invalid", "true")

    # Another guest: sees who built what, never payment details or references; a part taken
    # while their form was open is refused with the spec's message.
    other = open_context()
    other.page.set_viewport_size(PHONE)
    other.page.goto(share)
    expect(other.page.locator("#registry-crew")).to_contain_text("Aunty Jo")
    assert other.page.locator("#registry-mine").is_hidden()
    assert_private_absent(other.page, [reference, fuel_reference])
    surfboard = next(part for part in pup if part["name"] == "Surfboard nose")
    other.page.select_option("#partId", surfboard["id"])
    other.page.fill("#claim-name", "Uncle Bo")

    def cousin_first(route: Route) -> None:
        """Another guest's claim of the same part lands just before this one."""
        api.post("/api/registry/claim", json={
            "slug": slug, "partId": surfboard["id"], "name": "Quick Cousin"}).raise_for_status()
        route.continue_()

    other.page.route(re.compile(r"/api/registry/claim$"), cousin_first, times=1)
    other.page.get_by_role("button", name="Build it").click()
    expect(other.page.locator("#claim [data-error]")).to_have_text(TAKEN)
    refused(other, 409, "/api/registry/claim")
    # The open page hears of it too: the part shows as built, by whom.
    expect(other.page.locator("#registry-picked")).to_contain_text(
        "Already built by Quick Cousin")
    other.check("registry-public-phone-taken")
    # A part picked stays picked while others on the roof are built around it.
    ladder, tail = (next(part for part in pup if part["name"] == name)
                    for name in ("Roof ladder", "Surfboard tail"))
    other.page.select_option("#partId", ladder["id"])
    built = api.post("/api/registry/claim", json={
        "slug": slug, "partId": tail["id"], "name": "Quick Cousin"}).raise_for_status()
    expect(other.page.locator(f"#sheet-{tail['id']}")).to_have_class("built")
    expect(other.page.locator("#partId")).to_have_value(ladder["id"])
    api.post(f"/api/registry/{edit_token}/release",
             json={"reference": built.json()["reference"]}).raise_for_status()

    # The organiser: every claim with its reference; mark one paid, release the pup.
    page.goto(f"/e/{edit_token}")
    claims = page.locator(".registry-claims > li")
    expect(claims).to_have_count(3)
    text = page.locator(".registry-claims").inner_text()
    assert reference in text and fuel_reference in text
    pup_row = page.locator(f"#row-{pup_part['id']}")
    expect(pup_row).to_contain_text("Not paid yet")
    couple.check("registry-organiser-claims")
    with page.expect_navigation():
        pup_row.get_by_role("button", name="Mark paid").click()
    expect(page.locator(f"#row-{pup_part['id']}")).to_contain_text("Paid")
    couple.check("registry-organiser-paid")
    listed = api.get(f"/api/registry/{edit_token}/claims").json()["claims"]
    assert [c["paid"] for c in listed if c["reference"] == reference] == [True]
    with page.expect_navigation():
        page.locator(f"#row-{pup_part['id']}").get_by_role("button", name="Release").click()
    expect(page.locator(".registry-claims > li")).to_have_count(2)
    expect(region(page, pup_part["id"])).to_have_class(re.compile(r"\bopen\b"))
    couple.check("registry-organiser-released")

    # Back on the guest's phone the pup is up for grabs again.
    other.page.reload()
    expect(region(other.page, pup_part["id"])).to_have_class(re.compile(r"\bopen\b"))
    assert other.page.locator(f'#partId option[value="{pup_part["id"]}"]').count() == 1
    other.check("registry-public-phone-after-release")


def test_a_finished_van(server: Any, api: httpx.Client,
                        open_context: Callable[[], Watched]) -> None:
    """Every part claimed: the whole van is built, on a phone and on a desktop."""
    made = api.post("/api/registry", json={"coupleNames": "Lee & Kai",
                                           "tagline": "Thanks for building our van!"}).json()
    for n in range(1, 127):
        api.post("/api/registry/claim", json={
            "slug": made["slug"], "partId": f"p{n:03d}", "name": f"Guest {n}"}
        ).raise_for_status()
    watched = open_context()
    watched.page.goto(f"/s/{made['slug']}")
    expect(watched.page.locator(".van .part.built")).to_have_count(126)
    expect(watched.page.locator(".van .part.open")).to_have_count(0)
    expect(watched.page.locator("figcaption")).to_contain_text("126 of 126 parts built")
    expect(watched.page.locator(".registry-done")).to_contain_text("Every part is built")
    watched.check("registry-public-finished")
    watched.page.set_viewport_size(PHONE)
    watched.check("registry-public-phone-finished")


# Where the value's text wraps: the text and the index of each character that starts a line.
LINE_STARTS = """(span) => {
  const range = document.createRange(), starts = [];
  const walker = document.createTreeWalker(span, NodeFilter.SHOW_TEXT);
  let index = 0, top = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i += 1, index += 1) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (top !== null && box.top > top + 2) starts.push(index);
      top = box.top;
    }
  }
  const box = span.getBoundingClientRect();
  return {text: span.textContent, starts, right: box.right,
          select: getComputedStyle(span).userSelect};
}"""


@pytest.mark.parametrize("java_script", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "alias", "one_line"), [
    (390, "mia.sam.payid@example.com", True),
    (320, "mia.sam.payid@example.com", True),
    (320, "mia.and.sam.kowalczyk.wedding.fund@example-mail.com.au", False),
], ids=["phone", "small-phone", "long-payid-small-phone"])
def test_payid_after_a_claim_stays_on_one_line(
        api: httpx.Client, open_context: Callable[..., Watched], scheme: str,
        java_script: bool, width: int, alias: str, one_line: bool) -> None:
    """The receipt after a claim (the script's thank-you panel, or the page a plain form
    post comes back to): the PayID whole on one line on a phone, its Copy button under it
    when both do not fit; only a PayID longer than the whole line is split; never past the
    screen's edge; a tap selects it whole, and its Copy button copies it whole."""
    made = api.post("/api/registry", json={"coupleNames": "Mia & Sam", "payment": {
        **PAYMENT, "aliasId": alias}}).raise_for_status().json()
    watched = open_context(viewport={"width": width, "height": 844}, color_scheme=scheme,
                           java_script=java_script)
    page = watched.page
    page.goto(f"/s/{made['slug']}")
    page.select_option("#partId", label="Co-pilot pup — $80")
    page.fill("#claim-name", "Aunty Jo")
    page.get_by_role("button", name="Build it").click()
    receipt = page.locator("#registry-thanks" if java_script else ".registry-receipt")
    expect(receipt).to_contain_text("You're building the Co-pilot pup — $80.")
    value = receipt.locator(".registry-pay dd > span", has_text=alias)  # the PayID itself
    shown = value.evaluate(LINE_STARTS)
    assert shown["text"] == alias
    assert (shown["starts"] == []) == one_line, shown
    assert shown["right"] <= width
    assert shown["select"] == "all"
    no_sideways = page.evaluate("document.documentElement.scrollWidth")
    assert no_sideways <= width
    size = "usual" if one_line else "long"
    watched.check(f"registry-payid-{size}-{width}-{scheme}-{'js' if java_script else 'nojs'}")
    if java_script:
        receipt.locator(".registry-pay dd", has_text=alias).get_by_role(
            "button", name="Copy").click()
        assert page.evaluate("navigator.clipboard.readText()") == alias
