"""Every tool with JavaScript switched off, on a 390x844 phone: its main participation form
and its main organiser action are plain form posts that land back on the page with the
result, and a wrong input shows the spec's message next to its field with what was typed
kept. One server and one browser profile for all tools (see groupkit.web._forms).

A sign-up board's spot opens its claim form first (`opens`: the spot's Claim button, a
<summary>), and its organiser action is Remove on the spot just claimed. Tools with more than
one main form (Gift Idea Board's upvote and claim, Group Vote's ranked ballot) have their own
tests below, as do destructive actions that ask first and hidden values shown only to whoever
sent the form."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from lxml import html as lxml_html
from playwright.sync_api import Browser
from playwright.sync_api import Page
from playwright.sync_api import expect

from groupkit.web._forms import decode


@dataclasses.dataclass(frozen=True)
class Step:
    """Fill a form (found by its action's last part) and send it with its submit button."""

    action: str
    fill: tuple[tuple[str, str], ...] = ()  # (field name, value); a select or radio is chosen
    button: str | None = None  # the submit button's text, when the form has several
    opens: str | None = None  # a <summary> to open first


@dataclasses.dataclass(frozen=True)
class Case:
    participate: Step | None
    organise: Step
    wrong_page: str = "create"  # "create": the create form sent empty; "public": participate


CASES: dict[str, Case] = {
    "baby": Case(Step("guess", (("guesser", "Ann"), ("date", "2026-12-01"),
                                ("weightGrams:thousandths", "3.4"))),
                 Step("result", (("date", "2026-12-02"), ("weightGrams:thousandths", "3.3")))),
    "bracket": Case(None, Step("result")),
    "card": Case(Step("sign", (("message", "Congratulations!"), ("name", "Ann"))),
                 Step("remove")),
    "coffee": Case(Step("claim", (("name", "Ann"),)), Step("draw")),
    "fact": Case(Step("claim", (("name", "Ann"),)), Step("reveal", button="Reveal the answers")),
    "kringle": Case(Step("claim", (("name", "Ann"),)), Step("redraw")),
    "kudos": Case(Step("note", (("recipient", "Bo"), ("message", "Great release!"),
                                ("sender", "Ann"))), Step("remove"), wrong_page="public"),
    "poker": Case(Step("join", (("name", "Ann"),)), Step("next", (("story", "PAY-143"),)),
                  wrong_page="public"),
    "poll": Case(Step("vote", (("choices:list", "0"), ("voterName", "Ann"))), Step("close")),
    "pulse": Case(Step("respond", (("score:number", "4"),)),
                  Step("edit", (("question", "How did the sprint go?"),),
                       opens="Change details"), wrong_page="public"),
    "qotd": Case(Step("vote", (("choice", "a"), ("voterName", "Ann"))), Step("skip"),
                 wrong_page="public"),
    "recipe": Case(Step("add", (("cook", "Ann"), ("dish", "Pavlova"),
                                ("ingredients", "Eggs\nSugar"), ("method", "Whip. Bake."))),
                   Step("remove")),
    "registry": Case(Step("claim", (("partId", "0"), ("name", "Ann"))),
                     Step("paid", button="Mark paid")),
    "roles": Case(Step("claim", (("name", "Ann"),)), Step("redeal"), wrong_page="public"),
    "sweeps": Case(None, Step("redraw")),
    "teams": Case(None, Step("edit", (("title", "Quiz night"),), opens="Change details")),
    "hens": Case(Step("claim", (("name", "Ann"), ("message", "Balloons")),
                      opens="Claim (Decorations, spot 1)"),
                 Step("remove"), wrong_page="public"),
    "meal": Case(Step("claim", (("name", "Ann"), ("dish", "Lasagne")),
                      opens="Cook this day (Mon 2 Mar 2026)"),
                 Step("remove"), wrong_page="public"),
    "plate": Case(Step("claim", (("name", "Ann"), ("dish", "Pavlova")),
                       opens="Claim (Mains, spot 1)"),
                  Step("remove"), wrong_page="public"),
    "roster": Case(Step("claim", (("name", "Ann"),), opens="Claim (Setup 7-9am, spot 1)"),
                   Step("remove"), wrong_page="public"),
    "giftidea": Case(Step("suggest", (("idea", "Hiking socks"), ("suggestedBy", "Ann"))),
                     Step("removeIdea"), wrong_page="public"),
    "finddate": Case(Step("respond", (("name", "Ann"), ("answers.0.answer", "yes"))),
                     Step("choose", button="Choose this one")),
}


@pytest.fixture(scope="module")
def phone(browser: Browser, server: Any) -> Iterator[Page]:
    context = browser.new_context(base_url=server.base_url, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def example(api: httpx.Client, tool: str) -> dict[str, Any]:
    document = api.get("/openapi.json").json()
    post = document["paths"][f"/api/{tool}"]["post"]
    found: dict[str, Any] = post["requestBody"]["content"]["application/json"]["example"]
    return found


def send(page: Page, step: Step) -> None:
    """Fill and submit the form whose action ends with the step's action, then wait for
    the page the redirect lands on."""
    if step.opens:
        page.get_by_text(step.opens, exact=True).click()
    forms = page.locator(f'form[action$="/{step.action}"]')
    if step.button:
        forms = forms.filter(has=page.get_by_role("button", name=step.button, exact=True))
    form = forms.first
    for name, value in step.fill:
        field = form.locator(f'[name="{name}"]:not([type=hidden])')
        if (field.first.get_attribute("type") or "") in ("radio", "checkbox"):
            index = int(value) if name == "choices:list" else None
            chosen = field.nth(index) if index is not None else \
                form.locator(f'[name="{name}"][value="{value}"]')
            chosen.check()
        elif form.locator(f'select[name="{name}"]').count():
            options = form.locator(f'select[name="{name}"] option:not([value=""])')
            target = options.nth(int(value)).get_attribute("value") if value.isdigit() else value
            form.locator(f'select[name="{name}"]').select_option(target)
        else:
            field.first.fill(value)
    button = form.locator("button[type=submit]").first
    question = button.get_attribute("data-confirm")
    with page.expect_navigation():
        button.click()
    if question:  # a destructive action asks first, at its form, and goes ahead when sent again
        asked = page.locator("form.asking")
        expect(asked.locator("#groupkit-flash")).to_have_text(question)
        expect(asked.get_by_role("link", name="Cancel")).to_be_visible()
        with page.expect_navigation():
            asked.locator("button[type=submit]").first.click()


def expected_error(api: httpx.Client, path: str, action: str
                   ) -> tuple[str, str | None, int]:
    """What the JSON API answers to the body the browser sends for the untouched form: the
    message, the field it is about and how many fields fail (a create names them all)."""
    page = lxml_html.document_fromstring(api.get(path).text)
    form = next(f for f in page.iter("form") if (f.get("action") or "").endswith(action))
    pairs = []
    for field in form.iter("input", "textarea", "select"):
        name = field.get("name")
        kind = field.get("type") or ""
        if not name or field.get("disabled") is not None or kind in ("submit", "button"):
            continue
        if kind in ("checkbox", "radio") and field.get("checked") is None:
            continue
        if field.tag == "select":
            options = list(field.iter("option"))
            chosen = next((o for o in options if o.get("selected") is not None), options[0])
            pairs.append((name, chosen.get("value", chosen.text_content())))
        else:
            pairs.append((name, field.text or "" if field.tag == "textarea"
                           else field.get("value", "on" if kind == "checkbox" else "")))
    url = action if action.startswith("/") else f"/api/{action}"
    reply = api.post(url, json=decode(pairs), headers={"X-Groupkit-Errors": "all"})
    assert reply.status_code == 400, reply.text
    body = reply.json()
    return body["error"], body.get("field"), len(body.get("errors", []))


@pytest.mark.parametrize("tool", sorted(CASES))
def test_tool_without_javascript(tool: str, phone: Page, api: httpx.Client) -> None:
    case = CASES[tool]
    made = api.post(f"/api/{tool}", json=example(api, tool)).json()
    slug, edit = made["slug"], made["editToken"]

    # A wrong input: the spec's message at its field, what was typed kept.
    if case.wrong_page == "create":
        path, action = f"/new/{tool}", f"/api/{tool}"
        message, field, failing = expected_error(api, path, action)
        phone.goto(path)
        with phone.expect_navigation():
            phone.locator(f'form[action="{action}"] button[type=submit]').click()
    else:
        assert case.participate is not None
        path, action = f"/s/{slug}", case.participate.action
        message, field, failing = expected_error(api, path, f"/api/{tool}/{action}")
        phone.goto(path)
        send(phone, Step(action, opens=case.participate.opens))
    assert phone.url.endswith(f"{path}#groupkit-flash")
    box = phone.locator("#groupkit-flash")
    expect(box).to_have_text(message)
    if field is not None:
        control = phone.locator('[aria-describedby~="groupkit-flash"]')
        expect(control).to_have_attribute("aria-invalid", "true")
        assert (control.get_attribute("name") or "").split(":")[0].split(".")[0] == field
    if failing:  # every failing field of a create at once, each next to its field
        expect(phone.locator("[data-field-error]")).to_have_count(failing)
    assert phone.context.cookies() == []  # the flash is taken

    # The main participation form, then the main organiser action.
    if case.participate is not None:
        phone.goto(f"/s/{slug}")
        send(phone, case.participate)
        expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    phone.goto(f"/e/{edit}")
    send(phone, case.organise)
    assert phone.url.endswith(f"/e/{edit}#groupkit-flash")
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")


# --- tools and actions the table does not cover ----------------------------------------------

def fresh_phone(browser: Browser, server: Any) -> Page:
    """Another visitor without JavaScript: a browser profile of their own."""
    context = browser.new_context(base_url=server.base_url, java_script_enabled=False,
                                  viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    return context.new_page()


SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot in light and in dark, as the visitor without JavaScript sees
    the page (390x844), and no horizontal overflow in either."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        page.screenshot(path=str(SCREENSHOTS / f"nojs-{name}-{scheme}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), name
    page.emulate_media(color_scheme="light")


def private_link(page: Page) -> str:
    """The private link a flash hands over (its path only)."""
    href = page.locator('#groupkit-flash a[href^="/p/"]').get_attribute("href")
    assert href is not None
    return href


def test_a_destructive_action_asks_first_and_cancel_changes_nothing(
        phone: Page, api: httpx.Client) -> None:
    made = api.post("/api/sweeps", json=example(api, "sweeps")).json()
    edit = made["editToken"]
    phone.goto(f"/e/{edit}")
    delete = phone.get_by_role("button", name="Delete permanently")
    question = delete.get_attribute("data-confirm")
    assert question == "Delete this for everyone? This can't be undone."
    with phone.expect_navigation():
        delete.click()
    assert phone.url.endswith(f"/e/{edit}#groupkit-flash")
    expect(phone.locator("form.asking #groupkit-flash")).to_have_text(question)
    phone.locator("form.asking").scroll_into_view_if_needed()
    shoot(phone, "asks-first")
    assert api.get(f"/s/{made['slug']}").status_code == 200  # asked, nothing done
    with phone.expect_navigation():
        phone.get_by_role("link", name="Cancel").click()
    expect(phone.locator("form.asking")).to_have_count(0)
    with phone.expect_navigation():
        phone.get_by_role("button", name="Delete permanently").click()
    assert api.get(f"/s/{made['slug']}").status_code == 200
    with phone.expect_navigation():
        phone.locator("form.asking").get_by_role("button", name="Delete permanently").click()
    assert phone.url.endswith("/#groupkit-flash")
    expect(phone.locator("#groupkit-flash")).to_have_text("Deleted.")
    assert api.get(f"/s/{made['slug']}").status_code == 404


def test_gift_idea_board_upvote_claim_a_lost_race_and_the_suggesters_own_page(
        phone: Page, api: httpx.Client, browser: Browser, server: Any) -> None:
    made = api.post("/api/giftidea", json=example(api, "giftidea")).json()
    slug = made["slug"]
    for idea in ("Camp mug", "Hiking socks"):
        api.post("/api/giftidea/suggest", json={"slug": slug, "idea": idea})
    phone.goto(f"/s/{slug}")

    def idea(name: str) -> Any:
        return phone.locator("li.giftidea-idea").filter(has=phone.get_by_role(
            "heading", name=name, exact=True))

    with phone.expect_navigation():
        idea("Hiking socks").get_by_role("button", name=re.compile("^Upvote Hiking socks")).click()
    expect(phone.locator("#groupkit-flash")).to_have_text("Saved.")
    expect(phone.locator("li.giftidea-idea").first).to_contain_text("Hiking socks")  # 1 vote
    expect(idea("Hiking socks").locator("[data-votes]")).to_have_text("1")

    # A claim: the secret that undoes it is shown once, at the idea's place.
    socks = idea("Hiking socks")
    socks.locator("summary").click()
    socks.locator('[name="name"]').fill("Ann")
    with phone.expect_navigation():
        socks.get_by_role("button", name="I'll get this").click()
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    expect(phone.locator("#groupkit-flash code")).to_have_text(re.compile(r"^\w{16}$"))
    expect(idea("Hiking socks")).to_contain_text("Ann is getting this one.")

    # A lost race: Bo claims the mug while Ann's form is open; Ann is told who won, there.
    idea("Camp mug").locator("summary").click()
    mug = api.get(f"/api/giftidea/{slug}").json()["ideas"][1]
    assert mug["idea"] == "Camp mug"
    api.post("/api/giftidea/claim", json={"slug": slug, "ideaId": mug["id"], "name": "Bo"})
    form = idea("Camp mug").locator('form[action="/api/giftidea/claim"]')
    form.locator('[name="name"]').fill("Ann")
    with phone.expect_navigation():
        form.get_by_role("button", name="I'll get this").click()
    expect(idea("Camp mug").locator("#groupkit-flash")).to_have_text(
        "Someone's already getting that one. Bo got there first.")
    shoot(phone, "giftidea-lost-race")

    # Suggesting hands over a private link: the suggester's own page removes the idea.
    phone.goto(f"/s/{slug}")
    send(phone, Step("suggest", (("idea", "Trail map"),), opens="Suggest an idea"))
    own = private_link(phone)
    phone.goto(own)
    expect(phone.get_by_role("heading", name="Trail map")).to_be_visible()
    shoot(phone, "giftidea-own-idea")
    send(phone, Step(own.replace("/p/", "i/") + "/remove"))
    assert phone.url.endswith(f"/s/{slug}#groupkit-flash")  # the link has ended: the board
    expect(phone.locator("#groupkit-flash")).to_have_text("Saved.")
    expect(phone.get_by_role("heading", name="Trail map")).to_have_count(0)
    assert api.get(own).status_code == 404
    other = fresh_phone(browser, server)
    other.goto(f"/s/{slug}")
    expect(other.locator("#groupkit-flash")).to_have_count(0)
    other.context.close()


def test_a_ranked_vote_without_javascript(phone: Page, api: httpx.Client) -> None:
    made = api.post("/api/poll", json={**example(api, "poll"), "ranked": True}).json()
    phone.goto(f"/s/{made['slug']}")
    phone.get_by_label("Your 1st choice").select_option(label="Picnic in the park")
    phone.get_by_label("Your 2nd choice").select_option(label="Thai on King St")
    shoot(phone, "poll-ranked-ballot")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Vote").click()
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    phone.goto(private_link(phone))
    ids = {o["text"]: o["id"] for o in api.get(f"/api/poll/{made['slug']}").json()["tally"]}
    expect(phone.get_by_label("Your 1st choice")).to_have_value(ids["Picnic in the park"])
    expect(phone.get_by_label("Your 2nd choice")).to_have_value(ids["Thai on King St"])
    expect(phone.get_by_label("Your 3rd choice")).to_have_value("")
    # Changing it: Thai first now.
    phone.get_by_label("Your 1st choice").select_option(label="Thai on King St")
    phone.get_by_label("Your 2nd choice").select_option(value="")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Change my vote").click()
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    expect(phone.get_by_label("Your 1st choice")).to_have_value(ids["Thai on King St"])
    expect(phone.get_by_label("Your 2nd choice")).to_have_value("")


def test_roles_are_set_up_and_edited_without_javascript(phone: Page, api: httpx.Client) -> None:
    phone.goto("/new/roles")
    rows = phone.locator("[data-list='roles'] [data-row]")
    expect(rows).to_have_count(4)  # two to start, two spare: no "Add a role" without script
    expect(phone.get_by_role("button", name="Add a role")).to_be_hidden()
    for index, (name, count) in enumerate((("Wolf", "2"), ("Seer", "1"), ("Doctor", ""))):
        rows.nth(index).locator("[data-key='name']").fill(name)
        rows.nth(index).locator("[data-key='count']").fill(count)
    rows.nth(1).locator("[data-key='brief']").fill("Ask about one player.")
    phone.get_by_label("Personal links", exact=False).uncheck()  # players join by name
    with phone.expect_navigation():
        phone.get_by_role("button", name="Set up the game").click()
    edit = phone.locator('#groupkit-flash a[href^="/e/"]').get_attribute("href")
    assert edit is not None
    game = api.post(f"/api/roles{edit.removeprefix('/e')}/export").json()["data"]
    assert game["roles"] == ["Wolf", "Wolf", "Seer", "Doctor"]
    assert game["briefs"] == {"Seer": "Ask about one player."}

    # The organiser's editor: a cleared name takes a role off, a spare row adds one.
    phone.goto(edit)
    phone.get_by_text("Change details", exact=True).click()
    editor = phone.locator("section.edit-details form")
    rows = editor.locator("[data-list='roles'] [data-row]")
    expect(rows).to_have_count(5)
    rows.nth(2).locator("[data-key='name']").fill("")
    rows.nth(3).locator("[data-key='name']").fill("Hunter")
    rows.nth(1).locator("[data-key='name']").fill("Oracle")  # renamed
    shoot(phone, "roles-editor")
    with phone.expect_navigation():
        editor.get_by_role("button", name="Save changes").click()
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    game = api.post(f"/api/roles{edit.removeprefix('/e')}/export").json()["data"]
    assert game["roles"] == ["Wolf", "Wolf", "Oracle", "Hunter"]
    assert game["briefs"] == {"Oracle": "Ask about one player."}

    # Too few roles: the message in the editor's words (rows) at the roles, what was typed
    # kept.
    phone.get_by_text("Change details", exact=True).click()
    for index in range(1, 4):
        rows.nth(index).locator("[data-key='name']").fill("")
    rows.nth(0).locator("[data-key='count']").fill("1")
    with phone.expect_navigation():
        editor.get_by_role("button", name="Save changes").click()
    expect(phone.locator("#groupkit-flash")).to_have_text(
        "Add at least two roles: a name on each row, and how many players get it.")
    expect(phone.locator('[aria-describedby~="groupkit-flash"]')).to_have_attribute(
        "name", "roles.0.name")
    expect(rows.nth(1).locator("[data-key='name']")).to_have_value("")
    shoot(phone, "roles-refused")


def test_personal_links_are_made_and_listed_without_javascript(
        phone: Page, api: httpx.Client) -> None:
    """A Secret Role Dealer made on a phone without JavaScript with personal links left on
    (the create form's default): the organiser page lists everyone's links, all at once and
    one by one, within the screen's width, and each opens that player's role."""
    phone.goto("/new/roles")
    expect(phone.get_by_label("Personal links", exact=False)).to_be_checked()
    rows = phone.locator("[data-list='roles'] [data-row]")
    for index, (name, count) in enumerate((("Wolf", "1"), ("Villager", "3"))):
        rows.nth(index).locator("[data-key='name']").fill(name)
        rows.nth(index).locator("[data-key='count']").fill(count)
    phone.fill("#names", "Ann\nBo\n\nCy")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Set up the game").click()
    edit = phone.locator('#groupkit-flash a[href^="/e/"]').get_attribute("href")
    assert edit is not None
    phone.goto(edit)
    section = phone.locator("#roles-links")
    expect(section.get_by_role("heading", name="Personal links")).to_be_visible()
    expect(section.get_by_role("button", name="Copy all")).to_be_visible()
    expect(section.get_by_role("button", name="Share…")).to_have_count(0)  # script only
    everyone = [line.split(": ", 1) for line in
                section.locator("#roles-links-all").input_value().strip().splitlines()]
    assert [name for name, _ in everyone] == ["Ann", "Bo", "Cy"]
    for index, (_, link) in enumerate(everyone, start=1):
        field = section.locator(f"#roles-links-{index}")
        expect(field).to_have_value(link)
        box = field.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    shoot(phone, "roles-personal-links")
    roles = {player["name"]: player["role"] for player in api.post(
        f"/api/roles{edit.removeprefix('/e')}/export").json()["data"]["players"]}
    phone.goto("/p/" + everyone[1][1].split("/p/", 1)[1])  # Bo's link opens Bo's role
    expect(phone.locator("main")).to_contain_text(str(roles["Bo"]))


def test_a_registry_claim_shows_how_to_pay_to_the_claimer_only(
        phone: Page, api: httpx.Client, browser: Browser, server: Any) -> None:
    body = example(api, "registry")
    made = api.post("/api/registry", json=body).json()
    payment = body["payment"]
    phone.goto(f"/s/{made['slug']}")
    send(phone, Step("claim", (("partId", "0"), ("name", "Ann"))))
    assert "?" not in phone.url
    receipt = phone.locator("#groupkit-flash .registry-receipt")
    expect(receipt).to_contain_text(re.compile(r"Your reference: VAN-\w{6}"))
    for key in ("aliasId", "accountName", "method"):
        expect(receipt).to_contain_text(payment[key])
    reference = receipt.locator(".registry-reference").inner_text()
    claims = api.get(f"/api/registry/{made['editToken']}/claims").json()["claims"]
    assert [c["reference"] for c in claims] == [reference]
    shoot(phone, "registry-receipt")
    # Shown once: a reload, or anyone else's visit, shows none of it.
    for page in (phone, fresh_phone(browser, server)):
        page.goto(f"/s/{made['slug']}")
        text = page.content()
        assert reference not in text
        assert not [value for value in payment.values() if value in text]


# --- what needed the script before: a zone, dollars, a download, taking a guess back ----------

def field_error(page: Page, name: str, message: str) -> None:
    """The flash's message next to the field `name`, which is marked invalid and focused."""
    expect(page.locator("#groupkit-flash")).to_have_text(message)
    control = page.locator('[aria-describedby~="groupkit-flash"]')
    expect(control).to_have_attribute("name", name)
    expect(control).to_have_attribute("aria-invalid", "true")


def test_a_poll_closing_time_is_typed_in_a_chosen_zone_without_javascript(
        phone: Page, api: httpx.Client) -> None:
    sydney = ZoneInfo("Australia/Sydney")
    phone.goto("/new/poll")
    zone = phone.get_by_label("Time zone")
    expect(zone).to_have_value("UTC")  # said on the page: without the script, UTC
    phone.get_by_label("Question").fill("Team lunch?")
    for index, text in enumerate(("Thai", "Pub")):
        phone.get_by_label(f"Option {index + 1}", exact=True).fill(text)
    # A time already gone: the poll's message at the time, what was typed kept.
    gone = (dt.datetime.now(sydney) - dt.timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M")
    phone.get_by_label("Closes at").fill(gone)
    zone.select_option("Australia/Sydney")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Start the vote").click()
    field_error(phone, "closesAt:local",
                "That closing time has already passed — pick a time still to come.")
    expect(phone.get_by_label("Closes at")).to_have_value(gone)
    expect(phone.get_by_label("Time zone")).to_have_value("Australia/Sydney")
    expect(phone.get_by_label("Question")).to_have_value("Team lunch?")
    shoot(phone, "poll-closing-refused")
    # 17:30 in Sydney in two days: stored as that moment in UTC.
    closing = (dt.datetime.now(sydney) + dt.timedelta(days=2)).replace(
        hour=17, minute=30, second=0, microsecond=0, tzinfo=None)
    phone.get_by_label("Closes at").fill(closing.strftime("%Y-%m-%dT%H:%M"))
    with phone.expect_navigation():
        phone.get_by_role("button", name="Start the vote").click()
    edit = phone.locator('#groupkit-flash a[href^="/e/"]').get_attribute("href")
    slug = phone.locator('#groupkit-flash a[href^="/s/"]').get_attribute("href")
    assert edit is not None and slug is not None
    utc = closing.replace(tzinfo=sydney).astimezone(dt.UTC)
    view = api.get(f"/api/poll/{slug.removeprefix('/s/')}").json()
    assert view["closesAt"] == utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    # The organiser's editor shows it in UTC, its zone said beside it; sent back unchanged
    # it stays the same moment.
    phone.goto(edit)
    phone.get_by_text("Change details", exact=True).click()
    expect(phone.locator("#edit-closesAtLocal")).to_have_value(utc.strftime("%Y-%m-%dT%H:%M"))
    expect(phone.locator("#edit-closesAtZone")).to_have_value("UTC")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Save changes").click()
    expect(phone.locator("#groupkit-flash")).to_contain_text("Saved.")
    assert api.get(f"/api/poll/{slug.removeprefix('/s/')}").json()["closesAt"] == \
        view["closesAt"]


def test_a_registry_chip_in_sends_dollars_without_javascript(
        phone: Page, api: httpx.Client) -> None:
    made = api.post("/api/registry", json=example(api, "registry")).json()
    phone.goto(f"/s/{made['slug']}")
    chip = phone.locator('form[action="/api/registry/overflow"]')
    chip.get_by_label("Amount in dollars").fill("2.50")
    chip.get_by_label("Your name").fill("Ann")
    with phone.expect_navigation():
        chip.get_by_role("button", name="Chip in").click()
    field_error(phone, "amountCents:cents", "Pick an amount between $5 and $2,000.")
    expect(chip.get_by_label("Amount in dollars")).to_have_value("2.50")
    expect(chip.get_by_label("Your name")).to_have_value("Ann")
    shoot(phone, "registry-chip-in-refused")
    chip.get_by_label("Amount in dollars").fill("25.50")
    with phone.expect_navigation():
        chip.get_by_role("button", name="Chip in").click()
    receipt = phone.locator("#groupkit-flash .registry-receipt")
    expect(receipt).to_contain_text("You're chipping in to")
    expect(receipt).to_contain_text("$25.50")
    claims = api.get(f"/api/registry/{made['editToken']}/claims").json()["claims"]
    assert [(c["kind"], c["amountCents"], c["name"]) for c in claims] == [
        ("overflow", 2550, "Ann")]


def test_the_organiser_downloads_everything_without_javascript(
        phone: Page, api: httpx.Client, browser: Browser, server: Any) -> None:
    made = api.post("/api/sweeps", json=example(api, "sweeps")).json()
    edit = made["editToken"]
    phone.goto(f"/e/{edit}")
    with phone.expect_download() as downloading:
        phone.get_by_role("button", name="Download everything (JSON)").click()
    saved = downloading.value
    assert saved.suggested_filename == f"sweeps-{made['slug']}.json"
    assert "?" not in saved.url and saved.url.endswith(f"/api/sweeps/{edit}/export")
    exported = json.loads(Path(saved.path()).read_text(encoding="utf-8"))
    assert exported == api.post(f"/api/sweeps/{edit}/export").json()
    assert phone.url.endswith(f"/e/{edit}")  # still on the organiser page
    # With the script the same button saves the same export in place: one file, no form post.
    scripted = browser.new_context(base_url=server.base_url, accept_downloads=True)
    page = scripted.new_page()
    page.goto(f"/e/{edit}")
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.headers.get("content-type", ""))
            if request.method == "POST" else None)
    with page.expect_download() as downloading:
        page.get_by_role("button", name="Download everything (JSON)").click()
    assert downloading.value.suggested_filename == f"sweeps-{made['slug']}.json"
    assert json.loads(Path(downloading.value.path()).read_text(encoding="utf-8")) == exported
    assert posts == ["application/json"] and page.url.endswith(f"/e/{edit}")
    scripted.close()
    # A link that no longer works: the spec's message on the page, no file.
    api.post(f"/api/sweeps/{edit}/delete")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Download everything (JSON)").click()
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    assert "?" not in phone.url


def test_a_baby_guess_is_taken_back_without_javascript(
        phone: Page, api: httpx.Client, browser: Browser, server: Any) -> None:
    made = api.post("/api/baby", json=example(api, "baby")).json()
    slug = made["slug"]
    phone.goto(f"/s/{slug}")
    expect(phone.locator("noscript .hint", has_text="Keep the private link you get after")
           ).to_be_visible()
    expect(phone.locator("[data-script-only]")).to_be_hidden()  # "This browser keeps a key"
    day = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=20)).isoformat()
    # A weight out of range: the message at the weight, what was typed kept.
    # The weight is asked in kilograms, as the message and the board speak of it.
    expect(phone.get_by_label("Birth weight in kg")).to_be_visible()
    send(phone, Step("guess", (("guesser", "Ann"), ("date", day),
                               ("weightGrams:thousandths", "0.07"))))
    field_error(phone, "weightGrams:thousandths", "Give a weight between 0.5 and 7 kg.")
    expect(phone.get_by_label("Your name")).to_have_value("Ann")
    send(phone, Step("guess", (("weightGrams:thousandths", "3.4"),)))
    own = private_link(phone)
    phone.goto(own)
    expect(phone.get_by_role("heading", name="Your guess is in")).to_be_visible()
    expect(phone.locator(".baby-entry")).to_contain_text("Ann")
    expect(phone.locator(".baby-entry")).to_contain_text("3.40 kg")
    shoot(phone, "baby-own-guess")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Remove my guess").click()
    asked = phone.locator("form.asking")
    expect(asked.locator("#groupkit-flash")).to_have_text("Take back your guess?")
    with phone.expect_navigation():
        asked.get_by_role("button", name="Remove my guess").click()
    assert phone.url.endswith(f"/s/{slug}#groupkit-flash")  # the link has ended: the pool
    expect(phone.locator("#groupkit-flash")).to_have_text("Saved.")
    assert api.get(f"/api/baby/{slug}").json()["guesses"] == []
    assert api.get(own).status_code == 404
    other = fresh_phone(browser, server)
    other.goto(own)
    expect(other.get_by_role("button", name="Remove my guess")).to_have_count(0)
    other.context.close()
