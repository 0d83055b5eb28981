"""The organiser's edit once bub is here: the due date everyone guessed against stays as it
was (until the pool is reopened); whose bub it is and the note still change. The plain
field-by-field edit of an open pool is in the repository's tests/test_edit_details.py."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from lxml import html as lxml_html

from groupkit_testing import edit

SETTLED = "Bub's already here — the due date can't change now."
RESULT = {"date": "2026-03-16", "weightGrams": 3350}


async def arrived(h: Any, client: Any, pool: dict[str, str]) -> None:
    await h.guessed(client, pool["slug"], "Ann", "2026-03-14", 3400)
    response = await client.post(f"/api/baby/{pool['editToken']}/result", json=RESULT)
    assert response.status_code == 200


async def export(client: Any, pool: dict[str, str]) -> dict[str, Any]:
    response = await client.post(f"/api/baby/{pool['editToken']}/export")
    return dict((await response.get_json())["data"])


@pytest.mark.parametrize("due", ["14 March", "", "mid march"])
async def test_the_due_date_stays_once_bub_is_here(h: Any, client: Any, pool: dict[str, str],
                                                   due: str) -> None:
    await arrived(h, client, pool)
    before = await export(client, pool)
    assert await edit(client, "baby", pool["editToken"], {
        "parents": "Priya & Tom S", "dueDate": due, "note": "Cake for the winner."}) == (
        409, {"error": SETTLED, "field": "dueDate"})
    assert await export(client, pool) == before


async def test_the_rest_still_changes_once_bub_is_here(h: Any, client: Any,
                                                      pool: dict[str, str]) -> None:
    await arrived(h, client, pool)
    before = await export(client, pool)
    # The due date sent as it is (as a form posting every field would) is no change.
    assert await edit(client, "baby", pool["editToken"], {
        "parents": "Priya & Tom S", "dueDate": " Mid  March ", "note": "Cake!"}) == (
        200, {"ok": True, "changed": ["dueDate", "note", "parents"]})
    after = await export(client, pool)
    assert (after["title"], after["parents"], after["note"], after["dueDate"]) == (
        "Baby pool for Priya & Tom S", "Priya & Tom S", "Cake!", "Mid March")
    assert (after["result"], after["leaderboard"]) == (before["result"], before["leaderboard"])
    # Reopened, the pool's due date may change again.
    await client.post(f"/api/baby/{pool['editToken']}/result", json={"result": None})
    assert (await edit(client, "baby", pool["editToken"], {"dueDate": "Early April"}))[0] \
        == 200
    assert (await h.read(client, pool["slug"]))["dueDate"] == "Early April"


async def test_the_organiser_form_leaves_the_due_date_out_once_bub_is_here(
        h: Any, client: Any, pool: dict[str, str]) -> None:
    token = pool["editToken"]
    assert 'id="edit-dueDate" name="dueDate"' in await page(client, f"/e/{token}")
    await arrived(h, client, pool)
    html = await page(client, f"/e/{token}")
    assert 'id="edit-dueDate"' not in html
    assert "Bub's here, so the due date stays as it was (Mid March)." in html
    form = lxml_html.fromstring(html).xpath(f'//form[@action="/api/baby/{token}/edit"]')[0]
    assert [name for name, _ in form.form_values()
            if not name.startswith("groupkit-")] == ["parents", "note"]
    # Without the script the form posts what it shows, and it saves.
    posted = await client.post(
        f"/api/baby/{token}/edit", data=urlencode([("parents", "Priya"), ("note", "Cake!")]),
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Sec-Fetch-Site": "same-origin"})
    assert posted.status_code == 303
    assert (await h.read(client, pool["slug"]))["parents"] == "Priya"


async def page(client: Any, path: str) -> str:
    response = await client.get(path)
    assert response.status_code == 200
    return (await response.get_data()).decode()
