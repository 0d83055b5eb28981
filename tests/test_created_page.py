"""A create without JavaScript lands on the created page: the organiser and share links in
place of the create form (so a second tap cannot make a second group), never cached, and
gone once read."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

FORM = {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin"}


async def test_the_created_page_shows_the_links_instead_of_the_form(make_app: Any) -> None:
    client = make_app(tools=["card"]).test_client()
    response = await client.post("/api/card", data=urlencode([("recipient", "Margaret")]),
                                 headers=FORM)
    assert response.status_code == 303
    created = await client.get("/new/card")
    page = await created.get_data(as_text=True)
    edit = re.search(r'<a href="/e/(\w+)">', page)
    assert edit and re.search(r'<a href="/s/[\w-]+">', page)
    assert 'action="/api/card"' not in page  # no blank form one tap from a second create
    assert page.count(edit[1]) == 2  # the link and its text, nowhere else on the page
    assert created.headers["Cache-Control"] == "no-store"
    again = await (await client.get("/new/card")).get_data(as_text=True)
    assert edit[1] not in again and 'action="/api/card"' in again


async def test_an_organiser_form_keeps_its_form_after_saving(make_app: Any) -> None:
    """Only a create page trades its form for the links."""
    client = make_app(tools=["card"]).test_client()
    made = await (await client.post("/api/card", json={"recipient": "Margaret"})).get_json()
    page_path = f"/e/{made['editToken']}"
    action = f"/api/card/{made['editToken']}/edit"
    await client.post(action, data=urlencode([("recipient", "Meg")]),
                      headers={**FORM, "Referer": f"http://localhost{page_path}"})
    page = await (await client.get(page_path)).get_data(as_text=True)
    assert "Saved." in page and f'action="{action}"' in page


async def test_the_created_page_needs_no_match_of_the_forms_hidden_fields(
        make_app: Any) -> None:
    """A role game made from a preset: the blank create page's hidden `preset` is no longer
    what was sent, and the links still take the form's place."""
    client = make_app(tools=["roles"]).test_client()
    await client.post("/api/roles", headers=FORM, data=urlencode([
        ("preset", "mafia"), ("roles.0.name", "Mafia"), ("roles.0.count:number", "2"),
        ("roles.1.name", "Detective"), ("roles.1.count:number", "1")]))
    page = await (await client.get("/new/roles")).get_data(as_text=True)
    assert re.search(r'<a href="/e/\w+">', page) and 'action="/api/roles"' not in page
