"""Request logs are structured and never carry a credential: not the slug, not the
editToken, not a participant token, not a claim secret, whatever the request did."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from groupkit.core._logs import JsonFormatter
from groupkit.core._logs import redact
from groupkit_testing import create


def test_redact_hides_every_capability_segment() -> None:
    assert redact("/e/abcdefghjkmnpqrstuvwxyz234") == "/e/…"
    assert redact("/api/demo/p/abcdefghjkmnpqrstuvwx/whoami") == "/api/demo/p/…/whoami"
    assert redact("/api/demo/claim") == "/api/demo/claim"
    assert redact("/static/groupkit.css") == "/static/groupkit.css"


async def test_no_credential_reaches_the_logs(client: Any, caplog: pytest.LogCaptureFixture
                                              ) -> None:
    caplog.set_level(logging.INFO)
    created = await create(client, "demo", {"title": "Secret party", "names": ["Ann"]})
    slug, edit = created["slug"], created["editToken"]
    token = (await (await client.post("/api/demo/join", json={"slug": slug, "text": "Ann"})
                    ).get_json())["token"]
    secret = (await (await client.post("/api/demo/claim", json={
        "slug": slug, "slotId": "s1", "name": "Ann"})).get_json())["secret"]
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{token}", f"/api/demo/{slug}",
                 f"/e/{edit[:-1]}z", f"/p/{token}x", f"/api/demo/{slug}/count"):
        await client.get(path)
    await client.post(f"/api/demo/p/{token}/whoami")
    await client.post(f"/api/demo/{edit}/export")
    await client.post("/api/demo/unclaim", json={"slug": slug, "slotId": "s1",
                                                 "secret": secret})
    await client.post("/api/demo/boom", json={"slug": slug})
    access = [record for record in caplog.records if record.name == "groupkit.access"]
    assert len(access) >= 12
    logged = caplog.text + "".join(JsonFormatter().format(r) for r in caplog.records)
    for credential in (slug, edit, token, secret):
        assert credential not in logged


async def test_access_records_are_json_with_method_path_status_and_duration(
        client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="groupkit.access")
    await client.get("/e/abcdefghjkmnpqrstuvwxyz234")
    record = next(r for r in caplog.records if r.name == "groupkit.access")
    entry = json.loads(JsonFormatter().format(record))
    assert entry["method"] == "GET" and entry["path"] == "/e/…" and entry["status"] == 404
    assert isinstance(entry["ms"], float) and entry["ms"] >= 0
    assert entry["logger"] == "groupkit.access" and entry["level"] == "info"


async def test_mangled_truncated_and_concatenated_links_never_reach_the_logs(
        client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    created = await create(client, "demo", {"title": "Secret party", "names": ["Ann"]})
    slug, edit = created["slug"], created["editToken"]
    tail = slug.rsplit("-", 1)[1]
    mangled = [f"/{edit}", f"/e{edit}", f"/e/{edit[:15]}", f"/e/{edit[:8]}", f"/{edit[:10]}",
               f"/s/{slug}/e/{edit}", f"/e/{edit}https://x.org/s/{slug}", f"/s{slug}",
               f"/api/demo/{edit}x/export", f"/p/{edit[:12]}/whoami", f"/e/{edit}%20",
               f"/api/demo/{slug[:-3]}/events", f"/e/{edit.upper()}"]
    for path in mangled:
        await client.get(path)
    logged = caplog.text + "".join(JsonFormatter().format(r) for r in caplog.records)
    for piece in (edit, edit[:8], edit[-8:], edit.upper()[:8], tail[:6], tail[-6:]):
        assert piece not in logged
    paths = [r.path for r in caplog.records if r.name == "groupkit.access"]  # type: ignore[attr-defined]
    assert "/api/demo/…/events" in paths and "/e/…" in paths


def test_redact_keeps_route_words_and_hides_every_run_of_the_alphabet() -> None:
    assert redact("/e/2345678z") == "/e/…"            # cut short, under 16 characters
    assert redact("/e2345678abcdefghjk") == "/…"      # glued to the route letter
    assert redact("/x/abc") == "/x/abc"               # too short to carry a credential
