"""Office Sweep: every field rule and message, the draw, redraw, export, pages and delete."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

FEW_OUTCOMES = "Add at least two outcomes."
DUPLICATE_OUTCOME = "Outcomes contain a duplicate — each one must be different."
FEW_NAMES = "Add at least two names."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NASTY = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"

FINAL_WORDING = {"heading": "Grand final sweep", "outcome": "result", "outcomes": "results",
                 "event": "the grand final"}
CUP_WORDING = {"heading": "Cup sweep", "outcome": "horse", "outcomes": "horses",
               "event": "the race"}


@pytest.fixture
def client(make_app: Callable[..., Any]) -> Any:
    return make_app(tools=["sweeps"]).test_client()


def sweep(outcomes: Any = ("Lions", "Swans"), names: Any = ("Ann", "Bo"),
          **extra: Any) -> dict[str, Any]:
    body = {"outcomes": list(outcomes) if isinstance(outcomes, tuple) else outcomes,
            "names": list(names) if isinstance(names, tuple) else names}
    return {**body, **extra}


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/sweeps", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


async def made(client: Any, body: dict[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """Create, then read it back as the public API shows it."""
    created = await create(client, "sweeps", body)
    response = await client.get(f"/api/sweeps/{created['slug']}")
    assert response.status_code == 200
    return created, dict(await response.get_json())


async def exported(client: Any, edit_token: str) -> dict[str, Any]:
    response = await client.post(f"/api/sweeps/{edit_token}/export")
    assert response.status_code == 200
    return dict(await response.get_json())


def assert_valid_draw(view: dict[str, Any], outcomes: list[str], names: list[str]) -> None:
    """Each outcome drawn once, in order; the names spread as evenly as possible; with more
    names than outcomes, every name exactly once across draw and surplus."""
    pairs = view["draw"]
    assert [pair["outcome"] for pair in pairs] == outcomes
    assert all(set(pair) == {"outcome", "name"} for pair in pairs)
    drawn = Counter(pair["name"] for pair in pairs)
    entrants = Counter(names)
    if len(names) >= len(outcomes):
        assert drawn + Counter(view["surplus"]) == entrants
        assert len(view["surplus"]) == len(names) - len(outcomes)
    else:
        assert view["surplus"] == []
        assert set(drawn) == set(entrants)
        low, high = len(outcomes) // len(names), -(-len(outcomes) // len(names))
        assert all(low <= count <= high for count in drawn.values()), drawn
        assert sum(drawn.values()) == len(outcomes)


# --- create: credentials ------------------------------------------------------------------

async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/sweeps", json=sweep(title="Office Cup 2026"))
    assert response.status_code == 201
    payload = await response.get_json()
    assert set(payload) == {"slug", "editToken"}
    assert re.fullmatch(rf"office-cup-2026-[{ALPHABET}]{{14}}", payload["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", payload["editToken"])


# --- title: T(80) -------------------------------------------------------------------------

async def test_title_is_trimmed_keeping_inner_whitespace(client: Any) -> None:
    _, view = await made(client, sweep(title="  \n Grand  final\n\tsweep \t "))
    assert view["title"] == "Grand  final\n\tsweep"
    assert view["heading"] == "Grand  final\n\tsweep"


async def test_title_of_5000_characters_is_cut_to_80(client: Any) -> None:
    response = await client.post("/api/sweeps", json=sweep(title="x" * 5000))
    assert response.status_code == 201
    view = await (await client.get(f"/api/sweeps/{(await response.get_json())['slug']}")).get_json()
    assert view["title"] == "x" * 80


async def test_title_cut_counts_code_points_after_trimming(client: Any) -> None:
    _, view = await made(client, sweep(title="   " + "é" * 79 + "🏉🏉🏉"))
    assert view["title"] == "é" * 79 + "🏉"


@pytest.mark.parametrize("title", [None, "", "   ", 5, ["x"], {"t": 1}, True])
async def test_title_absent_or_empty_uses_default_heading(client: Any, title: Any) -> None:
    _, view = await made(client, sweep(title=title))
    assert view["title"] == ""
    assert view["heading"] == "Grand final sweep"
    _, view = await made(client, sweep(title=title, kind="cup"))
    assert view["heading"] == "Cup sweep"


async def test_title_missing(client: Any) -> None:
    created, view = await made(client, sweep())
    assert view["title"] == "" and view["heading"] == "Grand final sweep"
    assert re.fullmatch(rf"sweeps-[{ALPHABET}]{{14}}", created["slug"])


# --- kind ---------------------------------------------------------------------------------

async def test_kind_cup_gives_the_horse_race_wording(client: Any) -> None:
    _, view = await made(client, sweep(kind="cup"))
    assert view["kind"] == "cup"
    assert view["wording"] == CUP_WORDING


@pytest.mark.parametrize("kind", ["Cup", "CUP", " cup", "cup ", "final", "horse", "", None, 5,
                                  0, True, ["cup"], {"kind": "cup"}])
async def test_any_other_kind_gives_grand_final_wording(client: Any, kind: Any) -> None:
    _, view = await made(client, sweep(kind=kind))
    assert view["kind"] == "final"
    assert view["wording"] == FINAL_WORDING


async def test_kind_missing_is_grand_final(client: Any) -> None:
    _, view = await made(client, sweep())
    assert view["kind"] == "final"


async def test_kind_changes_wording_only(client: Any) -> None:
    _, cup = await made(client, sweep(("A", "B", "C"), ("X", "Y", "Z"), kind="cup"))
    _, final = await made(client, sweep(("A", "B", "C"), ("X", "Y", "Z")))
    for view in (cup, final):
        assert_valid_draw(view, ["A", "B", "C"], ["X", "Y", "Z"])


# --- outcomes -----------------------------------------------------------------------------

@pytest.mark.parametrize("outcomes", [None, "Lions, Swans", {"a": "Lions", "b": "Swans"}, 2,
                                      True, [], ["Lions"], ["Lions", "", "   ", "\n"],
                                      [None, 5, "Lions"], [["Lions"], ["Swans"]]])
async def test_fewer_than_two_usable_outcomes(client: Any, outcomes: Any) -> None:
    assert await refused(client, sweep(outcomes=outcomes)) == FEW_OUTCOMES


async def test_outcomes_missing(client: Any) -> None:
    assert await refused(client, {"names": ["Ann", "Bo"]}) == FEW_OUTCOMES


@pytest.mark.parametrize("body", [b"{nope", b"", b"[]", b"null", b'"outcomes"'])
async def test_non_object_body_fails_the_first_check(client: Any, body: bytes) -> None:
    response = await client.post("/api/sweeps", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": FEW_OUTCOMES}


async def test_outcomes_cleaned_and_empties_dropped(client: Any) -> None:
    _, view = await made(client, sweep(
        ["  Lions  by\n 1-12 ", "", "   ", "Swans\t\tby 13+", "o" * 100], ("Ann", "Bo")))
    assert [pair["outcome"] for pair in view["draw"]] == [
        "Lions by 1-12", "Swans by 13+", "o" * 60]


@pytest.mark.parametrize("outcomes", [["Lions", "lions"], ["Lions", "LIONS", "Swans"],
                                      ["Swans", "Lions", " swans "],
                                      ["Lions  by 1", "lions by\n1"]])
async def test_outcomes_distinct_ignoring_case(client: Any, outcomes: list[str]) -> None:
    assert await refused(client, sweep(outcomes=outcomes)) == DUPLICATE_OUTCOME


async def test_outcomes_compared_after_cutting_to_60(client: Any) -> None:
    base = "h" * 60
    assert await refused(client, sweep(outcomes=[base + "1", base + "2"])) == DUPLICATE_OUTCOME


async def test_outcomes_capped_at_64_silently(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(70)]
    created, view = await made(client, sweep(outcomes, [f"P{n}" for n in range(64)]))
    assert [pair["outcome"] for pair in view["draw"]] == outcomes[:64]
    assert (await exported(client, created["editToken"]))["data"]["outcomes"] == outcomes[:64]


async def test_cap_counts_outcomes_left_after_dropping_empties(client: Any) -> None:
    outcomes = ["", " "] * 5 + [f"Horse {n}" for n in range(64)]
    _, view = await made(client, sweep(outcomes, ("Ann", "Bo")))
    assert len(view["draw"]) == 64


async def test_duplicate_past_the_cap_is_never_seen(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(64)] + ["horse 0"]
    _, view = await made(client, sweep(outcomes, ("Ann", "Bo")))
    assert len(view["draw"]) == 64
    assert await refused(client, sweep([*outcomes[:63], "HORSE 1"], ("Ann", "Bo"))) \
        == DUPLICATE_OUTCOME


# --- names --------------------------------------------------------------------------------

@pytest.mark.parametrize("names", [None, "Ann, Bo", {"a": "Ann"}, 7, [], ["Ann"],
                                   ["Ann", "", "  "], [None, 3, "Ann"]])
async def test_fewer_than_two_names(client: Any, names: Any) -> None:
    assert await refused(client, sweep(names=names)) == FEW_NAMES


async def test_names_missing(client: Any) -> None:
    assert await refused(client, {"outcomes": ["Lions", "Swans"]}) == FEW_NAMES


async def test_names_cleaned_empties_dropped_duplicates_accepted(client: Any) -> None:
    names = ["  Ann \n Lee ", "", "Bo", "bo", "Bo", "n" * 90]
    created, view = await made(client, sweep(["Lions", "Swans"], names))
    cleaned = ["Ann Lee", "Bo", "bo", "Bo", "n" * 40]
    assert (await exported(client, created["editToken"]))["data"]["names"] == cleaned
    assert_valid_draw(view, ["Lions", "Swans"], cleaned)


async def test_two_identical_names_are_enough(client: Any) -> None:
    _, view = await made(client, sweep(["Lions", "Swans"], ["Ann", "Ann"]))
    assert [pair["name"] for pair in view["draw"]] == ["Ann", "Ann"]


async def test_names_capped_at_300_silently(client: Any) -> None:
    names = [f"Person {n}" for n in range(310)]
    created, view = await made(client, sweep(["Lions", "Swans"], names))
    assert (await exported(client, created["editToken"]))["data"]["names"] == names[:300]
    assert_valid_draw(view, ["Lions", "Swans"], names[:300])
    assert len(view["surplus"]) == 298


# --- check order --------------------------------------------------------------------------

async def test_outcome_errors_come_before_name_errors(client: Any) -> None:
    assert await refused(client, {}) == FEW_OUTCOMES
    assert await refused(client, sweep(["Lions"], ["Ann"])) == FEW_OUTCOMES
    assert await refused(client, sweep("nope", "nope")) == FEW_OUTCOMES
    assert await refused(client, sweep(["Lions", "lions"], ["Ann"])) == DUPLICATE_OUTCOME
    assert await refused(client, sweep(["Lions", "lions"], [])) == DUPLICATE_OUTCOME
    assert await refused(client, sweep(["Lions", "Swans"], ["Ann"])) == FEW_NAMES


async def test_count_is_checked_before_duplicates(client: Any) -> None:
    # One usable outcome can't repeat anything: the count message, not the duplicate one.
    assert await refused(client, sweep(["Lions", " ", ""], ["Ann", "Bo"])) == FEW_OUTCOMES


async def test_title_and_kind_never_fail(client: Any) -> None:
    """Odd shapes read as no title and the grand-final flavour; the rest is kept."""
    created, view = await made(client, sweep(
        title={"x": 1}, kind=[1], outcomes=["A", "B"], names=["C", "D"], extra="ignored"))
    assert (view["title"], view["heading"], view["kind"]) == ("", "Grand final sweep", "final")
    assert view["wording"] == FINAL_WORDING
    assert sorted(pair["name"] for pair in view["draw"]) == ["C", "D"]
    assert "extra" not in await exported(client, created["editToken"])


# --- the draw -----------------------------------------------------------------------------

@pytest.mark.parametrize(("n_outcomes", "n_names"), [
    (2, 2), (8, 8), (3, 2), (7, 3), (10, 4), (64, 5), (64, 63), (5, 2)])
async def test_fewer_or_equal_names_cycle_evenly(client: Any, n_outcomes: int,
                                                 n_names: int) -> None:
    outcomes = [f"Outcome {n}" for n in range(n_outcomes)]
    names = [f"Name {n}" for n in range(n_names)]
    _, view = await made(client, sweep(outcomes, names))
    assert_valid_draw(view, outcomes, names)
    counts = Counter(pair["name"] for pair in view["draw"])
    assert set(counts.values()) <= {n_outcomes // n_names, -(-n_outcomes // n_names)}
    assert view["surplus"] == []


@pytest.mark.parametrize(("n_outcomes", "n_names"), [(2, 3), (4, 10), (2, 300), (63, 64)])
async def test_more_names_than_outcomes_lists_the_surplus(client: Any, n_outcomes: int,
                                                          n_names: int) -> None:
    outcomes = [f"Outcome {n}" for n in range(n_outcomes)]
    names = [f"Name {n}" for n in range(n_names)]
    _, view = await made(client, sweep(outcomes, names))
    assert_valid_draw(view, outcomes, names)
    drawn = [pair["name"] for pair in view["draw"]]
    assert len(set(drawn)) == n_outcomes
    assert sorted(drawn + view["surplus"]) == sorted(names)
    assert not set(drawn) & set(view["surplus"])


async def test_surplus_with_repeated_names(client: Any) -> None:
    names = ["Ann", "Ann", "Bo", "Bo", "Cy"]
    _, view = await made(client, sweep(["Lions", "Swans"], names))
    assert_valid_draw(view, ["Lions", "Swans"], names)


async def test_draw_is_fixed_at_creation(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(12)]
    created, first = await made(client, sweep(outcomes, [f"P{n}" for n in range(12)]))
    for _ in range(3):
        again = await (await client.get(f"/api/sweeps/{created['slug']}")).get_json()
        assert again == first


async def test_draws_are_random(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(6)]
    names = [f"P{n}" for n in range(6)]
    draws = set()
    for _ in range(8):
        _, view = await made(client, sweep(outcomes, names))
        draws.add(tuple(pair["name"] for pair in view["draw"]))
    # 8 draws from 720 equally likely orders all being equal has odds below 1e-20.
    assert len(draws) > 1


# --- redraw -------------------------------------------------------------------------------

async def test_redraw_reshuffles_and_stays_valid(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(8)]
    names = [f"P{n}" for n in range(11)]
    created, before = await made(client, sweep(outcomes, names, title="Cup", kind="cup"))
    seen = {tuple(pair["name"] for pair in before["draw"])}
    for _ in range(6):
        response = await client.post(f"/api/sweeps/{created['editToken']}/redraw")
        assert response.status_code == 200
        payload = await response.get_json()
        assert set(payload) == {"ok", "draw", "surplus"} and payload["ok"] is True
        view = await (await client.get(f"/api/sweeps/{created['slug']}")).get_json()
        assert (view["draw"], view["surplus"]) == (payload["draw"], payload["surplus"])
        assert_valid_draw(view, outcomes, names)
        assert (view["title"], view["kind"]) == ("Cup", "cup")
        seen.add(tuple(pair["name"] for pair in view["draw"]))
    assert len(seen) > 1


async def test_redraw_with_fewer_names_keeps_the_cycle_even(client: Any) -> None:
    outcomes = [f"Horse {n}" for n in range(10)]
    created, _ = await made(client, sweep(outcomes, ["Ann", "Bo", "Cy"]))
    for _ in range(3):
        payload = await (await client.post(
            f"/api/sweeps/{created['editToken']}/redraw")).get_json()
        assert_valid_draw(payload, outcomes, ["Ann", "Bo", "Cy"])


@pytest.mark.parametrize("token", ["x", "2" * 26, "a" * 25])
async def test_redraw_needs_the_edit_token(client: Any, token: str) -> None:
    created, before = await made(client, sweep())
    response = await client.post(f"/api/sweeps/{token}/redraw")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/sweeps/{created['slug']}/redraw")
    assert await response.get_json() == NOT_FOUND
    after = await (await client.get(f"/api/sweeps/{created['slug']}")).get_json()
    assert after == before


# --- export -------------------------------------------------------------------------------

async def test_export_contains_the_draw(client: Any) -> None:
    outcomes, names = ["Lions", "Swans", "Cats"], ["Ann", "Bo", "Cy", "Di"]
    created, view = await made(client, sweep(outcomes, names, title="Footy"))
    export = await exported(client, created["editToken"])
    assert export["tool"] == "sweeps"
    assert export["toolVersion"] == "0.1.0"
    assert export["slug"] == created["slug"]
    assert export["title"] == "Footy"
    assert export["data"]["draw"] == view["draw"]
    assert export["data"]["surplus"] == view["surplus"]
    assert export["data"]["outcomes"] == outcomes
    assert export["data"]["names"] == names
    redrawn = await (await client.post(f"/api/sweeps/{created['editToken']}/redraw")).get_json()
    assert (await exported(client, created["editToken"]))["data"]["draw"] == redrawn["draw"]


async def test_public_read_never_shows_the_edit_token(client: Any) -> None:
    created = await create(client, "sweeps", sweep())
    text = (await (await client.get(f"/api/sweeps/{created['slug']}")).get_data()).decode()
    assert created["editToken"] not in text
    assert set(json.loads(text)) == {"title", "heading", "kind", "wording", "draw", "surplus"}


# --- pages --------------------------------------------------------------------------------

async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    assert response.content_type.startswith("text/html")
    return (await response.get_data()).decode()


async def test_create_page(client: Any) -> None:
    text = await page(client, "/new/sweeps")
    assert 'data-api="/api/sweeps"' in text
    for field in ('name="title"', 'name="kind" value="final"', 'name="kind" value="cup"',
                  'name="outcomes:lines"', 'name="names:lines"'):
        assert field in text
    assert text.count("data-lines") == 2


async def test_public_and_organiser_pages_show_the_draw(client: Any) -> None:
    created, view = await made(client, sweep(["Lions", "Swans", "Cats"],
                                             ["Ann", "Bo", "Cy", "Di"], kind="cup"))
    public = await page(client, f"/s/{created['slug']}")
    organiser = await page(client, f"/e/{created['editToken']}")
    for text in (public, organiser):
        assert "<h1>Cup sweep</h1>" in text
        for pair in view["draw"]:
            assert f"<tr><td>{pair['outcome']}</td><td>{pair['name']}</td></tr>" in text
        assert "Not drawn this time" in text
        assert f"<li>{view['surplus'][0]}</li>" in text
    assert "the race" in public
    assert created["editToken"] not in public
    assert f'data-post="/api/sweeps/{created["editToken"]}/redraw"' in organiser


async def test_grand_final_wording_on_pages(client: Any) -> None:
    created, _ = await made(client, sweep(kind="Cup"))
    public = await page(client, f"/s/{created['slug']}")
    assert "<h1>Grand final sweep</h1>" in public
    assert "the grand final" in public
    assert "Not drawn this time" not in public


async def test_pages_escape_user_text(client: Any) -> None:
    created, _ = await made(client, sweep(
        [NASTY, "<b>bold</b>", "\"'quoted'\""], ["<img src=x onerror=alert(2)>", "O'Brien"],
        title=NASTY))
    for path in (f"/s/{created['slug']}", f"/e/{created['editToken']}"):
        text = await page(client, path)
        assert NASTY not in text
        assert "<script>alert" not in text
        assert ESCAPED in text
        assert "<b>bold</b>" not in text
        assert "&lt;b&gt;bold&lt;/b&gt;" in text
        assert "<img src=x" not in text
        assert "&lt;img src=x onerror=alert(2)&gt;" in text
        assert "&#34;&#39;quoted&#39;&#34;" in text
        assert "O&#39;Brien" in text
        assert html.unescape(ESCAPED) == NASTY


async def test_page_headers(client: Any) -> None:
    created = await create(client, "sweeps", sweep())
    public = await client.get(f"/s/{created['slug']}")
    organiser = await client.get(f"/e/{created['editToken']}")
    for response in (public, organiser):
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert "noindex" in response.headers["X-Robots-Tag"]
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert organiser.headers["Cache-Control"] == "no-store"


# --- delete -------------------------------------------------------------------------------

async def test_delete_makes_every_credential_404(client: Any) -> None:
    created = await create(client, "sweeps", sweep())
    slug, edit = created["slug"], created["editToken"]
    never = await page(client, "/s/sweeps-23456789abcdef", 404)
    response = await client.post(f"/api/sweeps/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    assert await (await client.get(f"/api/sweeps/{slug}")).get_json() == NOT_FOUND
    for path in ("redraw", "export", "delete"):
        response = await client.post(f"/api/sweeps/{edit}/{path}")
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND
    for path in (f"/s/{slug}", f"/e/{edit}"):
        assert await page(client, path, 404) == never


async def test_openapi_documents_sweeps(client: Any) -> None:
    document = await (await client.get("/openapi.json")).get_json()
    for path in ("/api/sweeps", "/api/sweeps/{slug}", "/api/sweeps/{editToken}/redraw",
                 "/api/sweeps/{editToken}/delete", "/api/sweeps/{editToken}/export"):
        assert path in document["paths"]
