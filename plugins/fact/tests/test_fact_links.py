"""Personal links: the organiser hands each person the page where they write their fact,
instead of claims by name; without the option everything is as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

NAMES = ["Ann", "Bo", "Cy", "Di"]
BY_LINK = ("Everyone here has their own personal link, so names can't be claimed on this "
           "page: ask the organiser for your link.")


async def linked(new_board: Callable[..., Any]) -> tuple[Any, dict[str, str]]:
    board = await new_board({"title": "Offsite", "names": NAMES, "personalLinks": True})
    return board, {entry["name"]: entry["link"] for entry in (await board.export())["links"]}


async def test_each_name_gets_a_link_and_names_cannot_be_claimed(
        new_board: Callable[..., Any]) -> None:
    board, links = await linked(new_board)
    assert list(links) == NAMES and len(set(links.values())) == len(NAMES)
    for name in ("Ann", "Nobody"):  # the same answer, on the list or not
        response = await board.claim(name)
        assert response.status_code == 409
        assert await response.get_json() == {"error": BY_LINK}
    public = await board.public()
    assert public["personalLinks"] is True and "links" not in public
    share = await board.page(f"/s/{board.slug}")
    assert 'action="/api/fact/claim"' not in share
    assert not any(link in share for link in links.values())
    organiser = await board.page(f"/e/{board.edit}")
    assert all(link in organiser for link in links.values()) and "Copy all" in organiser


async def test_the_link_opens_the_fact_page_and_counts_as_the_claim(
        new_board: Callable[..., Any]) -> None:
    board, links = await linked(new_board)
    page = await board.page(links["Cy"])
    assert "Hi Cy." in page and 'name="text"' in page
    token = links["Cy"].removeprefix("/p/")
    assert (await board.save(token, "I keep bees")).status_code == 200
    assert (await board.public())["taken"] == ["Cy"]
    assert [person["claimed"] for person in (await board.export())["people"]] == [
        False, False, True, False]


async def test_a_reset_issues_a_fresh_link(new_board: Callable[..., Any]) -> None:
    board, links = await linked(new_board)
    await board.page(links["Bo"])
    await board.done("reset", {"name": "Bo"})
    fresh = {entry["name"]: entry["link"] for entry in (await board.export())["links"]}
    assert fresh["Bo"] != links["Bo"] and fresh["Ann"] == links["Ann"]
    old = await board.page(links["Bo"], 404)  # a reset link: the page says so
    assert "ask the organiser for your fresh link" in old
    assert "Hi Bo." in await board.page(fresh["Bo"])


async def test_a_new_name_gets_a_link(new_board: Callable[..., Any]) -> None:
    board, _ = await linked(new_board)
    response = await board.organise("edit", {"names": [*NAMES, "Ed"]})
    assert response.status_code == 200, await response.get_json()
    links = {entry["name"]: entry["link"] for entry in (await board.export())["links"]}
    assert "Hi Ed." in await board.page(links["Ed"])


async def test_the_claim_form_offers_only_names_still_open(board: Any) -> None:
    await board.token("Bo")
    share = await board.page(f"/s/{board.slug}")
    assert "<option>Bo</option>" not in share
    assert all(f"<option>{name}</option>" in share for name in ("Ann", "Cy", "Di"))
    assert (await board.public())["taken"] == ["Bo"]
    assert "links" not in await board.export()
