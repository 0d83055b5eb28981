"""The pages: what they offer, that they escape every user string, that the results sit in
a live region, and that the organiser page shows no more than the public one."""

from __future__ import annotations

import datetime as dt
from typing import Any

NASTY = '<script>alert("x")</script>'


async def test_public_page_offers_the_check_in(api: Any, pulse: dict[str, str]) -> None:
    page = await api.text(f"/s/{pulse['slug']}")
    assert "<h1>Platform team</h1>" in page
    assert 'data-api="/api/pulse/respond"' in page
    assert page.count('type="radio" name="score:number"') == 5
    assert 'name="words"' in page
    assert '<section id="pulse-results" class="pulse-results" data-live-region' in page
    assert "How was your week?" in page
    assert "Thanks" not in page


async def test_thanks_after_checking_in(api: Any, pulse: dict[str, str]) -> None:
    page = await api.text(f"/s/{pulse['slug']}?thanks=1")
    assert "Thanks — you're checked in for this week." in page


async def test_every_user_string_is_escaped(api: Any) -> None:
    made = await api.create({"team": NASTY, "question": NASTY})
    for score in (1, 2, 3, 4):
        await api.responded(made["slug"], score, NASTY)
    for path in (f"/s/{made['slug']}", f"/e/{made['editToken']}"):
        page = await api.text(path)
        assert NASTY not in page
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page


async def test_link_preview_carries_team_and_question(api: Any) -> None:
    made = await api.create({"team": "Data crew", "question": "Energy this week?"})
    page = await api.text(f"/s/{made['slug']}")
    assert '<meta property="og:title" content="Data crew">' in page
    assert '<meta name="description" content="Energy this week?">' in page


async def test_the_default_question_speaks_the_readers_language_a_typed_one_stays(
        api: Any, client: Any) -> None:
    """The question left empty is the tool's own, so a German reader reads it in German;
    one the organiser typed is shown as typed, even when it is also one of the tool's own
    words ("Average" is "Durchschnitt" in the tool's catalog)."""
    german = {"Accept-Language": "de"}
    for question, shown in (("", "Wie war deine Woche?"), ("Average", "Average")):
        made = await api.create({"team": "Data crew", "question": question})
        response = await client.get(f"/s/{made['slug']}", headers=german)
        page = (await response.get_data()).decode()
        assert f'<meta name="description" content="{shown}">' in page, question
        english = await api.text(f"/s/{made['slug']}")
        assert f'<meta name="description" content="{question or "How was your week?"}">' \
            in english


async def test_link_preview_of_a_pulse_without_a_team_names_the_tool(api: Any) -> None:
    made = await api.create({"team": ""})
    page = await api.text(f"/s/{made['slug']}")
    assert '<meta property="og:title" content="Weekly pulse">' in page


async def test_organiser_page_shows_the_same_results(api: Any, pulse: dict[str, str]) -> None:
    for score in (2, 4, 4):
        await api.responded(pulse["slug"], score, f"Private words {score}")
    page = await api.text(f"/e/{pulse['editToken']}")
    assert "3</strong> responses" in page
    assert "Private words" not in page
    assert "1 to go" in page
    assert f'data-api="/api/pulse/{pulse["editToken"]}/edit"' in page
    await api.responded(pulse["slug"], 5, "now shown")
    page = await api.text(f"/e/{pulse['editToken']}")
    assert "now shown" in page and "Private words 4" in page
    assert page.count("<meter") == 5


async def test_create_page_has_the_fields(api: Any) -> None:
    page = await api.text("/new/pulse")
    for field in ('name="team"', 'name="question"',
                  'type="checkbox" name="askWords:bool" value="true" checked'):
        assert field in page


async def test_cached_views_turn_to_the_new_week(app: Any, api: Any, pulse: dict[str, str],
                                                 clock: Any) -> None:
    """The read and the page are kept between responses, and move to the new Sydney week
    at its first moment with no response at all."""
    cache = app.config["GROUPKIT_RENDERED"]
    await api.responded(pulse["slug"], 4)
    # Sunday 22 November 2026, 23:59:59.999999 in Sydney (UTC+11).
    clock.set(dt.datetime(2026, 11, 22, 12, 59, 59, 999999, tzinfo=dt.UTC))
    assert (await api.read(pulse["slug"]))["thisWeek"] == "2026-11-16"
    await api.text(f"/s/{pulse['slug']}")
    renders = cache.renders
    assert (await api.read(pulse["slug"]))["thisWeek"] == "2026-11-16"
    await api.text(f"/s/{pulse['slug']}")
    assert cache.renders == renders  # served from memory
    assert ("pulse", "json:public") not in cache.clock_bound
    clock.advance(microseconds=1)
    view = await api.read(pulse["slug"])
    assert view["thisWeek"] == "2026-11-23"
    assert "2026-11-23" in view["weeks"][0]["week"]
    assert "Week of 23 Nov 2026" in await api.text(f"/s/{pulse['slug']}")
