"""Claiming a name, saving a fact, reset and reveal, and what the public can read."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NOT_ON_LIST = "That name isn't on this list."
TAKEN = "That name's already been taken. If it's you, ask the organiser to reset it."
NO_FACT = "Write your fact first — something the room won't guess."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}


# --- claim --------------------------------------------------------------------------------

async def test_claim_returns_a_private_token(board: Any) -> None:
    token = await board.token("Ann")
    assert re.fullmatch(rf"[{ALPHABET}]{{22}}", token)
    assert token != await board.token("Bo")
    people = (await board.export())["people"]
    assert [(p["name"], p["claimed"]) for p in people] == [
        ("Ann", True), ("Bo", True), ("Cy", False), ("Di", False)]
    assert set(people[0]) == {"name", "claimed"}  # no claim time to match a new fact with
    assert "Hi Ann." in await board.page(f"/p/{token}")


async def test_claim_matches_the_cleaned_name_ignoring_case(board: Any) -> None:
    token = await board.token("  aNN \n")
    assert "Hi Ann." in await board.page(f"/p/{token}")


async def test_a_look_alike_claims_the_name_it_looks_like(board: Any) -> None:
    """Names compare the same way everywhere: a name typed with a Cyrillic "А" is the name
    it looks like, so it cannot slip past the claimed check."""
    token = await board.token("\u0410nn")
    assert "Hi Ann." in await board.page(f"/p/{token}")
    assert await error_of(await board.claim("Ann"), 409) == TAKEN


@pytest.mark.parametrize("name", ["Zed", "An", "Ann Lee", "", "   ", None, 5, ["Ann"],
                                  {"name": "Ann"}])
async def test_claim_of_a_name_not_on_the_list(board: Any, name: Any) -> None:
    assert await error_of(await board.claim(name), 404) == NOT_ON_LIST


async def test_claim_twice_is_409(board: Any) -> None:
    await board.token("Ann")
    for again in ("Ann", "ann", " ANN "):
        assert await error_of(await board.claim(again), 409) == TAKEN


@pytest.mark.parametrize("slug", [None, "", 7, ["offsite-23456789abcdef"], "Not a slug!",
                                  "offsite-23456789abcdef", "offsite-23456789abcdeg" * 20])
async def test_claim_with_an_unknown_or_malformed_public_link(client: Any, slug: Any) -> None:
    """The spec words this 404 for the claim: the same message as a name not on the list."""
    response = await client.post("/api/fact/claim", json={"slug": slug, "name": "Ann"})
    assert await error_of(response, 404) == NOT_ON_LIST


@pytest.mark.parametrize("body", [None, [], "offsite", {}])
async def test_claim_without_a_slug_at_all(client: Any, body: Any) -> None:
    response = await client.post("/api/fact/claim", json=body)
    assert await error_of(response, 404) == NOT_ON_LIST


async def test_claim_on_a_deleted_board(board: Any) -> None:
    await board.done("delete")
    assert await error_of(await board.claim("Ann"), 404) == NOT_ON_LIST


async def test_a_slug_of_another_tool_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["fact", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["Ann", "y"]})
    response = await client.post("/api/fact/claim", json={"slug": sweep["slug"], "name": "Ann"})
    assert await error_of(response, 404) == NOT_ON_LIST
    # Only the claim has its own wording: organiser links keep the kernel's one 404.
    response = await client.post(f"/api/fact/{sweep['editToken']}/reveal")
    assert await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/fact/{sweep['editToken']}/reset", json={"name": "Ann"})
    assert await response.get_json() == NOT_FOUND


# --- save ---------------------------------------------------------------------------------

async def test_save_and_save_again(board: Any) -> None:
    token = await board.token("Ann")
    response = await board.save(token, "  I once met\r\na moose.  ")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "fact": "I once met\na moose."}
    assert (await board.public())["facts"] == []  # waiting for two more
    assert "joins the grid with the next few" in await board.page(f"/p/{token}")
    await board.done("show")
    first = (await board.public())["facts"]
    assert [fact["text"] for fact in first] == ["I once met\na moose."]
    response = await board.save(token, "Actually, two moose.")
    assert await response.get_json() == {"ok": True, "fact": "Actually, two moose."}
    assert (await board.public())["facts"] == first  # the change waits for a batch too
    await board.done("show")
    second = (await board.public())["facts"]
    assert [fact["text"] for fact in second] == ["Actually, two moose."]
    assert second[0]["id"] != first[0]["id"]  # a changed fact gets a fresh label
    assert (await board.public())["factsIn"] == 1


async def test_a_fact_is_cut_to_280_characters(board: Any) -> None:
    token = await board.token("Ann")
    response = await board.save(token, "  " + "f" * 279 + " \n tail")
    assert (await response.get_json())["fact"] == "f" * 279 + " "
    response = await board.save(token, "x" * 5000)
    assert (await response.get_json())["fact"] == "x" * 280


@pytest.mark.parametrize("text", ["", "   ", "\r\n\t", None, 5, ["a fact"]])
async def test_an_empty_fact_is_refused(board: Any, text: Any) -> None:
    token = await board.write("Ann", "Kept")
    assert await error_of(await board.save(token, text), 400) == NO_FACT
    await board.done("show")
    assert [fact["text"] for fact in (await board.public())["facts"]] == ["Kept"]


@pytest.mark.parametrize("token", ["2" * 22, "x", "2" * 23])
async def test_save_with_an_unknown_token_is_404(board: Any, token: str) -> None:
    assert await (await board.save(token, "A fact")).get_json() == NOT_FOUND


# --- reset --------------------------------------------------------------------------------

async def test_reset_wipes_the_fact_and_retires_the_link(board: Any) -> None:
    old = await board.write("Ann", "I can juggle.")
    await board.write("Bo", "I hate cheese.")
    await board.done("show")
    assert await board.done("reset", {"name": "  ann "}) == {"ok": True}
    view = await board.public()
    assert [fact["text"] for fact in view["facts"]] == ["I hate cheese."]
    # Everyone is told: an organiser who resets someone to see which fact leaves is seen.
    assert [(n["what"], n.get("name"), n.get("factRemoved")) for n in view["notices"]] == [
        ("shown early", None, None), ("reset", "Ann", True)]
    assert "The organiser reset Ann and their fact left the grid" in \
        await board.page(f"/s/{board.slug}")
    people = (await board.export())["people"]
    assert people[0] == {"name": "Ann", "claimed": False}
    assert await (await board.save(old, "Still me")).get_json() == NOT_FOUND
    # The old link is no dead end: it says it was reset and where to claim again.
    gone = await board.page(f"/p/{old}", 404)  # an invalid credential all the same
    assert "This was Ann's private link. The organiser reset it" in gone
    assert "I can juggle." not in gone and "Still me" not in gone
    assert f'href="http://localhost/s/{board.slug}"' in gone
    fresh = await board.token("Ann")
    assert fresh != old
    page = await board.page(f"/p/{fresh}")
    assert "Hi Ann." in page and "I can juggle." not in page
    assert (await board.save(fresh, "New fact")).status_code == 200


async def test_reset_of_an_unclaimed_name_is_fine(board: Any) -> None:
    assert await board.done("reset", {"name": "Cy"}) == {"ok": True}
    await board.token("Cy")


@pytest.mark.parametrize("name", ["Zed", "", " ", None, 5, ["Ann"]])
async def test_reset_of_a_name_not_on_the_list(board: Any, name: Any) -> None:
    await board.token("Ann")
    response = await board.organise("reset", {"name": name})
    assert await error_of(response, 404) == NOT_ON_LIST
    assert (await board.export())["people"][0]["claimed"] is True


# --- reveal -------------------------------------------------------------------------------

async def test_reveal_on_and_off(board: Any) -> None:
    await board.write("Bo", "Fact B")
    await board.write("Di", "Fact D")
    assert await board.done("reveal", {"reveal": True}) == {"ok": True, "revealed": True}
    view = await board.public()
    assert view["revealed"] is True
    answers = [(a["name"], a["fact"]) for a in view["answers"]]
    assert answers == [("Ann", None), ("Bo", "Fact B"), ("Cy", None), ("Di", "Fact D")]
    ids = {fact["text"]: fact["id"] for fact in view["facts"]}
    assert [a["id"] for a in view["answers"]] == [None, ids["Fact B"], None, ids["Fact D"]]
    assert await board.done("reveal", {"reveal": False}) == {"ok": True, "revealed": False}
    view = await board.public()
    assert view["revealed"] is False and "answers" not in view
    # A reveal for a moment (a peek) stays on everyone's board.
    assert [notice["what"] for notice in view["notices"]] == ["answers hidden"]
    assert "The organiser showed the answers, then hid them again" in \
        await board.page(f"/s/{board.slug}")


@pytest.mark.parametrize(("body", "revealed"), [
    ({}, True), (None, True), ({"reveal": 1}, True), ({"reveal": "yes"}, True),
    ({"reveal": False}, False), ({"reveal": 0}, False), ({"reveal": ""}, False),
    ({"reveal": None}, False)])
async def test_reveal_reads_the_flag_with_javascript_truthiness(board: Any, body: Any,
                                                                revealed: bool) -> None:
    if not revealed:
        await board.done("reveal", {"reveal": True})
    response = await board.client.post(f"/api/fact/{board.edit}/reveal", json=body)
    assert await response.get_json() == {"ok": True, "revealed": revealed}
    assert (await board.public())["revealed"] is revealed


async def test_facts_can_change_after_the_reveal(board: Any) -> None:
    token = await board.write("Ann", "Before")
    await board.done("reveal")
    await board.save(token, "After")
    assert (await board.public())["answers"][0]["fact"] == "After"


# --- what the public can read before the reveal --------------------------------------------

async def test_public_facts_carry_nothing_but_a_label_and_the_text(board: Any) -> None:
    for name in ("Ann", "Bo", "Cy"):
        await board.write(name, f"Secret fact {name[::-1]}")
    view = await board.public()
    assert set(view) == {"title", "heading", "prompt", "note", "revealed", "names", "taken",
                         "facts", "factsIn", "total", "notices"}
    assert all(set(fact) == {"id", "text"} for fact in view["facts"])
    assert all(re.fullmatch(r"[0-9a-f]{12}", fact["id"]) for fact in view["facts"])
    assert view["names"] == ["Ann", "Bo", "Cy", "Di"]
    assert (view["factsIn"], view["total"]) == (3, 4)


async def test_who_wrote_what_changes_nothing_public_but_the_shuffle(
        new_board: Callable[..., Any]) -> None:
    """Two boards with the same names, claims and facts, written by different people: their
    public reads and pages differ only in the random labels and the order they put the facts
    in (who has claimed is public, so the claim form offers only the names still open)."""
    facts = ["Fact one", "Fact two", "Fact three"]
    names = ["Ann", "Bo", "Cy", "Di"]

    async def play(authors: list[str]) -> tuple[dict[str, Any], str]:
        board = await new_board({"title": "Same", "names": names})
        tokens = {name: await board.token(name) for name in names}
        for name, text in zip(authors, facts, strict=True):
            assert (await board.save(tokens[name], text)).status_code == 200
        view = await board.public()
        page = await board.page(f"/s/{board.slug}")
        page = page.replace(board.slug, "SLUG")
        grid = page[page.index('<ol class="fact-grid">'):page.index("</ol>")]
        texts = re.findall(r'<p class="fact-text">([^<]*)</p>', grid)
        assert texts == [fact["text"] for fact in view["facts"]]
        for fact in view["facts"]:
            grid = grid.replace(fact["id"], "LABEL").replace(fact["text"], "TEXT")
        view["facts"] = sorted(fact["text"] for fact in view["facts"])
        rest = page.replace(page[page.index('<ol class="fact-grid">'):page.index("</ol>")], grid)
        return view, re.sub(r'data-live-version="\d+"', "", rest)

    first_view, first_page = await play(["Ann", "Bo", "Cy"])
    second_view, second_page = await play(["Di", "Cy", "Ann"])
    assert first_view == second_view
    assert first_page == second_page


async def test_the_grid_is_shuffled_and_stays_put(new_board: Callable[..., Any]) -> None:
    """Facts written in name order come out in a random order (over 15 boards, at least
    three different facts lead), and the same board keeps its order between reads."""
    leaders = set()
    for _ in range(15):
        board = await new_board({"names": ["A", "B", "C", "D", "E", "F"]})
        for name in "ABCDEF":
            await board.write(name, f"Fact by {name}")
        order = [fact["text"] for fact in (await board.public())["facts"]]
        assert order == [fact["text"] for fact in (await board.public())["facts"]]
        assert sorted(order) == [f"Fact by {name}" for name in "ABCDEF"]
        leaders.add(order[0])
    assert len(leaders) >= 3


async def test_no_public_response_ties_a_fact_to_a_name(board: Any) -> None:
    """Claim replies carry only the token; the public read's facts carry no name; each grid
    entry on the share page offers the whole name list, so no name stands out."""
    facts = {"Ann": "Secret-one", "Bo": "Secret-two"}
    for name, fact in facts.items():
        response = await board.claim(name)
        assert set(await response.get_json()) == {"token"}
        await board.save((await response.get_json())["token"], fact)
    await board.done("show")
    view = await board.public()
    facts_part = str(view["facts"])
    assert not [name for name in ("Ann", "Bo", "Cy", "Di") if name in facts_part]
    page = await board.page(f"/s/{board.slug}")
    for fact in facts.values():
        item = re.search(rf'<li class="card">\s*<p class="fact-text">{fact}</p>.*?</li>',
                         page, re.S)
        assert item is not None
        assert re.findall(r"<option>([^<]*)</option>", item[0]) == ["Ann", "Bo", "Cy", "Di"]
    assert "data-fact-answer" not in page and "The answers" not in page
