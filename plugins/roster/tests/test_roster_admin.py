"""GET /api/roster/{editToken}/admin: the coordinator's CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from groupkit_testing import create

NOT_FOUND = {"error": "Nothing here — check the link you were given."}
HEADER = ["Shift", "Shift start", "Spot", "Slot ID", "Name", "Message", "Claimed at (UTC)"]


async def csv_rows(client: Any, edit_token: str) -> list[list[str]]:
    response = await client.get(f"/api/roster/{edit_token}/admin")
    assert response.status_code == 200
    text = (await response.get_data()).decode()
    assert text.startswith("\ufeff")  # the byte-order mark spreadsheets need to read UTF-8
    return list(csv.reader(io.StringIO(text[1:], newline="")))


async def sign(client: Any, slug: str, slot_id: str, name: str, message: str = "") -> None:
    response = await client.post("/api/roster/claim", json={
        "slug": slug, "slotId": slot_id, "name": name, "message": message})
    assert response.status_code == 201


async def test_headers_no_store_and_not_indexed(client: Any, roster: dict[str, str]) -> None:
    response = await client.get(f"/api/roster/{roster['editToken']}/admin")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
    assert response.headers["Content-Disposition"] == \
        f'attachment; filename="roster-{roster["slug"]}.csv"'


async def test_one_row_per_spot_in_roster_order(client: Any, roster: dict[str, str]) -> None:
    await sign(client, roster["slug"], "s0-2", "Ann", "Late by ten")
    await sign(client, roster["slug"], "s1-1", "Bo")
    rows = await csv_rows(client, roster["editToken"])
    assert rows[0] == HEADER
    body = rows[1:]
    assert [row[:5] for row in body] == [
        ["Setup 7-9am", "2026-03-14 07:00", "1", "s0-1", ""],
        ["Setup 7-9am", "2026-03-14 07:00", "2", "s0-2", "Ann"],
        ["Setup 7-9am", "2026-03-14 07:00", "3", "s0-3", ""],
        ["Pack down", "", "1", "s1-1", "Bo"],
        ["Pack down", "", "2", "s1-2", ""]]
    assert [row[5] for row in body] == ["", "Late by ten", "", "", ""]
    assert all(len(row) == len(HEADER) for row in body)
    assert body[1][6][:4].isdigit() and body[0][6] == ""


async def test_quoting_is_left_to_the_csv_module(client: Any) -> None:
    made = await create(client, "roster", {"shifts": [
        {"label": 'Bar, "front" desk', "capacity": 1}, {"label": "Kitchen", "capacity": 1}]})
    await sign(client, made["slug"], "s0-1", 'O\'Brien, "Bob"', 'Bring, "stuff"; ok')
    response = await client.get(f"/api/roster/{made['editToken']}/admin")
    text = (await response.get_data()).decode()
    assert '"Bar, ""front"" desk"' in text
    assert text.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1][0] == 'Bar, "front" desk'
    assert rows[1][4:6] == ['O\'Brien, "Bob"', 'Bring, "stuff"; ok']
    assert len(rows) == 3


@pytest.mark.parametrize("dangerous", ["=HYPERLINK(\"http://x\")", "+1+2", "-3+4", "@SUM(A1)",
                                       "=1+1"])
async def test_formula_injection_is_defused(client: Any, dangerous: str) -> None:
    made = await create(client, "roster", {"shifts": [{"label": dangerous, "capacity": 1}]})
    await sign(client, made["slug"], "s0-1", dangerous, dangerous)
    rows = await csv_rows(client, made["editToken"])
    label, name, message = rows[1][0], rows[1][4], rows[1][5]
    assert label == name == message == "'" + dangerous


async def test_unicode_survives(client: Any) -> None:
    made = await create(client, "roster", {"title": "Fête", "shifts": [
        {"label": "Café 9am", "capacity": 1}]})
    await sign(client, made["slug"], "s0-1", "Zoë 李", "Ça va 👍")
    rows = await csv_rows(client, made["editToken"])
    assert rows[1][0] == "Café 9am"
    assert rows[1][4:6] == ["Zoë 李", "Ça va 👍"]


@pytest.mark.parametrize("token", ["x", "2" * 26, "a" * 27])
async def test_bad_edit_token_is_404(client: Any, token: str) -> None:
    response = await client.get(f"/api/roster/{token}/admin")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_the_slug_does_not_open_the_csv(client: Any, roster: dict[str, str]) -> None:
    response = await client.get(f"/api/roster/{roster['slug']}/admin")
    assert response.status_code == 404
    assert response.content_type == "application/json"


async def test_csv_is_a_read(client: Any, roster: dict[str, str]) -> None:
    response = await client.post(f"/api/roster/{roster['editToken']}/admin")
    assert response.status_code == 405


async def test_csv_after_delete_is_404(client: Any, roster: dict[str, str]) -> None:
    await client.post(f"/api/roster/{roster['editToken']}/delete")
    response = await client.get(f"/api/roster/{roster['editToken']}/admin")
    assert await response.get_json() == NOT_FOUND
