"""Every tool with JavaScript switched off, on a 390x844 phone: its main participation form
and its main organiser action are plain form posts that land back on the page with the
result, and a wrong input shows the spec's message next to its field with what was typed
kept. One server and one browser profile for all tools (see groupkit._forms).

A sign-up board's spot opens its claim form first (`opens`: the spot's Claim button, a
<summary>), and its organiser action is Remove on the spot just claimed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from lxml import html as lxml_html
from playwright.sync_api import Browser, Page, expect

from groupkit._forms import decode


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
                                ("weightGrams:number", "3400"))),
                 Step("result", (("date", "2026-12-02"), ("weightGrams:number", "3300")))),
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
    with page.expect_navigation():
        form.locator("button[type=submit]").first.click()


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
