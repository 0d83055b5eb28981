"""Pages: create, share, player and organiser; where a role may and may not appear;
escaping; the OpenAPI paths."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from groupkit_roles.schema import PRESETS

ROLES = ["Zebra-Spy", "Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Lamb-Villager",
         "Lamb-Villager"]
SECRETS = ["Zebra-Spy", "Owl-Seer", "Lamb-Villager", "Brief-Zed", "Brief-Owl"]
NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


class Tags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def assert_no_inline_code(text: str) -> None:
    for tag, attrs in Tags(text).tags:
        assert tag != "style"
        if tag == "script":
            assert attrs.get("src"), attrs
        assert "style" not in attrs, (tag, attrs)
        assert not [name for name in attrs if name.startswith("on")], (tag, attrs)


def region(text: str, element_id: str) -> str:
    """The HTML of the element with this id, up to the next element on its own level."""
    start = text.index(f'id="{element_id}"')
    end = text.index("</div>\n</section>", start)
    return text[start:end]


def leaked(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


async def test_create_page(api: Any) -> None:
    text = await api.page("/new/roles")
    # A kernel form, with or without JavaScript: the editor's rows are plain fields.
    assert 'method="post" action="/api/roles" data-api="/api/roles"' in text
    assert 'data-redirect="/e/{editToken}?new=1"' in text
    assert 'data-list="roles"' in text and '<template data-row-template="roles">' in text
    assert 'data-add-row="roles" data-script-only hidden' in text
    for key, name in (("name", "name"), ("count", "count:number"), ("brief", "brief")):
        assert f'data-key="{key}"' in text
        assert text.count('name="roles.') >= 12 and f'name="roles.3.{name}"' in text
    assert text.count("data-spare") == 2
    for field in ("title", "note", "preset"):
        assert f'name="{field}"' in text
    assert 'data-roles-presets="/static/roles/presets.json"' in text
    assert '<script src="/static/roles/roles.js" defer></script>' in text
    assert_no_inline_code(text)


async def test_create_page_lists_the_presets_and_fills_one_without_script(api: Any) -> None:
    """The presets are the page's own options; "Fill in the roles" asks this page for the
    editor filled from the chosen one (the choice is also kept for the record)."""
    text = await api.page("/new/roles")
    assert '<form id="roles-preset" method="get" action="/new/roles"></form>' in text
    assert '<select id="preset" name="preset" form="roles-preset"' in text
    for key, preset in PRESETS.items():
        assert f'<option value="{key}">{html.escape(preset["label"], quote=False)}</option>' \
            in text
    assert '<button form="roles-preset"' in text
    assert '<input type="hidden" name="preset" value="" data-roles-preset-kept>' in text
    filled = await api.page("/new/roles?preset=werewolf")
    assert '<option value="werewolf" selected>' in filled
    assert '<input type="hidden" name="preset" value="werewolf" data-roles-preset-kept>' in filled
    rows = PRESETS["werewolf"]["roles"]
    for index, row in enumerate(rows):
        assert f'name="roles.{index}.name" maxlength="80" value="{row["name"]}"' in filled
        assert f'name="roles.{index}.count:number" type="number" min="1" max="40" step="1" ' \
            f'inputmode="numeric" value="{row["count"]}"' in filled
    assert f'name="roles.{len(rows) + 1}.name"' in filled  # and two blank rows to add more
    assert filled.count("data-spare") == 2
    for unknown in ("chess", "WEREWOLF", ""):
        page = await api.page(f"/new/roles?preset={unknown}")
        form = page.split("<main")[1].split("</main>")[0]  # the page's own form, not the footer
        assert " selected>" not in form and 'name="roles.1.name" maxlength="80" value=""' in form


@pytest.mark.parametrize(("path", "kind", "needle"), [
    ("/static/roles/roles.js", "javascript", "data-spare"),
    ("/static/roles/roles.css", "text/css", ".roles-role"),
    ("/static/roles/presets.json", "json", "werewolf")])
async def test_static_files_are_served(client: Any, path: str, kind: str, needle: str) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert kind in response.content_type
    assert needle in (await response.get_data()).decode()


async def test_share_page(api: Any, game: dict[str, str]) -> None:
    slug = game["slug"]
    response = await api.client.get(f"/s/{slug}")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert "noindex" in response.headers["X-Robots-Tag"]
    text = (await response.get_data()).decode()
    assert "<h1>Games night</h1>" in text and "Eyes shut when told." in text
    assert "0 of 6 roles dealt — 6 still to go." in text
    assert 'data-api="/api/roles/claim"' in text
    assert 'data-remember-token="groupkit:roles:{slug}"' in text
    assert 'data-goto="/p/{token}"' in text
    assert f'<input type="hidden" name="slug" value="{slug}">' in text
    assert f'data-roles-mine="groupkit:roles:{slug}"' in text
    assert re.search(r'id="roles-count" data-live-region', text)
    assert leaked(text) == []
    assert_no_inline_code(text)
    for n in range(6):
        await api.joined(slug, f"P{n}")
    assert "All 6 roles are dealt." in await api.page(f"/s/{slug}")


async def test_no_public_response_shows_a_role(api: Any, game: dict[str, str]) -> None:
    """Joins, held checks, the public read and page, and the link preview never carry a role
    or a briefing."""
    slug = game["slug"]
    seen = []
    for n in range(6):
        response = await api.join(slug, f"P{n}")
        seen.append((await response.get_data()).decode())
        token = (await response.get_json())["token"]
        response = await api.client.post("/api/roles/held", json={"slug": slug, "token": token})
        seen.append((await response.get_data()).decode())
    seen.append((await (await api.join(slug, "Late")).get_data()).decode())
    seen.append((await (await api.client.get(f"/api/roles/{slug}")).get_data()).decode())
    seen.append(await api.page(f"/s/{slug}"))
    for text in seen:
        assert leaked(text) == [], text


async def test_player_page_shows_the_role_with_its_briefing_under_it(
        api: Any, game: dict[str, str]) -> None:
    slug = game["slug"]
    tokens = {f"P{n}": await api.joined(slug, f"P{n}") for n in range(6)}
    roles = await api.roles_by_name(game["editToken"])
    briefs = {"Zebra-Spy": "Brief-Zed first line\nsecond line", "Owl-Seer": "Brief-Owl"}
    for name, token in tokens.items():
        response = await api.client.get(f"/p/{token}")
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
        text = (await response.get_data()).decode()
        role = roles[name]
        start = text.index('id="roles-hand"')
        hand = text[start:text.index("</section>", start)]
        if role in briefs:
            assert re.search(rf'<p class="roles-role">{role}</p>\n<p class="roles-brief">'
                             rf'{re.escape(briefs[role])}</p>', hand)
        else:
            assert re.search(rf'<p class="roles-role">{role}</p>\n$', hand)
        others = [secret for secret in SECRETS if secret not in role
                  and secret not in briefs.get(role, "")]
        assert [secret for secret in others if secret in text] == []
        assert f"{name}, this is your secret role." in text
        assert f'<div data-roles-player data-slug="{slug}" data-token="{token}">' in text
        assert 'aria-label="Your role" data-game="1" data-round="1">' in text
        assert '<script src="/static/roles/roles.js" defer></script>' in text
        assert f'data-live="/api/roles/{slug}/events"' in text
        assert "data-live-region" not in text  # roles.js follows the game itself
        assert_no_inline_code(text)


async def test_organiser_page_hides_roles_unless_revealed(api: Any, game: dict[str, str]) -> None:
    slug, edit = game["slug"], game["editToken"]
    tokens = {name: await api.joined(slug, name) for name in ("Ann", "Bo", "Cy")}
    await api.page(f"/p/{tokens['Bo']}")
    roles = await api.roles_by_name(edit)
    response = await api.client.get(f"/e/{edit}")
    assert response.headers["Cache-Control"] == "no-store"
    text = (await response.get_data()).decode()
    players = region(text, "roles-players")
    for name in roles:
        assert f"<strong>{name}</strong>" in players
    assert leaked(players) == []
    assert players.count("hasn't looked yet") == 2 and players.count("has looked") == 1
    assert f'href="/e/{edit}?reveal=1"' in text
    assert "3 of 6 roles dealt · game 1, deal 1" in players
    buttons = re.findall(r"<button[^>]*>Reset</button>", players)
    assert [json.loads(html.unescape(re.search(r"data-body='([^']*)'", button)[1]))
            for button in buttons] == [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}]
    assert all(f'data-post="/api/roles/{edit}/reset"' in button for button in buttons)
    for value in ("0", "true", "yes", "", "1 "):
        hidden = await api.page(f"/e/{edit}?reveal={value}")
        assert leaked(region(hidden, "roles-players")) == []
    shown = region(await api.page(f"/e/{edit}?reveal=1"), "roles-players")
    for name, role in roles.items():
        assert re.search(rf"<strong>{name}</strong>\s*<span[^>]*>[^<]*</span>\s*"
                         rf'<span class="roles-secret">{role}</span>', shown)
    assert_no_inline_code(text)


async def test_organiser_controls(api: Any, game: dict[str, str]) -> None:
    edit = game["editToken"]
    await api.joined(game["slug"], "Ann")
    text = await api.page(f"/e/{edit}")
    for op in ("redeal", "restart", "delete"):
        assert f'data-post="/api/roles/{edit}/{op}"' in text
    # One form changes the title, note and roles: the kernel's "Change details" (it asks
    # before taking a role someone holds).
    assert f'data-api="/api/roles/{edit}/edit"' in text
    assert f'data-roles-form="/api/roles/{edit}/roles"' not in text
    assert f'data-api="/api/roles/{edit}/details"' not in text
    assert 'value="Games night"' in text and ">Eyes shut when told.</textarea>" in text
    assert '<input type="hidden" data-key="was" name="roles.0.was" value="Zebra-Spy">' in text
    # The editor holds the set-up (which roles exist), grouped with their briefings.
    editor = text[text.index('data-list="roles"'):text.index("<template")]
    assert [html.unescape(v) for v in re.findall(r'data-key="name"[^>]*value="([^"]*)"', editor)] \
        == ["Zebra-Spy", "Owl-Seer", "Lamb-Villager", "", ""]  # two spare rows to add roles
    assert re.findall(r'data-key="count"[^>]*value="(\d+)"', editor) == ["2", "1", "3"]
    assert editor.count("data-spare") == 2
    assert "Brief-Zed first line\nsecond line</textarea>" in editor
    assert_no_inline_code(text)


async def test_user_text_is_escaped_everywhere(api: Any) -> None:
    made = await api.create({"title": NASTY, "note": NASTY, "roles": [NASTY, "\"'><b>x"],
                             "briefs": {NASTY: NASTY}})
    token = await api.joined(made["slug"], "<img src=x onerror=alert(2)>")
    await api.joined(made["slug"], "O'Brien \"Bob\"")
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}",
                 f"/e/{made['editToken']}?reveal=1", f"/p/{token}"):
        text = await api.page(path)
        assert NASTY not in text and "<script>alert" not in text, path
        assert ESCAPED in text, path
        assert "<img src=x" not in text and "<b>x" not in text, path
        assert_no_inline_code(text)
    organiser = await api.page(f"/e/{made['editToken']}?reveal=1")
    assert "&lt;img src=x onerror=alert(2)&gt;" in organiser
    assert "O&#39;Brien &#34;Bob&#34;" in organiser
    assert "&#34;&#39;&gt;&lt;b&gt;x" in organiser


async def test_link_preview_carries_no_role(api: Any, game: dict[str, str]) -> None:
    text = await api.page(f"/s/{game['slug']}")
    meta = re.findall(r"<meta [^>]*>", text)
    assert any('property="og:title" content="Games night"' in tag for tag in meta)
    assert leaked(" ".join(meta)) == []


async def test_openapi_has_every_path(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    paths = document["paths"]
    assert "post" in paths["/api/roles/claim"] and "post" in paths["/api/roles/held"]
    for op in ("reset", "details", "roles", "redeal", "restart", "setup", "delete", "export"):
        assert "post" in paths[f"/api/roles/{{editToken}}/{op}"], op
    claim = paths["/api/roles/claim"]["post"]
    assert "Everyone grabbed at once — try again." in claim["responses"]["409"]["description"]
    assert "instance lock" in claim["description"]
    tags = {tag["name"]: tag.get("description", "") for tag in document.get("tags", [])}
    assert "`redeal` and `roles` deal every joined player afresh" in tags["roles"]


def test_every_preset_label_is_in_the_catalog() -> None:
    """The create page translates each preset's label: each is marked for the catalog."""
    from groupkit_roles.schema import PRESET_LABELS
    from groupkit_roles.schema import PRESETS

    assert sorted(PRESET_LABELS) == sorted(preset["label"] for preset in PRESETS.values())
