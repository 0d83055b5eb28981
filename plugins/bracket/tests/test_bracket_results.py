"""Recording results: every message in check order, clearing, the knock-on clearing of later
results, the champion, and the version check that turns a second simultaneous result away."""

from __future__ import annotations

from typing import Any

import pytest

from groupkit_testing import create

NO_MATCH = "That match isn't in this bracket."
BAD_WINNER = "The winner has to be one of the two names in that match."
NO_VERSION = ("That result didn't say which version of the bracket it was made on — "
              "refresh and tap again.")
BYE = "That one's a bye — it sorted itself out."
SIDE_MISSING = "Both spots in that match need filling first — decide the earlier games."
TWO_AT_ONCE = "Two results landed at once — refresh and tap again."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}

#: Eight listed entrants: first round 1v8, 4v5, 2v7, 3v6.
EIGHT = {"seeding": "listed", "entrants": ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]}


async def read(client: Any, slug: str) -> dict[str, Any]:
    response = await client.get(f"/api/bracket/{slug}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def post(client: Any, made: dict[str, str], body: Any, **options: Any) -> Any:
    return await client.post(f"/api/bracket/{made['editToken']}/result", json=body, **options)


async def record(client: Any, made: dict[str, str], round_index: int, match: int,
                 winner: str | None) -> dict[str, Any]:
    """Record a result the way a page does: with the version just read."""
    version = (await read(client, made["slug"]))["version"]
    response = await post(client, made, {"round": round_index, "match": match,
                                         "winner": winner, "version": version})
    payload = await response.get_json()
    assert response.status_code == 200, payload
    return dict(payload)


async def refused(response: Any, status: int = 400) -> str:
    payload = await response.get_json()
    assert response.status_code == status, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


def match_of(view: dict[str, Any], round_index: int, match: int) -> dict[str, Any]:
    return dict(view["rounds"][round_index]["matches"][match])


def names(view: dict[str, Any], round_index: int, match: int) -> tuple[Any, Any]:
    found = match_of(view, round_index, match)
    return found["sides"][0]["name"], found["sides"][1]["name"]


def results(view: dict[str, Any]) -> list[list[str | None]]:
    return [[match["winner"] for match in rnd["matches"]] for rnd in view["rounds"]]


@pytest.fixture
async def eight(client: Any) -> dict[str, str]:
    return await create(client, "bracket", EIGHT)


# --- recording -----------------------------------------------------------------------------

async def test_record_a_result(client: Any, eight: dict[str, str]) -> None:
    reply = await record(client, eight, 0, 1, "S5")
    assert reply == {"ok": True, "version": 1, "round": 0, "match": 1, "winner": "S5",
                     "cleared": [], "champion": None}
    view = await read(client, eight["slug"])
    assert view["version"] == 1
    played = match_of(view, 0, 1)
    assert played["winner"] == "S5"
    assert names(view, 1, 0) == (None, "S5")
    assert match_of(view, 1, 0)["ready"] is False


async def test_play_to_a_champion(client: Any, eight: dict[str, str]) -> None:
    for match, winner in enumerate(["S1", "S4", "S7", "S3"]):
        await record(client, eight, 0, match, winner)
    view = await read(client, eight["slug"])
    assert [names(view, 1, m) for m in (0, 1)] == [("S1", "S4"), ("S7", "S3")]
    await record(client, eight, 1, 0, "S4")
    await record(client, eight, 1, 1, "S7")
    view = await read(client, eight["slug"])
    assert names(view, 2, 0) == ("S4", "S7")
    assert view["champion"] is None
    reply = await record(client, eight, 2, 0, "S7")
    assert reply["champion"] == "S7"
    view = await read(client, eight["slug"])
    assert view["champion"] == "S7"
    assert results(view) == [["S1", "S4", "S7", "S3"], ["S4", "S7"], ["S7"]]
    assert view["version"] == 7


async def test_two_entrants_one_final(client: Any) -> None:
    made = await create(client, "bracket", {"entrants": ["Ann", "Bo"], "seeding": "listed"})
    reply = await record(client, made, 0, 0, "Bo")
    assert reply["champion"] == "Bo"
    assert (await read(client, made["slug"]))["champion"] == "Bo"


async def test_bye_winners_meet_without_any_result(client: Any, five: dict[str, str]) -> None:
    # Bo and Cy both had byes: their semi-final can be played straight away.
    reply = await record(client, five, 1, 1, "Cy")
    assert reply["winner"] == "Cy"
    view = await read(client, five["slug"])
    assert names(view, 2, 0) == (None, "Cy")


async def test_numeric_strings_are_read_as_indices(client: Any, eight: dict[str, str]) -> None:
    response = await post(client, eight, {"round": "0", "match": "2", "winner": "S7",
                                          "version": "0"})
    assert response.status_code == 200
    assert match_of(await read(client, eight["slug"]), 0, 2)["winner"] == "S7"


async def test_recording_the_same_winner_again_changes_nothing(client: Any,
                                                               eight: dict[str, str]) -> None:
    await record(client, eight, 0, 0, "S1")
    await record(client, eight, 0, 1, "S4")
    await record(client, eight, 1, 0, "S1")
    reply = await record(client, eight, 0, 0, "S1")
    assert reply["cleared"] == []
    assert results(await read(client, eight["slug"]))[1] == ["S1", None]


# --- clearing and changing ------------------------------------------------------------------

async def test_null_clears_a_result(client: Any, eight: dict[str, str]) -> None:
    await record(client, eight, 0, 3, "S6")
    reply = await record(client, eight, 0, 3, None)
    assert (reply["winner"], reply["cleared"]) == (None, [])
    view = await read(client, eight["slug"])
    assert match_of(view, 0, 3)["winner"] is None
    assert names(view, 1, 1) == (None, None)


async def test_clearing_an_empty_result_is_fine(client: Any, eight: dict[str, str]) -> None:
    reply = await record(client, eight, 0, 0, None)
    assert reply["winner"] is None
    assert results(await read(client, eight["slug"]))[0] == [None] * 4


async def play_out(client: Any, made: dict[str, str]) -> None:
    for match, winner in enumerate(["S1", "S4", "S7", "S3"]):
        await record(client, made, 0, match, winner)
    await record(client, made, 1, 0, "S1")
    await record(client, made, 1, 1, "S3")
    await record(client, made, 2, 0, "S1")


async def test_clearing_clears_the_later_results_it_fed(client: Any,
                                                        eight: dict[str, str]) -> None:
    await play_out(client, eight)
    reply = await record(client, eight, 0, 1, None)
    assert reply["cleared"] == [{"round": 1, "match": 0}, {"round": 2, "match": 0}]
    assert reply["champion"] is None
    view = await read(client, eight["slug"])
    # The other half of the draw keeps its results.
    assert results(view) == [["S1", None, "S7", "S3"], [None, "S3"], [None]]
    assert names(view, 1, 0) == ("S1", None)
    assert names(view, 2, 0) == (None, "S3")
    assert view["champion"] is None


async def test_clearing_a_semi_final_clears_the_final(client: Any, eight: dict[str, str]) -> None:
    await play_out(client, eight)
    reply = await record(client, eight, 1, 1, None)
    assert reply["cleared"] == [{"round": 2, "match": 0}]
    assert results(await read(client, eight["slug"])) == [
        ["S1", "S4", "S7", "S3"], ["S1", None], [None]]


async def test_clearing_the_final_clears_only_the_champion(client: Any,
                                                           eight: dict[str, str]) -> None:
    await play_out(client, eight)
    reply = await record(client, eight, 2, 0, None)
    assert (reply["cleared"], reply["champion"]) == ([], None)
    assert results(await read(client, eight["slug"]))[1] == ["S1", "S3"]


async def test_changing_a_result_clears_what_it_fed(client: Any, eight: dict[str, str]) -> None:
    await play_out(client, eight)
    reply = await record(client, eight, 0, 0, "S8")
    assert reply["cleared"] == [{"round": 1, "match": 0}, {"round": 2, "match": 0}]
    view = await read(client, eight["slug"])
    assert results(view) == [["S8", "S4", "S7", "S3"], [None, "S3"], [None]]
    assert names(view, 1, 0) == ("S8", "S4")


async def test_a_later_result_that_did_not_involve_the_change_is_cleared_too(
        client: Any, eight: dict[str, str]) -> None:
    # S4 beat S1 in the semi; S1's first-round result changes to S8: the semi was
    # S1 v S4 and is now S8 v S4, a game nobody has played, so its result goes.
    for match, winner in enumerate(["S1", "S4", "S7", "S3"]):
        await record(client, eight, 0, match, winner)
    await record(client, eight, 1, 0, "S4")
    reply = await record(client, eight, 0, 0, "S8")
    assert reply["cleared"] == [{"round": 1, "match": 0}]
    assert match_of(await read(client, eight["slug"]), 1, 0)["winner"] is None


# --- errors, in check order -----------------------------------------------------------------

@pytest.mark.parametrize("where", [
    {}, {"round": 0}, {"match": 0}, {"round": None, "match": 0}, {"round": 3, "match": 0},
    {"round": 0, "match": 4}, {"round": 1, "match": 2}, {"round": 2, "match": 1},
    {"round": -1, "match": 0}, {"round": 0, "match": -1}, {"round": 0.5, "match": 0},
    {"round": "first", "match": 0}, {"round": True, "match": 0}, {"round": [0], "match": 0},
    {"round": 0, "match": "1.5"}])
async def test_no_such_match(client: Any, eight: dict[str, str], where: dict[str, Any]) -> None:
    body = {**where, "winner": "S1", "version": 0}
    assert await refused(await post(client, eight, body)) == NO_MATCH


async def test_match_is_checked_first(client: Any, eight: dict[str, str]) -> None:
    assert await refused(await post(client, eight, {"round": 9})) == NO_MATCH
    response = await client.post(f"/api/bracket/{eight['editToken']}/result")
    assert await refused(response) == NO_MATCH
    response = await client.post(f"/api/bracket/{eight['editToken']}/result", data=b"{nope",
                                 headers={"Content-Type": "application/json"})
    assert await refused(response) == NO_MATCH


async def test_omitted_winner_differs_from_null(client: Any, eight: dict[str, str]) -> None:
    response = await post(client, eight, {"round": 0, "match": 0, "version": 0})
    assert await refused(response) == BAD_WINNER
    response = await post(client, eight, {"round": 0, "match": 0, "winner": None,
                                          "version": 0})
    assert response.status_code == 200


async def test_omitted_winner_is_checked_before_the_version(client: Any,
                                                            eight: dict[str, str]) -> None:
    assert await refused(await post(client, eight, {"round": 0, "match": 0})) == BAD_WINNER
    response = await post(client, eight, {"round": 0, "match": 0, "version": 5})
    assert await refused(response) == BAD_WINNER


@pytest.mark.parametrize("version", [None, "latest", 1.5, True, [0], {"v": 0}])
async def test_version_is_required(client: Any, eight: dict[str, str], version: Any) -> None:
    body: dict[str, Any] = {"round": 0, "match": 0, "winner": "S1"}
    assert await refused(await post(client, eight, body)) == NO_VERSION
    body["version"] = version
    assert await refused(await post(client, eight, body)) == NO_VERSION


async def test_stale_version_is_409(client: Any, eight: dict[str, str]) -> None:
    await record(client, eight, 0, 0, "S1")
    for version in (0, 2, -1, 99):
        response = await post(client, eight, {"round": 0, "match": 1, "winner": "S4",
                                              "version": version})
        assert await refused(response, 409) == TWO_AT_ONCE
    view = await read(client, eight["slug"])
    assert match_of(view, 0, 1)["winner"] is None
    assert view["version"] == 1


async def test_the_reply_version_is_the_next_one_to_send(client: Any,
                                                         eight: dict[str, str]) -> None:
    response = await post(client, eight, {"round": 0, "match": 0, "winner": "S1",
                                          "version": 0})
    version = (await response.get_json())["version"]
    for match, winner in ((1, "S5"), (2, "S2"), (3, "S6")):
        response = await post(client, eight, {"round": 0, "match": match, "winner": winner,
                                              "version": version})
        assert response.status_code == 200
        version = (await response.get_json())["version"]
    assert (await read(client, eight["slug"]))["version"] == version == 4


async def test_refusals_do_not_move_the_version(client: Any, eight: dict[str, str]) -> None:
    for body in ({"round": 5, "match": 0, "winner": "S1", "version": 0},
                 {"round": 0, "match": 0, "winner": "Nobody", "version": 0},
                 {"round": 1, "match": 0, "winner": "S1", "version": 0},
                 {"round": 0, "match": 0, "winner": "S1", "version": 3}):
        response = await post(client, eight, body)
        assert response.status_code in (400, 409)
    assert (await read(client, eight["slug"]))["version"] == 0


async def test_a_stale_version_is_checked_before_the_bracket_state(
        client: Any, five: dict[str, str]) -> None:
    await record(client, five, 0, 1, "Di")
    # A bye, with a stale version: the refresh is what the organiser needs first.
    response = await post(client, five, {"round": 0, "match": 0, "winner": "Ann",
                                         "version": 0})
    assert await refused(response, 409) == TWO_AT_ONCE


@pytest.mark.parametrize(("match", "winner"), [(0, "Ann"), (0, None), (2, "Bo"), (3, "Cy"),
                                               (0, "Di"), (3, "Nobody")])
async def test_first_round_bye(client: Any, five: dict[str, str], match: int,
                               winner: str | None) -> None:
    body = {"round": 0, "match": match, "winner": winner, "version": 0}
    assert await refused(await post(client, five, body)) == BYE


@pytest.mark.parametrize(("round_index", "match", "winner"), [
    (1, 0, "Ann"), (1, 0, None), (1, 0, "Nobody"), (2, 0, "Bo"), (2, 0, None)])
async def test_later_match_missing_a_name(client: Any, five: dict[str, str], round_index: int,
                                          match: int, winner: str | None) -> None:
    body = {"round": round_index, "match": match, "winner": winner, "version": 0}
    assert await refused(await post(client, five, body)) == SIDE_MISSING


async def test_final_with_both_sides_empty(client: Any, eight: dict[str, str]) -> None:
    body = {"round": 2, "match": 0, "winner": "S1", "version": 0}
    assert await refused(await post(client, eight, body)) == SIDE_MISSING


@pytest.mark.parametrize("winner", ["S2", "Nobody", "s1", " S1", "S1 ", "", 1, True, ["S1"],
                                    {"name": "S1"}])
async def test_winner_must_be_one_of_the_two(client: Any, eight: dict[str, str],
                                             winner: Any) -> None:
    body = {"round": 0, "match": 0, "winner": winner, "version": 0}
    assert await refused(await post(client, eight, body)) == BAD_WINNER
    assert match_of(await read(client, eight["slug"]), 0, 0)["winner"] is None


async def test_a_name_from_another_match_is_refused(client: Any, eight: dict[str, str]) -> None:
    await record(client, eight, 0, 0, "S1")
    await record(client, eight, 0, 1, "S4")
    for winner in ("S8", "S5", "S2"):
        body = {"round": 1, "match": 0, "winner": winner, "version": 2}
        assert await refused(await post(client, eight, body)) == BAD_WINNER


# --- credentials ----------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["x", "2" * 26, "a" * 27])
async def test_bad_edit_token_is_404(client: Any, eight: dict[str, str], token: str) -> None:
    response = await client.post(f"/api/bracket/{token}/result", json={
        "round": 0, "match": 0, "winner": "S1", "version": 0})
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_the_slug_is_not_an_edit_token(client: Any, eight: dict[str, str]) -> None:
    response = await client.post(f"/api/bracket/{eight['slug']}/result", json={
        "round": 0, "match": 0, "winner": "S1", "version": 0})
    assert await response.get_json() == NOT_FOUND


async def test_another_tools_edit_token_is_404(make_app: Any) -> None:
    client = make_app(tools=["bracket", "plate"]).test_client()
    plate = await create(client, "plate", {"categories": [{"name": "Mains", "capacity": 1}]})
    response = await client.post(f"/api/bracket/{plate['editToken']}/result", json={
        "round": 0, "match": 0, "winner": "S1", "version": 0})
    assert await response.get_json() == NOT_FOUND


# --- export and OpenAPI ---------------------------------------------------------------------

async def test_export_holds_the_whole_bracket(client: Any, eight: dict[str, str]) -> None:
    await play_out(client, eight)
    response = await client.post(f"/api/bracket/{eight['editToken']}/export")
    assert response.status_code == 200
    export = await response.get_json()
    assert (export["tool"], export["toolVersion"], export["slug"]) == (
        "bracket", "0.1.0", eight["slug"])
    assert export["data"] == await read(client, eight["slug"])
    assert export["data"]["champion"] == "S1"


async def test_other_writes_do_not_make_a_result_stale(client: Any,
                                                      eight: dict[str, str]) -> None:
    # The export is a POST like any write, but it changes no result: the version a page
    # rendered before it is still current afterwards.
    assert (await client.post(f"/api/bracket/{eight['editToken']}/export")).status_code == 200
    response = await post(client, eight, {"round": 0, "match": 0, "winner": "S1",
                                          "version": 0})
    assert response.status_code == 200


async def test_openapi_documents_result_recording(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    operation = document["paths"]["/api/bracket/{editToken}/result"]["post"]
    described = operation["responses"]["400"]["description"]
    for message in (NO_MATCH, BAD_WINNER, NO_VERSION, BYE, SIDE_MISSING):
        assert message in described
    assert TWO_AT_ONCE in operation["responses"]["409"]["description"]
    assert set(operation["requestBody"]["content"]["application/json"]["schema"][
        "properties"]) == {"round", "match", "winner", "score", "version"}
    assert "clears every later result" in operation["description"]
    tag = next(tag for tag in document["tags"] if tag["name"] == "bracket")
    assert "standard seeding" in tag["description"]
    assert "no first-round match is ever bye against bye" in tag["description"]
    for path in ("/api/bracket", "/api/bracket/{slug}", "/api/bracket/{editToken}/delete",
                 "/api/bracket/{editToken}/export"):
        assert path in document["paths"]
