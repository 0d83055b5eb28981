"""No form relies on the script to submit: over every page state of every installed tool
(create, public, share sheet, organiser, private, after participation, after the reveal) and
the home page, every `<form>` is a form post the kernel takes (`method="post"` with an
`action`, the same URL as its `data-api`), or a GET form that carries no credential (a
filter); every submit button, and every button the script posts (`data-post`,
`data-download`), sits in such a form posting to the same URL, unless it is written hidden
(only the script shows it: a browser's kept secret, a script-only panel). Read from the
rendered HTML, without a browser (see groupkit.web._forms)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from lxml import html as lxml_html
from participation import REVEALS
from participation import SCENARIOS

from groupkit.core._config import Settings
from groupkit.ops._plugins import load_tools
from groupkit_testing import Made
from groupkit_testing import Session
from groupkit_testing.allstates import ApiParticipation
from groupkit_testing.allstates import private_page

pytestmark = pytest.mark.server

INSTALLED = load_tools(Settings()).tools
#: Field names that hold a credential: never in a GET form (it would land in the URL).
CREDENTIALS = ("token", "edittoken", "secret", "code", "password")
SUBMITS = "button, input"


@dataclasses.dataclass(frozen=True)
class Problem:
    page: str
    what: str

    def __str__(self) -> str:
        return f"{self.page}: {self.what}"


def _describe(element: Any) -> str:
    text = " ".join(element.text_content().split())[:40]
    attributes = " ".join(f'{k}="{v}"' for k, v in element.attrib.items())[:160]
    return f"<{element.tag} {attributes}>{text}"


def _is_submit(element: Any) -> bool:
    kind = (element.get("type") or "").lower()
    if element.tag == "button":
        return kind in ("", "submit")
    return element.tag == "input" and kind in ("submit", "image")


def _form_of(element: Any, forms: dict[str, Any]) -> Any:
    if element.get("form"):
        return forms.get(element.get("form"))
    return next(element.iterancestors("form"), None)


def _never_shown(element: Any) -> bool:
    """Written `hidden` (itself or a part it is in) and shown only by the script: what the
    browser keeps (`data-secret-key`) or what needs it (`data-script-only`). Without the
    script nobody sees it, so it leaves nobody stuck."""
    return any(part.get("hidden") is not None for part in (element, *element.iterancestors()))


def _form_problem(form: Any) -> str | None:
    """Why a form would not work without the script, or None."""
    method = (form.get("method") or "get").lower()
    action = form.get("action") or ""
    if method == "post":
        if not action:
            return "a post form without an action"
        if form.get("data-api") and form.get("data-api") != action:
            return "data-api and action differ"
        return None
    if form.get("data-api") or form.get("data-endpoint"):
        return "a form the script posts is not method=post"
    for field in form.iter("input", "select", "textarea"):
        name = (field.get("name") or "").split(":")[0].split(".")[-1].lower()
        if (field.get("type") or "").lower() in ("hidden", "password"):
            return "a GET form carries a hidden or password field"
        if name in CREDENTIALS:
            return f"a GET form carries a credential field ({name})"
    return None


def audit(page: str, text: str) -> list[Problem]:
    """Everything on one page that needs the script to be sent."""
    doc = lxml_html.document_fromstring(text)
    forms = {form.get("id"): form for form in doc.iter("form") if form.get("id")}
    problems = [Problem(page, f"{why}: {_describe(form)}") for form in doc.iter("form")
                if (why := _form_problem(form)) is not None]
    for element in doc.iter(*SUBMITS.split(", ")):
        posts = element.get("data-post") or element.get("data-download")
        if not (_is_submit(element) or posts):
            continue
        form = _form_of(element, forms)
        if form is None and _never_shown(element):
            continue
        if form is None:
            problems.append(Problem(page, f"a button outside any form: {_describe(element)}"))
        elif posts and ((form.get("method") or "").lower() != "post"
                        or form.get("action") != posts):
            problems.append(Problem(page, "a scripted button's form does not post to its URL: "
                                          f"{_describe(element)}"))
        elif not _is_submit(element):
            problems.append(Problem(page, f"a scripted button that is not a submit button: "
                                          f"{_describe(element)}"))
    return problems


def test_the_audit_finds_what_needs_the_script() -> None:
    good = ('<form method="post" action="/api/x" data-api="/api/x"><button>Go</button></form>'
            '<form method="get" action="/"><input name="q"><button>Find</button></form>'
            '<form class="action-form" method="post" action="/api/x/y">'
            '<button type="submit" data-post="/api/x/y">Do</button></form>'
            '<button type="button" data-copy="#x">Copy</button>'
            '<section hidden data-script-only><button type="button" data-post="/api/x">Go'
            '</button></section>')
    assert audit("good", good) == []
    bad = {
        '<form data-api="/api/x"><button>Go</button></form>': "not method=post",
        '<form method="post"><button>Go</button></form>': "without an action",
        '<form><input type="hidden" name="slug" value="s"><button>Go</button></form>':
            "hidden",
        '<form method="get"><input name="editToken"></form>': "credential",
        '<form method="post" action="/api/a" data-api="/api/b"></form>': "differ",
        '<p><button>Go</button></p>': "outside any form",
        '<button type="button" data-post="/api/x">Go</button>': "outside any form",
        '<form method="post" action="/api/y"><button data-post="/api/x">Go</button></form>':
            "does not post to its URL",
        '<form method="post" action="/api/x"><button type="button" data-download="/api/x">'
        'Go</button></form>': "not a submit button",
    }
    for snippet, why in bad.items():
        found = audit("bad", snippet)
        assert [why in str(problem) for problem in found] == [True], (snippet, found)


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(limits={"post_per_hour": 1_000_000})


def _walk(client: httpx.Client, name: str) -> list[Problem]:
    tool = INSTALLED[name]
    made = client.post(f"/api/{name}", json=dict(tool.example))
    assert made.status_code == 201, made.text
    slug, edit = made.json()["slug"], made.json()["editToken"]
    api = ApiParticipation(client, name, slug, edit)
    problems: list[Problem] = []

    def look(path: str, state: str) -> None:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        problems.extend(audit(f"{name}-{state}", response.text))

    def run(step: Callable[[Session], None]) -> None:
        session = Session(client, Made(name, slug, edit, dict(tool.example)),
                          lambda label: label.replace(".", " "))
        step(session)
        api.tokens += [token for _, token in session.tokens]

    look(f"/new/{name}", "create")
    look(f"/s/{slug}", "public")
    look(f"/s/{slug}/sheet", "share-sheet")
    look(f"/e/{edit}", "organiser")
    if name in SCENARIOS:
        run(SCENARIOS[name])
        look(f"/s/{slug}", "public-after-participation")
        look(f"/e/{edit}", "organiser-after-participation")
        private = private_page(client, api.tokens, edit)
        if private:
            look(private, "private")
    if name in REVEALS:
        run(REVEALS[name])
        look(f"/s/{slug}", "public-after-reveal")
        look(f"/e/{edit}", "organiser-after-reveal")
    return problems


def test_every_form_of_every_tool_works_without_the_script(server: Any) -> None:
    with server.client() as client:
        problems = audit("home", client.get("/").text)
        for name in sorted(INSTALLED):
            problems += _walk(client, name)
    assert not problems, "\n".join(str(problem) for problem in problems)
