"""Sharing and the look of pages on a phone: the share link's QR code (decoded back to the
link), the printable share sheet, the native share button and its Copy fallback, dark mode,
and radio buttons beside their labels. Pages are checked at 390x844, light and dark, with
axe-core (no violations of any impact) and for horizontal overflow; screenshots go to
artifacts/screenshots/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Literal

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from browsing import Watched
from playwright.sync_api import ViewportSize
from playwright.sync_api import expect
from qrdecode import png_qr_text
from qrdecode import qr_text

from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools

pytestmark = [pytest.mark.browser, pytest.mark.server]

EXAMPLES = {name: tool.example for name, tool in load_tools(Settings()).tools.items()}
PHONE: ViewportSize = {"width": 390, "height": 844}
AXE = Axe()


def create(api: httpx.Client, tool: str) -> tuple[str, str]:
    made = api.post(f"/api/{tool}", json=EXAMPLES[tool]).raise_for_status().json()
    return made["slug"], made["editToken"]


@pytest.fixture
def phone(open_context: Callable[..., Watched]) -> Callable[..., Watched]:
    """`phone(scheme="dark", script=None)`: a fresh 390x844 profile in that colour scheme."""
    def start(scheme: Literal["light", "dark"] = "light", script: str | None = None) -> Watched:
        return open_context(viewport=PHONE, color_scheme=scheme, script=script)
    return start


def looks_right(watched: Watched, name: str) -> None:
    """Screenshot, no console problems, no horizontal overflow, and nothing axe objects to."""
    watched.check(name)
    page = watched.page
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
    results = AXE.run(page)
    assert results.violations_count == 0, f"{name}: {results.generate_report()}"


def test_axe_check_finds_what_it_should(phone: Callable[..., Watched]) -> None:
    """The accessibility check is live: a low-contrast paragraph on a dark page is caught."""
    watched = phone("dark")
    watched.page.goto("/")
    watched.page.evaluate("""() => { const p = document.createElement('p');
        p.textContent = 'hard to read'; p.style.color = '#333';
        document.querySelector('main').append(p); }""")
    results = AXE.run(watched.page)
    assert "color-contrast" in results.generate_report()


# --- the QR code and the share sheet over HTTP ------------------------------------------------

def test_qr_code_decodes_to_the_share_link(server: Any, api: httpx.Client) -> None:
    slug, edit = create(api, "sweeps")
    response = api.get(f"/s/{slug}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert qr_text(response.text) == server.url(f"/s/{slug}")
    assert edit not in response.text


def test_share_sheet_shows_the_link_and_never_the_organiser_link(server: Any,
                                                                 api: httpx.Client) -> None:
    slug, edit = create(api, "plate")
    sheet = api.get(f"/s/{slug}/sheet")
    assert sheet.status_code == 200
    assert server.url(f"/s/{slug}").split("://", 1)[1] in sheet.text
    assert f'src="/s/{slug}/qr.svg"' in sheet.text
    assert EXAMPLES["plate"]["title"] in sheet.text
    assert edit not in sheet.text
    assert sheet.headers["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize("path", ["/s/{bad}/qr.svg", "/s/{bad}/sheet", "/e/{edit}/qr.svg",
                                  "/e/{edit}/sheet", "/s/short/qr.svg"])
def test_bad_links_get_the_same_404_as_every_bad_link(api: httpx.Client, path: str) -> None:
    slug, edit = create(api, "sweeps")
    bad = slug[:-4] + ("zzzz" if not slug.endswith("zzzz") else "yyyy")
    expected = api.get(f"/s/{bad}")
    assert expected.status_code == 404
    response = api.get(path.format(bad=bad, edit=edit))
    assert (response.status_code, response.text) == (404, expected.text)


# --- sharing in the browser -------------------------------------------------------------------

def test_without_native_share_copy_works_and_share_stays_hidden(
        api: httpx.Client, phone: Callable[..., Watched]) -> None:
    slug, edit = create(api, "sweeps")
    watched = phone()
    page = watched.page
    page.goto(f"/e/{edit}")
    assert page.evaluate("typeof navigator.share") == "undefined"
    share_link = page.input_value("#share-link")
    assert share_link.endswith(f"/s/{slug}")
    expect(page.locator("button[data-share]")).to_be_hidden()
    # The whole link is visible: the field is as wide as the screen allows and tall enough.
    fits = page.evaluate("""() => { const f = document.querySelector('#share-link');
        return f.scrollWidth <= f.clientWidth && f.scrollHeight <= f.clientHeight + 1; }""")
    assert fits
    copy = page.locator("button[data-copy='#share-link']")
    copy.click()
    expect(copy).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share_link
    opener = page.get_by_role("link", name="Open the public page")
    assert opener.get_attribute("href") == share_link
    looks_right(watched, "share-organiser-no-native-share")


SHARE_RECORDER = """
window.shared = [];
navigator.share = (data) => { window.shared.push(data);
  return window.shareFails ? Promise.reject(new DOMException("no", "NotAllowedError"))
                           : Promise.resolve(); };
"""


def test_native_share_is_offered_and_falls_back_to_copy(api: httpx.Client,
                                                        phone: Callable[..., Watched]) -> None:
    _slug, edit = create(api, "sweeps")
    watched = phone(script=SHARE_RECORDER)
    page = watched.page
    page.goto(f"/e/{edit}")
    share_link = page.input_value("#share-link")
    button = page.get_by_role("button", name="Share…")
    expect(button).to_be_visible()
    button.click()
    shared = page.evaluate("window.shared")
    assert shared == [{"title": EXAMPLES["sweeps"]["title"], "url": share_link}]
    assert edit not in str(shared)
    # A share the browser refuses (not one the person cancels) copies the link instead.
    page.evaluate("window.shareFails = true; navigator.clipboard.writeText('')")
    button.click()
    expect(page.locator("button[data-copy='#share-link']")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share_link
    watched.check("share-organiser-native-share")


def test_share_sheet_qr_scans_from_the_screen(server: Any, api: httpx.Client,
                                              phone: Callable[..., Watched]) -> None:
    slug, edit = create(api, "plate")
    watched = phone()
    page = watched.page
    page.goto(f"/e/{edit}")
    page.get_by_role("link", name="QR code and printable sheet").click()
    page.wait_for_url(f"**/s/{slug}/sheet")
    qr = page.locator("img.sheet-qr")
    expect(qr).to_be_visible()
    assert png_qr_text(qr.screenshot()) == server.url(f"/s/{slug}")
    expect(page.get_by_role("button", name="Print this sheet")).to_be_visible()
    looks_right(watched, "share-sheet")
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print this sheet")).to_be_hidden()
    watched.check("share-sheet-print")


def test_payment_details_can_be_copied(api: httpx.Client,
                                       phone: Callable[..., Watched]) -> None:
    """Registry's PayID on the couple's page: a Copy button beside it copies it exactly."""
    _slug, edit = create(api, "registry")
    watched = phone()
    page = watched.page
    page.goto(f"/e/{edit}")
    alias = EXAMPLES["registry"]["payment"]["aliasId"]
    row = page.locator(".registry-pay dd", has_text=alias)
    row.get_by_role("button", name="Copy").click()
    expect(row.get_by_role("button")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == alias
    watched.check("share-registry-copy-payid")


# --- phone layout, light and dark -------------------------------------------------------------

@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("tool", ["sweeps", "plate", "poll"])
def test_home_create_and_share_sheet_pass_axe_on_a_phone(
        api: httpx.Client, phone: Callable[..., Watched], tool: str,
        scheme: Literal["light", "dark"]) -> None:
    slug, _edit = create(api, tool)
    watched = phone(scheme)
    page = watched.page
    page.goto("/")
    looks_right(watched, f"phone-home-{scheme}")
    page.goto(f"/new/{tool}")
    looks_right(watched, f"phone-{tool}-create-{scheme}")
    page.goto(f"/s/{slug}/sheet")
    looks_right(watched, f"phone-{tool}-sheet-{scheme}")
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert (background == "rgb(20, 23, 29)") == (scheme == "dark"), background


# Every tool's pages in every state, on two phones, light and dark: test_all_states.py.


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_private_link_is_whole_on_a_phone(api: httpx.Client, phone: Callable[..., Watched],
                                            scheme: Literal["light", "dark"]) -> None:
    slug, _edit = create(api, "card")
    signed = api.post("/api/card/sign", json={"slug": slug, "name": "Ann",
                                              "message": "Lovely working with you."})
    token = signed.raise_for_status().json()["token"]
    watched = phone(scheme)
    page = watched.page
    page.goto(f"/p/{token}")
    assert page.input_value("#private-link").endswith(f"/p/{token}")
    fits = page.evaluate("""() => { const f = document.querySelector('#private-link');
        return f.scrollWidth <= f.clientWidth && f.scrollHeight <= f.clientHeight + 1; }""")
    assert fits
    looks_right(watched, f"phone-card-private-{scheme}")


def test_radio_buttons_sit_beside_their_labels(phone: Callable[..., Watched]) -> None:
    watched = phone()
    page = watched.page
    page.goto("/new/sweeps")
    for radio in page.locator("input[type=radio]").all():
        box = radio.bounding_box()
        label = radio.locator("xpath=..").bounding_box()
        assert box and label
        assert box["width"] < 40, box
        assert box["height"] <= label["height"] <= 2 * box["height"] + 16, (box, label)
    watched.check("phone-sweeps-create-radios")
