"""Every page a group can change while it is open updates in place: the organiser's page of a
tool whose public or participant operations write has a live region (`data-live-region`), so
the organiser sees a claim, a vote or a message arrive without reloading
(docs/how-to/live-updates.md). What the organiser's own operations change reaches every open
page too (tests/test_live_organiser.py, the kit's live-regions suite over every tool); here,
the suite's checks on fixed pages, each shown to find what it is for, and the pages users
reported going stale: a closed poll still counting down, a bracket's title and a Weekly
Pulse question that changed only after a reload."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import edit
from groupkit_testing._live_regions import ORGANISER
from groupkit_testing._live_regions import PARTICIPANT
from groupkit_testing._live_regions import PUBLIC
from groupkit_testing._live_regions import live_problems
from groupkit_testing._live_regions import outside_regions
from groupkit_testing._live_regions import regions_of
from groupkit_testing._live_regions import scripts_of
from groupkit_testing._privacy import installed_tools

#: Tools whose group can change what their organiser page shows.
CHANGED_BY_THE_GROUP = sorted(
    name for name, tool in installed_tools().items()
    if any(op.writes and op.kind in ("public", "participant") and op.changes
           for op in tool.operations.operations))


def test_the_rule_covers_the_boards() -> None:
    assert {"plate", "hens", "meal", "roster", "card", "poll"} <= set(CHANGED_BY_THE_GROUP)


@pytest.mark.parametrize("name", CHANGED_BY_THE_GROUP)
async def test_the_organiser_page_updates_live(name: str,
                                               make_app: Callable[..., Any]) -> None:
    tool = installed_tools()[name]
    client = make_app(tools=[name]).test_client()
    made = await (await client.post(f"/api/{name}", json=dict(tool.example))).get_json()
    page = await client.get(f"/e/{made['editToken']}")
    assert page.status_code == 200
    assert "data-live-region" in (await page.get_data()).decode(), (
        f"{name}'s organiser page has no live region: it goes stale as people take part")


# --- the checks, on fixed pages ------------------------------------------------------------------

PAGE = """<!doctype html><html lang="en"><head><title>{title}</title>
<meta property="og:title" content="{title}"><script src="/static/x.js" defer></script></head>
<body data-live="/api/x/s/events" data-live-version="{version}">
{carrier}<main>
<h1>{heading}</h1>
<div id="x-board" data-live-region>
<p id="x-count">{count} claimed</p>
<ul><li id="x-1">{item}</li>
<li id="x-2">Bo</li></ul>
</div>
{extra}
</main></body></html>"""
CARRIER = '<span id="groupkit-title" data-live-region hidden>{title}</span>\n'


def page(*, title: str = "Lunch", heading: str = "Lunch", count: int = 1, item: str = "Ann",
         extra: str = "", carrier: bool = True, version: int = 1) -> str:
    return PAGE.format(title=title, heading=heading, count=count, item=item, extra=extra,
                       version=version, carrier=CARRIER.format(title=title) if carrier else "")


def test_changes_inside_the_regions_are_live() -> None:
    """Counts, items, the version and the title carried in its region: nothing stale; and
    the stream's parts (one item and the count), put in place, give the page after."""
    before, after = page(), page(title="Lunch!", count=2, item="Cy", version=2)
    assert live_problems(PUBLIC, before, after) == []
    assert live_problems(ORGANISER, before, after) == []
    assert "Cy" not in outside_regions(after) and "x-board" in outside_regions(after)


def test_a_heading_outside_the_regions_is_stale() -> None:
    problems = live_problems(PUBLIC, page(), page(heading="Lunch on Friday"))
    assert len(problems) == 1
    assert problems[0].startswith("public page changed outside its live regions")
    assert "-<h1>Lunch\n" in problems[0] and "+<h1>Lunch on Friday\n" in problems[0]


def test_the_title_changes_only_where_a_region_carries_it() -> None:
    assert live_problems(PUBLIC, page(carrier=False), page(carrier=False, title="Tea")) == [
        "public page: <title> went from 'Lunch' to 'Tea' and no live region #groupkit-title "
        "carries it to the open tab"]
    wrong = page().replace("hidden>Lunch</span>", "hidden>Brunch</span>")
    assert live_problems(PUBLIC, page(), wrong) == [
        "public page: #groupkit-title says 'Brunch', <title> 'Lunch'"]


def test_a_region_that_was_not_there_has_no_place() -> None:
    problems = live_problems(PUBLIC, page(), page(extra='<p id="x-new" data-live-region>Hi</p>'))
    assert any("changed outside its live regions" in problem for problem in problems)
    assert 'the stream sent a part with no place on the open public page: <p id="x-new"' in (
        "\n".join(problems))


def test_ids_repeat() -> None:
    twice = page(extra='<p id="x-1">again</p>')
    problems = live_problems(ORGANISER, twice, twice)
    assert [problem.split(":")[1] for problem in problems] == [
        " an id repeats or an element with an id is left unclosed (before)",
        " an id repeats or an element with an id is left unclosed (after)"]


def test_time_based_state_belongs_in_a_region_without_fields() -> None:
    outside = page(extra='<p>Closes <time datetime="2026-03-14T09:00Z">9am</time></p>')
    problems = live_problems(PARTICIPANT, outside, outside)
    assert problems and all("<time datetime> (at " in problem and
                            "is outside every live region" in problem for problem in problems)
    countdown = ('<div id="x-vote" data-live-region><p>Closes <span data-x-countdown></span>'
                 '</p><form><input name="name"></form></div>')
    problems = live_problems(PUBLIC, page(extra=countdown), page(extra=countdown))
    assert problems and all("shares live region #x-vote with a form field" in problem
                            for problem in problems)
    apart = ('<div id="x-when" data-live-region><p>Closes <span data-x-countdown></span></p>'
             '</div><div id="x-vote" data-live-region><form><input type="hidden" name="a">'
             '<input name="name"></form></div>')
    assert live_problems(PUBLIC, page(extra=apart), page(extra=apart)) == []


def test_a_script_that_reads_time_state_listens_for_live_updates() -> None:
    html = page(extra='<p id="x-when" data-live-region><span data-x-closes="2026-03-14">'
                      '</span></p>')
    deaf = {"/static/x.js": 'var at = box.dataset.xCloses; // see "groupkit:live" one day'}
    assert live_problems(PUBLIC, html, html, deaf) == [
        'public page: /static/x.js reads data-x-closes but does not listen for '
        '"groupkit:live": after a swap it holds the old element\'s state']
    listening = {"/static/x.js": 'var at = box.dataset.xCloses;\n'
                                 'document.addEventListener("groupkit:live", read);'}
    assert live_problems(PUBLIC, html, html, listening) == []
    assert live_problems(PUBLIC, html, html, {"/static/x.js": "var nothing;"}) == []


# --- the pages users reported --------------------------------------------------------------------

async def read(client: Any, path: str) -> str:
    response = await client.get(path)
    assert response.status_code == 200, path
    return str(await response.get_data(as_text=True))


async def scripts(client: Any, *pages: str) -> dict[str, str]:
    return {src: await read(client, src) for html in pages for src in scripts_of(html)}


async def test_a_closed_poll_leaves_no_countdown_on_an_open_page(
        make_app: Callable[..., Any]) -> None:
    """The closing time and its countdown are a live region of their own, apart from the
    ballot a visitor may be filling in (which holds its region still), and closing the poll
    takes them off every page it touches."""
    client = make_app(tools=["poll"]).test_client()
    closes = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(hours=1)
    made = await create(client, "poll", {"question": "Lunch?", "options": ["Thai", "Pub"],
                                         "closesAt": closes.isoformat()})
    tally = await (await client.get(f"/api/poll/{made['slug']}")).get_json()
    voted = await client.post("/api/poll/vote", json={"slug": made["slug"],
                                                      "choices": [tally["tally"][0]["id"]]})
    paths = {PUBLIC: f"/s/{made['slug']}", ORGANISER: f"/e/{made['editToken']}",
             PARTICIPANT: f"/p/{(await voted.get_json())['token']}"}
    before = {name: await read(client, path) for name, path in paths.items()}
    for html in (before[PUBLIC], before[PARTICIPANT]):
        status = next(region for region in regions_of(html) if region.id == "poll-status")
        assert "data-poll-countdown" in html[status.start:status.end]
    assert (await client.post(f"/api/poll/{made['editToken']}/close")).status_code == 200
    after = {name: await read(client, path) for name, path in paths.items()}
    code = await scripts(client, *before.values())
    for name in paths:
        assert "data-poll-countdown" not in after[name] and "data-poll-closes" not in after[name]
        assert live_problems(name, before[name], after[name], code) == [], name
    assert "Voting has closed. These are the final results." in after[PUBLIC]
    assert "Voting has closed" not in outside_regions(after[PUBLIC])


@pytest.mark.parametrize(("tool", "body", "change", "shown"), [
    ("bracket", {"title": "Table tennis", "entrants": ["Ann", "Bo", "Cy", "Di"]},
     {"title": "Office table tennis"}, "<h1>Office table tennis</h1>"),
    ("pulse", {"team": "Data crew"}, {"question": "Energy this week?"},
     "<legend>Energy this week?</legend>"),
])
async def test_an_edit_reaches_the_open_public_page(make_app: Callable[..., Any], tool: str,
                                                    body: dict[str, Any],
                                                    change: dict[str, Any], shown: str) -> None:
    """A bracket's title and a Weekly Pulse question: reported as changing on an open page
    only after a reload."""
    client = make_app(tools=[tool]).test_client()
    made = await create(client, tool, body)
    before = await read(client, f"/s/{made['slug']}")
    assert (await edit(client, tool, made["editToken"], change))[0] == 200
    after = await read(client, f"/s/{made['slug']}")
    assert shown in after and shown not in outside_regions(after)
    assert live_problems(PUBLIC, before, after, await scripts(client, before)) == []

