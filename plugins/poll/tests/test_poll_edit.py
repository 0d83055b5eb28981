"""The organiser's edit of a Group Vote: the question keeps every vote, a closing time can
be added, moved or cleared while the poll is open, and the options change without a vote
ever going silently; a secret ballot's edit tells the organiser nothing about hidden votes."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from lxml import html as lxml_html

from groupkit_testing import edit

START = dt.datetime(2026, 11, 23, 9, 0, tzinfo=dt.UTC)
TOO_MANY = "Thirty options is the limit — trim the list a bit."
TOO_FEW = "Give people at least two options to choose between."
CLOSED_DEADLINE = "This poll has closed — its closing time can't change now."
CLOSED_OPTIONS = "This poll has closed — its options can't change now."
REMOVE_VOTED = ("People voted for {options}. Remove anyway? Those votes go; every ballot keeps "
                "its other picks.")
REMOVE_SECRET = ("It's a secret ballot, so you can't see every vote yet: removing {options} "
                 "drops any votes it has. Remove anyway?")


@pytest.fixture
def clock() -> Any:
    """The app's clock: set `clock.now` to move it."""
    return type("Clock", (), {"now": START, "__call__": lambda self: self.now})()


@pytest.fixture
def app(make_app: Callable[..., Any], clock: Any) -> Any:
    return make_app(tools=["poll"], clock=clock)


async def organiser(api: Any, made: dict[str, str]) -> dict[str, Any]:
    reply = await api.organiser(made["editToken"], "export")
    return dict((await reply.get_json())["data"])


def options(view: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(entry["text"], entry["count"]) for entry in view["tally"]]


async def test_a_new_question_keeps_every_vote(api: Any, client: Any) -> None:
    made = await api.make()
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"]], voterName="Ann")
    assert await edit(client, "poll", made["editToken"], {"question": " Lunch on Friday? "}) \
        == (200, {"ok": True, "changed": ["question"]})
    view = await organiser(api, made)
    assert view["question"] == "Lunch on Friday?"
    assert options(view) == [("Thai", 0), ("Pub", 1), ("Picnic", 0)]
    assert view["ballotList"][0]["voterName"] == "Ann"
    page = await api.page(f"/s/{made['slug']}")
    assert "Lunch on Friday?" in page


@pytest.mark.parametrize(("body", "field", "message"), [
    ({"question": "  "}, "question", "Add a question — what's the group deciding?"),
    ({"options": ["Thai", "thai", " "]}, "options", TOO_FEW),
    ({"options": [f"Option {n}" for n in range(31)]}, "options", TOO_MANY),
    ({"closesAt": "Friday"}, "closesAt", "Give the closing time as a date and time with its "
                                         "time zone, like 2026-12-24T17:00+11:00."),
    ({"closesAt": "2026-11-23T08:00Z"}, "closesAt",
     "That closing time has already passed — pick a time still to come."),
    ({"closesAt": "2028-01-01T08:00Z"}, "closesAt", "Pick a closing time within a year from now."),
])
async def test_the_create_rules_and_messages(api: Any, client: Any, body: dict[str, Any],
                                             field: str, message: str) -> None:
    made = await api.make()
    before = await organiser(api, made)
    assert await edit(client, "poll", made["editToken"], body) == (
        400, {"error": message, "field": field})
    assert await organiser(api, made) == before


async def test_a_closing_time_is_added_moved_and_cleared(api: Any, client: Any,
                                                        clock: Any) -> None:
    made = await api.make()
    assert (await edit(client, "poll", made["editToken"],
                       {"closesAt": "2026-11-24T17:30+11:00"}))[0] == 200
    assert (await api.read(made["slug"]))["closesAt"] == "2026-11-24T06:30:00Z"
    html = await api.page(f"/e/{made['editToken']}")
    # Shown in UTC, the zone said beside it (a page's script shows the browser's own).
    assert re.search(r'name="closesAt:local" type="datetime-local" step="1" '
                     r'value="2026-11-24T06:30"', html)
    assert '<option selected>UTC</option>' in html
    assert (await edit(client, "poll", made["editToken"],
                       {"closesAt": "2026-11-25T06:30:00Z"}))[0] == 200
    assert (await api.read(made["slug"]))["closesAt"] == "2026-11-25T06:30:00Z"
    # A fraction of a second rounds up, never early; sent again it is no change.
    for _ in range(2):
        assert (await edit(client, "poll", made["editToken"],
                           {"closesAt": "2026-11-25T06:30:00.25Z"}))[0] == 200
        assert (await api.read(made["slug"]))["closesAt"] == "2026-11-25T06:30:01Z"
    assert (await edit(client, "poll", made["editToken"], {"closesAt": None}))[0] == 200
    assert "closesAt" not in await api.read(made["slug"])


async def test_a_closed_polls_closing_time_stays(api: Any, client: Any, clock: Any) -> None:
    made = await api.make(closesAt="2026-11-23T10:00:00Z")
    clock.now = START + dt.timedelta(hours=2)
    assert await edit(client, "poll", made["editToken"], {"closesAt": None}) == (
        409, {"error": CLOSED_DEADLINE, "field": "closesAt"})
    assert (await api.read(made["slug"]))["closed"] is True
    html = await api.page(f"/e/{made['editToken']}")
    assert 'name="closesAt:' not in html  # the form leaves it out, the question still edits
    assert (await edit(client, "poll", made["editToken"], {"question": "Lunch?"}))[0] == 200
    closed = await api.make()
    await api.organiser(closed["editToken"], "close")
    assert await edit(client, "poll", closed["editToken"], {
        "closesAt": "2026-11-24T10:00:00Z"}) == (
        409, {"error": CLOSED_DEADLINE, "field": "closesAt"})


async def closed_poll(api: Any, clock: Any, how: str) -> dict[str, str]:
    """A poll with a vote for Pub, closed by the organiser or by its closing time."""
    made = await api.make(closesAt="2026-11-23T10:00:00Z")
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"]], voterName="Ann")
    if how == "organiser":
        await api.organiser(made["editToken"], "close")
    else:
        clock.now = START + dt.timedelta(hours=2)
    return made


#: Changes to a closed poll's options, from its option ids by text.
CHANGES: dict[str, Callable[[dict[str, str]], list[Any]]] = {
    "renamed": lambda ids: [{"id": ids["Thai"], "text": "Thai"},
                            {"id": ids["Pub"], "text": "Pub bistro"},
                            {"id": ids["Picnic"], "text": "Picnic"}],
    "recased": lambda ids: ["Thai", "pub", "Picnic"],
    "reordered": lambda ids: ["Pub", "Thai", "Picnic"],
    "removed": lambda ids: [{"id": ids["Thai"], "text": "Thai"},
                            {"id": ids["Picnic"], "text": "Picnic"}],
    "added": lambda ids: ["Thai", "Pub", "Picnic", "Sushi"],
    "replaced": lambda ids: ["Thai", "Sushi", "Picnic"],
}


@pytest.mark.parametrize("how", ["organiser", "clock"])
@pytest.mark.parametrize("change", sorted(CHANGES))
async def test_a_closed_polls_options_stay(api: Any, client: Any, clock: Any, how: str,
                                           change: str) -> None:
    made = await closed_poll(api, clock, how)
    ids = await api.ids(made["slug"])
    before = await organiser(api, made)
    body = {"question": "Lunch?", "options": CHANGES[change](ids), "confirm": True}
    assert await edit(client, "poll", made["editToken"], body) == (
        409, {"error": CLOSED_OPTIONS, "field": "options"})
    assert await organiser(api, made) == before  # the question did not change either


@pytest.mark.parametrize("how", ["organiser", "clock"])
async def test_a_closed_poll_takes_its_options_as_they_are(api: Any, client: Any,
                                                          clock: Any, how: str) -> None:
    """The question stays editable, and options and closing time sent unchanged (as a
    form that posts every field would) are no change."""
    made = await closed_poll(api, clock, how)
    ids = await api.ids(made["slug"])
    before = await organiser(api, made)
    same = [{"id": option_id, "text": text} for text, option_id in ids.items()]
    for options in (same, list(ids)):
        assert await edit(client, "poll", made["editToken"], {
            "question": "Lunch on Friday?", "options": options,
            "closesAt": "2026-11-23T21:00:00+11:00"}) == (
            200, {"ok": True, "changed": ["closesAt", "options", "question"]})
    after = await organiser(api, made)
    assert after["question"] == "Lunch on Friday?"
    assert {key: value for key, value in after.items() if key != "question"} == \
        {key: value for key, value in before.items() if key != "question"}


async def test_a_closed_polls_organiser_page_offers_no_option_changes(
        api: Any, client: Any) -> None:
    made = await api.make()
    await api.organiser(made["editToken"], "close")
    html = await api.page(f"/e/{made['editToken']}")
    form = html[html.index('class="edit-details"'):]
    form = form[:form.index("</section>")]
    assert 'name="options.' not in form and "data-add-row" not in form
    assert "data-remove-row" not in form
    assert "Voting has closed, so the options and the closing time stay as they are." in form
    assert "/removeOption" not in html and "/addOption" not in html
    assert "Voting has closed, so the options stay as they are." in html
    # Without the script the form posts what it shows: the question, which still saves.
    fields = lxml_html.fromstring(html).xpath(
        f'//form[@action="/api/poll/{made["editToken"]}/edit"]')[0].form_values()
    assert [name for name, _ in fields if not name.startswith("groupkit-")] == ["question"]
    posted = await client.post(
        f"/api/poll/{made['editToken']}/edit", data=urlencode([("question", "Lunch?")]),
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Sec-Fetch-Site": "same-origin"})
    assert posted.status_code == 303
    assert (await api.read(made["slug"]))["question"] == "Lunch?"


async def test_options_renamed_added_and_reordered_keep_their_votes(api: Any,
                                                                   client: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    ballot = await api.voted(made["slug"], [ids["Thai"], ids["Pub"]], voterName="Ann")
    sent = [{"id": ids["Pub"], "text": "Pub bistro"}, "Picnic", {"text": "Sushi"},
            {"id": ids["Thai"], "text": "Thai on King St"}]
    assert await edit(client, "poll", made["editToken"], {"options": sent}) == (
        200, {"ok": True, "changed": ["options"]})
    view = await organiser(api, made)
    assert options(view) == [("Pub bistro", 1), ("Picnic", 0), ("Sushi", 0),
                             ("Thai on King St", 1)]
    assert [entry["id"] for entry in view["tally"][:2]] == [ids["Pub"], ids["Picnic"]]
    assert view["ballotList"][0]["choiceTexts"] == ["Thai on King St", "Pub bistro"]
    mine = await (await api.client.get(f"/p/{ballot['token']}")).get_data(as_text=True)
    assert "Thai on King St" in mine and "Sushi" in mine


async def test_removing_a_voted_option_asks_first(api: Any, client: Any) -> None:
    made = await api.make(mode="multi")
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Thai"], ids["Pub"]], voterName="Ann")
    before = await organiser(api, made)
    sent = ["Picnic", "Sushi"]
    assert await edit(client, "poll", made["editToken"], {"options": sent}) == (409, {
        "error": REMOVE_VOTED.format(options='"Thai" and "Pub"'), "field": "options",
        "confirm": True})
    assert await organiser(api, made) == before
    # An option nobody picked goes without asking.
    assert (await edit(client, "poll", made["editToken"],
                       {"options": ["Thai", "Pub"]}))[0] == 200
    assert (await edit(client, "poll", made["editToken"],
                       {"options": ["Thai", "Sushi"], "confirm": True}))[0] == 200
    view = await organiser(api, made)
    assert options(view) == [("Thai", 1), ("Sushi", 0)]
    assert view["ballots"] == 1 and view["ballotList"][0]["choiceTexts"] == ["Thai"]


async def test_a_ranked_ballot_counts_its_next_choice(api: Any, client: Any) -> None:
    made = await api.make(ranked=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"], ids["Picnic"]])
    # Thai holds no first choice, but Picnic is ranked: removing it asks.
    assert (await edit(client, "poll", made["editToken"], {"options": ["Thai", "Pub"]}))[0] \
        == 409
    assert (await edit(client, "poll", made["editToken"],
                       {"options": ["Thai", "Picnic"], "confirm": True}))[0] == 200
    assert options(await organiser(api, made)) == [("Thai", 0), ("Picnic", 1)]


async def test_a_poll_grown_by_suggestions_keeps_its_size(api: Any, client: Any) -> None:
    made = await api.make(allowSuggestions=True, options=[f"O{n}" for n in range(30)])
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["O0"]], suggestion="Extra")
    sent = [f"O{n}" for n in range(30)] + ["Extra"]
    assert (await edit(client, "poll", made["editToken"], {"options": sent}))[0] == 200
    assert await edit(client, "poll", made["editToken"], {"options": [*sent, "More"]}) == (
        400, {"error": TOO_MANY, "field": "options"})


async def test_a_secret_ballot_asks_whatever_the_hidden_counts(api: Any, client: Any) -> None:
    replies = []
    for pick in ("Thai", "Pub"):  # one hidden vote, for the option removed or for another
        made = await api.make(secret=True)
        ids = await api.ids(made["slug"])
        await api.voted(made["slug"], [ids[pick]])
        refused = await edit(client, "poll", made["editToken"], {
            "options": [{"id": ids["Pub"], "text": "Pub"}, {"id": ids["Picnic"],
                                                            "text": "Picnic"}]})
        replies.append(refused)
        assert (await edit(client, "poll", made["editToken"], {
            "options": ["Pub", "Picnic"], "confirm": True}))[0] == 200
        assert [entry["text"] for entry in (await api.read(made["slug"]))["tally"]] == \
            ["Pub", "Picnic"]
    assert replies[0] == replies[1]
    assert replies[0] == (409, {"error": REMOVE_SECRET.format(options='"Thai"'),
                                   "field": "options", "confirm": True})
    # Before anyone votes there is nothing to lose, and nothing to ask.
    made = await api.make(secret=True)
    assert (await edit(client, "poll", made["editToken"], {"options": ["Pub", "Picnic"]}))[0] \
        == 200


async def test_a_secret_ballots_published_tally_follows_the_edit(api: Any,
                                                                client: Any) -> None:
    made = await api.make(secret=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [ids["Pub"]])
    sent = [{"id": ids["Pub"], "text": "The pub"}, {"id": ids["Thai"], "text": "Thai"}, "Zoo",
            "Picnic"]
    assert (await edit(client, "poll", made["editToken"], {"options": sent}))[0] == 200
    view = await api.read(made["slug"])
    assert [entry["text"] for entry in view["tally"]] == ["The pub", "Thai", "Zoo", "Picnic"]
    assert all(entry["count"] == 0 for entry in view["tally"])  # the one vote stays hidden


async def test_the_form_is_prefilled_and_shows_no_votes(api: Any, client: Any) -> None:
    made = await api.make(secret=True)
    ids = await api.ids(made["slug"])

    async def form() -> str:
        html = await api.page(f"/e/{made['editToken']}")
        assert f'data-api="/api/poll/{made["editToken"]}/edit"' in html
        found = html[html.index('class="edit-details"'):]
        # Every vote moves the version the form says it shows: not a vote it shows.
        return re.sub(r'(data-edit-version=|name="groupkit-version" value=)"\d+"', "",
                      found[:found.index("</section>")])

    before = await form()
    assert (f'<input type="hidden" name="options.1.id" data-key="id" value="{ids["Pub"]}">'
            in before)
    assert 'value="Where for lunch?"' in before
    assert 'data-key="text" maxlength="80" value="Pub"' in before
    for _ in range(6):  # past a secret ballot's batch: the organiser's tally moves
        await api.voted(made["slug"], [ids["Pub"]])
    assert await form() == before
    page = await api.page("/new/poll")
    assert 'id="edit-' not in page and 'data-key="id"' not in page
    assert re.search(r'name="closesAt:local" type="datetime-local" step="1" value=""', page)


async def test_an_edit_reaches_open_pages(api: Any, client: Any) -> None:
    made = await api.make()
    ids = await api.ids(made["slug"])
    ballot = await api.voted(made["slug"], [ids["Pub"]])
    pages = [f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{ballot['token']}"]

    def version(html: str) -> int:
        return int(re.search(r'data-live-version="(\d+)"', html).group(1))  # type: ignore[union-attr]

    before = [version(await api.page(path)) for path in pages]
    await edit(client, "poll", made["editToken"], {"question": "Friday lunch?", "options": [
        {"id": ids["Pub"], "text": "Pub bistro"}, "Thai", "Picnic"]})
    for path, was in zip(pages, before, strict=True):
        html = await api.page(path)
        assert version(html) > was and "Friday lunch?" in html and "Pub bistro" in html


async def test_a_waiting_suggestion_stays_out_of_the_form_and_in_the_poll(
        api: Any, client: Any) -> None:
    """On a secret ballot a suggestion joins the tally only with the next batch: the edit
    form does not show it early, and an edit that does not know it leaves it be."""
    made = await api.make(secret=True, allowSuggestions=True)
    ids = await api.ids(made["slug"])
    await api.voted(made["slug"], [], suggestion="Dumplings")
    html = await api.page(f"/e/{made['editToken']}")
    assert "Dumplings" not in html
    sent = [{"id": ids["Thai"], "text": "Thai"}, {"id": ids["Pub"], "text": "Pub"}, "Sushi"]
    assert await edit(client, "poll", made["editToken"], {"options": sent, "confirm": True}) \
        == (200, {"ok": True, "changed": ["options"]})
    assert [e["text"] for e in (await api.read(made["slug"]))["tally"]] == \
        ["Thai", "Pub", "Sushi"]
    await api.organiser(made["editToken"], "close")
    closed = await api.read(made["slug"])
    assert [(e["text"], e["count"]) for e in closed["tally"]] == [
        ("Thai", 0), ("Pub", 0), ("Sushi", 0), ("Dumplings", 1)]
