"""What the OpenAPI document says of Group Vote's own fields: the type a client sends, its
bounds and the rule in words, on every operation that takes them. Client generators build
their models from exactly these entries."""

from __future__ import annotations

from typing import Any

import pytest

OPTIONS = {
    "type": "array", "maxItems": 200,
    "items": {"oneOf": [{"type": "string", "maxLength": 80},
                        {"type": "object", "properties": {"text": {"type": "string"}}}]},
    "description": "first 200 read; each C(80); empties skipped; case-insensitive duplicates "
                   "dropped (first wins); 2 to 30 must remain"}

EDITED_OPTIONS = {
    "type": "array", "maxItems": 200,
    "items": {"oneOf": [{"type": "string", "maxLength": 80},
                        {"type": "object", "properties": {
                            "text": {"type": "string"},
                            "id": {"type": "string",
                                   "description": "the option this entry continues"}}}]},
    "description": "the whole new list, create rules (2 to 30 at most, or as many as the poll "
                   "already has); an entry `{id, text}` continues (renames) that option, a "
                   "plain text is the option of that text (ignoring case) or a new one; "
                   "options left out are removed"}

MAX_PICKS = {
    "type": ["integer", "string", "null"], "minimum": 2, "maximum": 30,
    "description": "multi mode only; absent, null or empty string: no cap; else a whole "
                   "number 2 to 30 (at or above the option count is fine)"}

CLOSES_AT = {
    "type": ["string", "null"], "format": "date-time",
    "description": "optional closing time: ISO 8601 with its offset (`Z` or `+11:00`), still "
                   "to come, within a year; the poll closes itself then (a fraction of a "
                   "second rounds up to the next whole second, so never early). Refused: "
                   "`Give the closing time as a date and time with its time zone, like "
                   "2026-12-24T17:00+11:00.` (no zone or not a time), `That closing time has "
                   "already passed — pick a time still to come.`, `Pick a closing time within "
                   "a year from now.`"}

CHOICES = {"type": "array", "items": {"type": "string", "minLength": 6, "maxLength": 6},
           "description": "option ids; unknown ids dropped, repeats ignored"}


async def body_fields(client: Any, path: str) -> dict[str, Any]:
    document = await (await client.get("/openapi.json")).get_json()
    body = document["paths"][path]["post"]["requestBody"]
    return dict(body["content"]["application/json"]["schema"]["properties"])


async def test_create_documents_the_options_the_cap_and_the_closing_time(client: Any) -> None:
    fields = await body_fields(client, "/api/poll")
    assert fields["options"] == OPTIONS
    assert fields["maxPicks"] == MAX_PICKS
    assert fields["closesAt"] == CLOSES_AT


async def test_the_edit_documents_entries_with_ids_and_the_closing_time(client: Any) -> None:
    fields = await body_fields(client, "/api/poll/{editToken}/edit")
    assert fields["options"] == EDITED_OPTIONS
    assert fields["closesAt"] == CLOSES_AT


@pytest.mark.parametrize("path", ["/api/poll/vote", "/api/poll/v/{token}"])
async def test_a_ballot_documents_its_choices(client: Any, path: str) -> None:
    assert (await body_fields(client, path))["choices"] == CHOICES
