"""The pages: the note form, the wall in a live region, Remove buttons (every note for the
organiser; only the poster's own, by its kept token, for everyone else), escaping."""

from __future__ import annotations

from typing import Any

NASTY = "<b onmouseover=alert(1)>hi</b>"
ESCAPED = "&lt;b onmouseover=alert(1)&gt;hi&lt;/b&gt;"


async def test_public_page(api: Any, wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"], "Priya", "Fixed the build.", "Sam")
    page = await api.text(f"/s/{wall['slug']}")
    assert "<h1>Support</h1>" in page and "Say thanks." in page
    assert 'data-api="/api/kudos/note"' in page
    assert 'data-remember-token="groupkit:kudos:{slug}:{id}"' in page
    assert '<section id="kudos-wall" class="kudos-wall" data-live-region' in page
    assert "Fixed the build." in page and "— Sam" in page
    assert (f'hidden data-kudos-remove data-secret-key="groupkit:kudos:{wall["slug"]}:'
            f'{note["id"]}"') in page
    assert "/remove" not in page.replace("/static/kudos/kudos.js", "")
    assert '<script src="/static/kudos/kudos.js" defer></script>' in page


async def test_organiser_page_removes_any_note(api: Any, wall: dict[str, str]) -> None:
    note = await api.posted(wall["slug"])
    page = await api.text(f"/e/{wall['editToken']}")
    assert f'data-post="/api/kudos/{wall["editToken"]}/remove"' in page
    assert f'data-body=\'{{"noteId": {note["id"]}}}\'' in page
    assert "data-kudos-remove" not in page


async def test_every_user_string_is_escaped(api: Any) -> None:
    made = await api.create({"team": NASTY, "intro": NASTY})
    await api.posted(made["slug"], NASTY, NASTY, NASTY)
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        page = await api.text(path)
        assert NASTY not in page
        assert page.count(ESCAPED) >= 4


async def test_link_preview(api: Any, wall: dict[str, str]) -> None:
    page = await api.text(f"/s/{wall['slug']}")
    assert '<meta property="og:title" content="Support">' in page
    assert '<meta name="description" content="Say thanks.">' in page
    bare = await api.create({})
    page = await api.text(f"/s/{bare['slug']}")
    assert "A wall of thank-you notes: say who helped, and how." in page
