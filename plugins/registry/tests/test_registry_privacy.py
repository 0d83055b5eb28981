"""Payment details appear only in the claimant's own claim reply and to the organiser; the
public claim list never carries references or paid status. Every public response is scanned
for the private values."""

from __future__ import annotations

import html
import json
from typing import Any

PRIVATE_KEYS = ("aliasId", "accountName", "bsb", "accountNumber")


def private_values(payment: dict[str, str]) -> list[str]:
    return [payment[key] for key in (*PRIVATE_KEYS, "note", "method")]


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


async def public_responses(h: Any, client: Any, slug: str) -> dict[str, str]:
    """Every public response a guest (or anyone with the link) can get, as text."""
    texts: dict[str, str] = {}
    for path in (f"/api/registry/{slug}", f"/s/{slug}", "/new/registry",
                 "/static/registry/registry.js", "/openapi.json"):
        response = await client.get(path)
        assert response.status_code == 200, path
        texts[path] = (await response.get_data()).decode()
    refusals = {
        "claim-no-name": await h.claim(client, slug, "p100", ""),
        "claim-unknown-part": await h.claim(client, slug, "p999", "Zed"),
        "claim-taken": await h.claim(client, slug, "p001", "Zed"),
        "overflow-bad-amount": await h.chip_in(client, slug, 1, "Zed"),
        "overflow-no-name": await h.chip_in(client, slug, 600, ""),
    }
    for name, response in refusals.items():
        assert response.status_code in (400, 409), name
        texts[name] = (await response.get_data()).decode()
    return texts


async def test_payment_details_only_in_the_claimants_reply(h: Any, client: Any,
                                                           registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    part_reply = await h.claimed(client, slug, "p001", "Ann", message="Hi")
    fuel_reply = await h.chipped_in(client, slug, 5000, "Bo")
    # The claimant's own replies carry them...
    assert part_reply["payment"] == h.payment == fuel_reply["payment"]
    # ...and nothing else anyone with the share link can reach does.
    texts = await public_responses(h, client, slug)
    secrets = [*private_values(h.payment), part_reply["reference"], fuel_reply["reference"]]
    for name, text in texts.items():
        for secret in secrets:
            assert secret not in text, (name, secret)
    # The organiser sees them all.
    organiser = (await (await client.get(f"/e/{edit}")).get_data()).decode()
    for secret in secrets:
        assert secret in organiser, secret


async def test_public_read_has_no_private_keys(h: Any, client: Any,
                                               registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    made = await h.claimed(client, slug, "p001")
    await h.chipped_in(client, slug, 4321)
    await client.post(f"/api/registry/{edit}/paid", json={"reference": made["reference"]})
    view = await h.read(client, slug)
    assert not keys_in(view) & {"payment", "paid", "reference", "references", "amountCents",
                                "claims", "totals", *PRIVATE_KEYS}
    assert "4321" not in json.dumps(view)  # a contribution's amount is the giver's business


async def test_the_page_carries_no_payment_even_when_the_couple_left_them_out(
        h: Any, client: Any) -> None:
    from groupkit_testing import create

    made = await create(client, "registry", {"coupleNames": "M", "payment": {
        "method": "Cash in a card", "note": "secret note 7781"}})
    text = (await (await client.get(f"/s/{made['slug']}")).get_data()).decode()
    assert "Cash in a card" not in text and "secret note 7781" not in text
    response = await client.post(f"/api/registry/{made['editToken']}/export")
    assert (await response.get_json())["data"]["payment"]["note"] == ""


async def test_create_reply_and_preview_carry_no_payment(h: Any, client: Any) -> None:
    response = await client.post("/api/registry", json=h.body)
    text = (await response.get_data()).decode()
    for secret in private_values(h.payment):
        assert secret not in text
    made = json.loads(text)
    page = (await (await client.get(f"/s/{made['slug']}")).get_data()).decode()
    head = page[:page.index("</head>")]
    assert "Mia &amp; Sam: the wedding van registry" in head
    for secret in private_values(h.payment):
        assert secret not in head


async def test_a_claim_without_javascript_shows_how_to_pay_to_its_sender_once(
        h: Any, app: Any, client: Any, registry: dict[str, str]) -> None:
    """A plain form post (a browser without JavaScript) lands back on the share page: the
    guest sees the receipt (registry/_flash.html) once, through the flash cookie; the
    redirect, the cookie, anyone else's page and the guest's next visit carry none of it."""
    slug, edit = registry["slug"], registry["editToken"]
    response = await client.post("/api/registry/claim", data=f"slug={slug}&partId=p001&name=Ann",
                                 headers={"Content-Type": "application/x-www-form-urlencoded",
                                          "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 303
    (reference,) = [c["reference"] for c in await h.claims(client, edit)]
    secrets = [*private_values(h.payment), reference]
    sent = response.headers["Location"] + response.headers["Set-Cookie"]
    assert not [secret for secret in secrets if secret in sent]
    page = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    receipt = page[page.index('class="registry-receipt"'):page.index("</div>", page.index(
        'class="registry-receipt"'))]
    for secret in secrets:
        assert html.escape(secret, quote=False) in receipt, secret
    again = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    other = (await (await app.test_client().get(f"/s/{slug}")).get_data()).decode()
    for text in (again, other):
        assert not [secret for secret in secrets if html.escape(secret, quote=False) in text]
