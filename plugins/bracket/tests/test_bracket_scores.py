"""Scores with results: optional, the winner's points first, validated at the field, stored
with the result, shown on both pages and in the export, and dropped when the result they
belong to is recorded again without one, cleared, or cleared by an earlier change."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from groupkit_testing import create

BAD_SCORE = "Write the score as two numbers, the winner's first — like 3–1."
SCORE_BACKWARDS = "The winner's score goes first — like 3–1, not 1–3."

#: Four listed entrants: first round S1 v S4, S2 v S3.
FOUR = {"seeding": "listed", "entrants": ["S1", "S2", "S3", "S4"]}


@pytest.fixture
async def four(client: Any) -> dict[str, str]:
    return await create(client, "bracket", FOUR)


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/bracket/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def send(client: Any, made: dict[str, str], round_index: int, match: int,
               winner: str | None, **extra: Any) -> Any:
    version = (await read(client, made["slug"]))["version"]
    return await client.post(f"/api/bracket/{made['editToken']}/result", json={
        "round": round_index, "match": match, "winner": winner, "version": version, **extra})


async def ok(response: Any) -> dict[str, Any]:
    payload = await response.get_json()
    assert response.status_code == 200, payload
    return dict(payload)


def scored(view: dict[str, Any], round_index: int, match: int) -> tuple[Any, list[Any]]:
    """The match's score and each side's points, top first."""
    found = view["rounds"][round_index]["matches"][match]
    return found["score"], [side["score"] for side in found["sides"]]


async def test_a_score_is_stored_with_its_result(client: Any, four: dict[str, str]) -> None:
    # Written any usual way; stored and shown the winner's first, with an en dash. The
    # winner here is the bottom name, so the sides read 1 and 3.
    reply = await ok(await send(client, four, 0, 0, "S4", score=" 3 - 1 "))
    assert reply["score"] == "3–1"
    view = await read(client, four["slug"])
    assert scored(view, 0, 0) == ("3–1", [1, 3])
    assert view["rounds"][0]["matches"][0]["winner"] == "S4"
    for written in ("21–19", "2:2", "0-0", "10 — 9"):
        await ok(await send(client, four, 0, 1, "S2", score=written))
    assert scored(await read(client, four["slug"]), 0, 1) == ("10–9", [10, 9])


async def test_without_a_score_the_answers_are_as_before(client: Any,
                                                         four: dict[str, str]) -> None:
    for score in ({}, {"score": None}, {"score": "   "}):
        reply = await ok(await send(client, four, 0, 0, "S1", **score))
        assert "score" not in reply
        assert scored(await read(client, four["slug"]), 0, 0) == (None, [None, None])


@pytest.mark.parametrize("score", ["3", "3-", "three-one", "3-1-0", "1000-1", "3/1", 31, 3.1,
                                   True, [3, 1], {"a": 3}])
async def test_a_score_that_is_not_two_numbers_is_refused_at_the_field(
        client: Any, four: dict[str, str], score: Any) -> None:
    response = await send(client, four, 0, 0, "S1", score=score)
    assert response.status_code == 400
    assert await response.get_json() == {"error": BAD_SCORE}
    view = await read(client, four["slug"])
    assert (view["version"], view["rounds"][0]["matches"][0]["winner"]) == (0, None)


async def test_the_winner_behind_is_refused(client: Any, four: dict[str, str]) -> None:
    response = await send(client, four, 0, 0, "S1", score="1-3")
    assert response.status_code == 400
    assert await response.get_json() == {"error": SCORE_BACKWARDS}
    # A page's script asks for the field, to show the message there.
    version = (await read(client, four["slug"]))["version"]
    response = await client.post(
        f"/api/bracket/{four['editToken']}/result", headers={"X-Groupkit-Errors": "all"},
        json={"round": 0, "match": 0, "winner": "S1", "score": "1-3", "version": version})
    assert (await response.get_json())["field"] == "score"
    assert scored(await read(client, four["slug"]), 0, 0) == (None, [None, None])


async def test_the_spec_checks_come_first(client: Any, four: dict[str, str]) -> None:
    # A bad winner or a match still waiting is refused with the spec's message, whatever
    # the score says.
    response = await send(client, four, 0, 0, "Nobody", score="x")
    assert (await response.get_json())["error"] == (
        "The winner has to be one of the two names in that match.")
    response = await send(client, four, 1, 0, "S1", score="x")
    assert (await response.get_json())["error"] == (
        "Both spots in that match need filling first — decide the earlier games.")


async def test_changing_and_clearing_a_result_changes_its_score(
        client: Any, four: dict[str, str]) -> None:
    await ok(await send(client, four, 0, 0, "S1", score="3-1"))
    await ok(await send(client, four, 0, 0, "S1", score="4-2"))
    assert scored(await read(client, four["slug"]), 0, 0) == ("4–2", [4, 2])
    # The other name now won: the score is the new result's.
    await ok(await send(client, four, 0, 0, "S4", score="5-0"))
    assert scored(await read(client, four["slug"]), 0, 0) == ("5–0", [0, 5])
    # Recorded again without one: the result as sent has none.
    await ok(await send(client, four, 0, 0, "S4"))
    assert scored(await read(client, four["slug"]), 0, 0) == (None, [None, None])
    await ok(await send(client, four, 0, 0, "S4", score="2-1"))
    # A null winner clears the result and its score, whatever score is sent.
    reply = await ok(await send(client, four, 0, 0, None, score="2-1"))
    assert "score" not in reply
    assert scored(await read(client, four["slug"]), 0, 0) == (None, [None, None])


async def test_a_change_clears_later_scores(client: Any, four: dict[str, str]) -> None:
    await ok(await send(client, four, 0, 0, "S1", score="2-0"))
    await ok(await send(client, four, 0, 1, "S2", score="2-1"))
    await ok(await send(client, four, 1, 0, "S2", score="3-2"))
    view = await read(client, four["slug"])
    assert (view["champion"], scored(view, 1, 0)) == ("S2", ("3–2", [2, 3]))
    reply = await ok(await send(client, four, 0, 1, "S3"))
    assert reply["cleared"] == [{"round": 1, "match": 0}]
    view = await read(client, four["slug"])
    assert scored(view, 1, 0) == (None, [None, None])
    assert scored(view, 0, 0) == ("2–0", [2, 0])


async def test_scores_in_the_export_and_on_both_pages(client: Any,
                                                      four: dict[str, str]) -> None:
    await ok(await send(client, four, 0, 0, "S4", score="3-1"))
    export = await (await client.post(f"/api/bracket/{four['editToken']}/export")).get_json()
    assert scored(export["data"], 0, 0) == ("3–1", [1, 3])
    public = await (await client.get(f"/s/{four['slug']}")).get_data(as_text=True)
    organiser = await (await client.get(f"/e/{four['editToken']}")).get_data(as_text=True)
    for text in (public, organiser):
        assert '<span class="bracket-points">3</span>' in text
        assert '<span class="bracket-points">1</span>' in text
    assert "won 3–1" in organiser
    assert 'name="score"' in organiser and 'value="3–1"' in organiser


async def test_a_score_form_posts_without_the_script(client: Any, four: dict[str, str]) -> None:
    """The organiser's score form as a browser without the script sends it: saved; a score
    the wrong way round comes back as the page with the message at that match's field."""
    await ok(await send(client, four, 0, 0, "S1"))
    page, action = f"/e/{four['editToken']}", f"/api/bracket/{four['editToken']}/result"
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Sec-Fetch-Site": "same-origin", "Referer": f"http://localhost{page}"}

    def fields(version: int, score: str) -> str:
        return urlencode([("round:json", "0"), ("match:json", "0"), ("winner:json", '"S1"'),
                          ("version:json", str(version)), ("score", score)])

    await client.post(action, data=fields(1, "2-0"), headers=headers)
    assert scored(await read(client, four["slug"]), 0, 0) == ("2–0", [2, 0])
    await client.post(action, data=fields(2, "0-2"), headers=headers)
    html = await (await client.get(page)).get_data(as_text=True)
    assert "The winner's score goes first — like 3–1, not 1–3." in html
    # At the score field of that match's score form (the winner buttons send no score).
    score_form = html.split('class="bracket-score-form"')[1].split("</form>")[0]
    assert "The winner's score goes first" in score_form
    assert 'id="score-0-0"' in score_form and 'aria-invalid="true"' in score_form
    assert scored(await read(client, four["slug"]), 0, 0) == ("2–0", [2, 0])


async def test_openapi_documents_the_score(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/bracket/{editToken}/result"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["score"]["type"] == ["string", "null"]
    assert BAD_SCORE in operation["responses"]["400"]["description"]
    assert SCORE_BACKWARDS in operation["responses"]["400"]["description"]
    assert "winner's points first" in operation["description"]
