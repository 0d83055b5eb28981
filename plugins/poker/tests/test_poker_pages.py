"""The pages: join form, the voter's card picker, the facilitator's controls, live regions
on every page, and escaping of every user string."""

from __future__ import annotations

from typing import Any

NASTY = '<img src=x onerror="alert(1)">'
ESCAPED = "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;"


async def test_public_page(api: Any, board: dict[str, str]) -> None:
    page = await api.text(f"/s/{board['slug']}")
    assert "<h1>Payments</h1>" in page
    assert 'data-api="/api/poker/join"' in page and 'data-goto="/p/{token}"' in page
    assert 'data-remember-token="groupkit:poker:{slug}"' in page
    assert '<section id="poker-board"' in page and "data-live-region" in page
    assert "PAY-1 Refunds" in page
    assert "Nobody has joined yet." in page
    assert '<script src="/static/poker/poker.js" defer></script>' in page


async def test_participant_page_offers_the_deck(api: Any, board: dict[str, str]) -> None:
    token = await api.joined(board["slug"], "Ann")
    page = await api.text(f"/p/{token}")
    assert page.count(f'data-post="/api/poker/v/{token}/vote"') == 9
    assert '<section id="poker-cards"' in page and '<section id="poker-board"' in page
    assert 'data-live="/api/poker/' in page  # the page listens for changes
    await api.voted(token, "8")
    await api.organise(board["editToken"], "reveal")
    page = await api.text(f"/p/{token}")
    assert page.count(" disabled>") == 9
    assert "The cards are on the table — wait for the next story." in page


async def test_organiser_page_controls(api: Any, board: dict[str, str]) -> None:
    page = await api.text(f"/e/{board['editToken']}")
    assert f'data-post="/api/poker/{board["editToken"]}/reveal" disabled' in page
    assert f'data-api="/api/poker/{board["editToken"]}/next"' in page
    ann = await api.joined(board["slug"], "Ann")
    await api.voted(ann, "5")
    page = await api.text(f"/e/{board['editToken']}")
    assert f'data-post="/api/poker/{board["editToken"]}/reveal">' in page
    assert f'data-post="/api/poker/{board["editToken"]}/remove"' in page
    await api.organise(board["editToken"], "reveal")
    page = await api.text(f"/e/{board['editToken']}")
    assert "/reveal" not in page
    await api.organise(board["editToken"], "next", {"story": "PAY-2"})
    page = await api.text(f"/e/{board['editToken']}")
    assert "Earlier stories" in page and "Story 1: PAY-1 Refunds — 5 to 5" in page


async def test_every_user_string_is_escaped(api: Any) -> None:
    made = await api.create({"team": NASTY, "story": NASTY})
    token = await api.joined(made["slug"], NASTY)
    await api.voted(token, "3")
    await api.organise(made["editToken"], "reveal")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}", f"/p/{token}"):
        page = await api.text(path)
        assert NASTY not in page
        assert ESCAPED in page


async def test_link_preview(api: Any, board: dict[str, str]) -> None:
    page = await api.text(f"/s/{board['slug']}")
    assert '<meta property="og:title" content="Payments">' in page
    assert "Planning poker for Payments" in page


async def test_deleted_board_takes_every_link_with_it(client: Any, api: Any,
                                                      board: dict[str, str]) -> None:
    token = await api.joined(board["slug"], "Ann")
    assert (await api.organise(board["editToken"], "delete")).status_code == 200
    for path in (f"/s/{board['slug']}", f"/e/{board['editToken']}", f"/p/{token}"):
        assert (await client.get(path)).status_code == 404
    assert (await api.vote(token, "5")).status_code == 404
