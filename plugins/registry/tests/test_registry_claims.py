"""Claiming parts and chipping in; the organiser's claim list, mark-paid and release."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from groupkit_testing import create

NO_NAME = "Add your name — it goes on the build crew wall."
UNKNOWN_PART = "That part isn't on this build sheet."
TAKEN = "Someone beat you to that one by a whisker."
BAD_AMOUNT = "Pick an amount between $5 and $2,000."
FULL = "The overflow patch is chockers — give your gift to the couple directly."
NO_CLAIM = "That claim isn't on this registry — it may have been released already."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
#: The spec's 404 for an unknown public link; organiser links keep the kernel's one 404.
PUBLIC_NOT_FOUND = {"error": "not found"}


def part(view: dict[str, Any], part_id: str) -> dict[str, Any]:
    return next(entry for entry in view["parts"] if entry["id"] == part_id)


# --- claiming a part ------------------------------------------------------------------------

async def test_claim_returns_reference_amount_and_payment(h: Any, client: Any,
                                                          registry: dict[str, str]) -> None:
    view = await h.read(client, registry["slug"])
    pup = next(entry for entry in view["parts"] if entry["name"] == "Co-pilot pup")
    response = await h.claim(client, registry["slug"], pup["id"], "Aunty Jo", message="Woof")
    assert response.status_code == 201
    reply = await response.get_json()
    assert set(reply) == {"reference", "partId", "item", "amountCents", "payment"}
    assert re.fullmatch(r"VAN-[2-9A-HJ-NP-Z]{6}", reply["reference"])
    assert reply["partId"] == pup["id"] and reply["item"] == "Co-pilot pup"
    assert reply["amountCents"] == pup["priceCents"] == 8000
    assert reply["payment"] == h.payment


async def test_claimed_part_is_shown_built(h: Any, client: Any,
                                           registry: dict[str, str]) -> None:
    await h.claimed(client, registry["slug"], "p042", "  Aunty \n Jo ", message=" Woof\n!  ")
    view = await h.read(client, registry["slug"])
    entry = part(view, "p042")
    assert (entry["claimed"], entry["claimedBy"]) == (True, "Aunty Jo")
    assert view["partsClaimed"] == 1 and view["partsTotal"] == 126
    assert view["crew"] == [{"kind": "part", "partId": "p042", "item": entry["name"],
                             "name": "Aunty Jo", "message": "Woof\n!"}]
    assert not part(view, "p041")["claimed"]


async def test_name_cut_to_60_message_to_240(h: Any, client: Any,
                                             registry: dict[str, str]) -> None:
    await h.claimed(client, registry["slug"], "p001", "n" * 200, message="m" * 1000)
    (crew,) = (await h.read(client, registry["slug"]))["crew"]
    assert crew["name"] == "n" * 60 and crew["message"] == "m" * 240


@pytest.mark.parametrize("message", [None, 5, ["x"], "  "])
async def test_message_is_optional(h: Any, client: Any, registry: dict[str, str],
                                   message: Any) -> None:
    await h.claimed(client, registry["slug"], "p001", message=message)
    assert (await h.read(client, registry["slug"]))["crew"][0]["message"] == ""


@pytest.mark.parametrize("name", [None, "", "   ", 5, True, ["Ann"], {"n": "Ann"}])
async def test_missing_name(h: Any, client: Any, registry: dict[str, str], name: Any) -> None:
    assert await h.error_of(await h.claim(client, registry["slug"], name=name), 400) == NO_NAME


@pytest.mark.parametrize("part_id", ["p000", "p127", "p1", "P001", "p001 ", " p001", "p0001",
                                     "", None, 1, ["p001"], {"id": "p001"}, "overflow",
                                     "Co-pilot pup"])
async def test_unknown_part(h: Any, client: Any, registry: dict[str, str],
                            part_id: Any) -> None:
    response = await h.claim(client, registry["slug"], part_id)
    assert await h.error_of(response, 400) == UNKNOWN_PART


async def test_every_part_id_can_be_claimed(h: Any, client: Any,
                                            registry: dict[str, str]) -> None:
    slug = registry["slug"]
    total = 0
    for n in range(1, 127):
        total += (await h.claimed(client, slug, f"p{n:03d}", f"Guest {n}"))["amountCents"]
    view = await h.read(client, slug)
    assert view["partsClaimed"] == 126 and all(entry["claimed"] for entry in view["parts"])
    assert total == sum(entry["priceCents"] for entry in view["parts"])
    page = (await (await client.get(f"/s/{slug}")).get_data()).decode()
    assert "Every part is built" in page and 'data-registry-form="claim"' not in page


async def test_second_claim_is_409(h: Any, client: Any, registry: dict[str, str]) -> None:
    await h.claimed(client, registry["slug"], "p007", "Ann")
    response = await h.claim(client, registry["slug"], "p007", "Bo")
    assert await h.error_of(response, 409) == TAKEN
    assert part(await h.read(client, registry["slug"]), "p007")["claimedBy"] == "Ann"


async def test_check_order(h: Any, client: Any, registry: dict[str, str]) -> None:
    slug = registry["slug"]
    await h.claimed(client, slug, "p005")
    assert await h.error_of(await h.claim(client, slug, "nope", ""), 400) == NO_NAME
    assert await h.error_of(await h.claim(client, slug, "p005", ""), 400) == NO_NAME
    assert await h.error_of(await h.claim(client, slug, "nope", "Bo"), 400) == UNKNOWN_PART
    assert await h.error_of(await h.claim(client, slug, "p005", "Bo"), 409) == TAKEN


async def test_price_is_never_read_from_the_request(h: Any, client: Any,
                                                    registry: dict[str, str]) -> None:
    price = part(await h.read(client, registry["slug"]), "p003")["priceCents"]
    reply = await h.claimed(client, registry["slug"], "p003", amountCents=1, priceCents=1,
                            price=1, amount=1)
    assert reply["amountCents"] == price
    listed = await h.claims(client, registry["editToken"])
    assert listed[0]["amountCents"] == price


@pytest.mark.parametrize("slug", [None, "", 7, ["mia-sam-23456789abcdef"], "nope",
                                  "mia-sam-23456789abcdef", "Mia & Sam!"])
async def test_unknown_slug_is_404_not_found(h: Any, client: Any, slug: Any) -> None:
    for response in (await h.claim(client, slug), await h.chip_in(client, slug)):
        assert response.status_code == 404
        assert await response.get_json() == PUBLIC_NOT_FOUND


async def test_public_read_of_an_unknown_slug_is_404_not_found(client: Any) -> None:
    for path in ("/api/registry/mia-sam-23456789abcdef",
                 "/api/registry/mia-sam-23456789abcdef/events"):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert await response.get_json() == PUBLIC_NOT_FOUND, path


async def test_slug_of_another_tool_is_404(h: Any, make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["registry", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["a", "b"], "names": ["x", "y"]})
    for response in (await h.claim(client, sweep["slug"]),
                     await h.chip_in(client, sweep["slug"]),
                     await client.get(f"/api/registry/{sweep['slug']}")):
        assert response.status_code == 404
        assert await response.get_json() == PUBLIC_NOT_FOUND
    response = await client.get(f"/api/registry/{sweep['editToken']}/claims")
    assert await response.get_json() == NOT_FOUND


async def test_registries_are_separate(h: Any, client: Any, registry: dict[str, str]) -> None:
    other = await create(client, "registry", {"coupleNames": "Lee & Kai"})
    await h.claimed(client, registry["slug"], "p001", "Ann")
    await h.claimed(client, other["slug"], "p001", "Bo")
    assert part(await h.read(client, other["slug"]), "p001")["claimedBy"] == "Bo"
    assert [c["name"] for c in await h.claims(client, registry["editToken"])] == ["Ann"]


async def test_empty_payment_block_in_the_reply(h: Any, client: Any) -> None:
    made = await create(client, "registry", {"coupleNames": "M", "payment": {"method": "x"}})
    reply = await h.claimed(client, made["slug"])
    assert reply["payment"] == {"method": "", "aliasId": "", "accountName": "", "bsb": "",
                                "accountNumber": "", "note": ""}


# --- chipping in ----------------------------------------------------------------------------

@pytest.mark.parametrize(("amount", "cents"), [(500, 500), (200000, 200000), ("1234", 1234),
                                               (5000.0, 5000), (" 750 ", 750)])
async def test_chip_in(h: Any, client: Any, registry: dict[str, str], amount: Any,
                       cents: int) -> None:
    reply = await h.chipped_in(client, registry["slug"], amount, "Bo", message="For petrol")
    assert set(reply) == {"reference", "partId", "item", "amountCents", "payment"}
    assert reply["partId"] is None and reply["item"] == "Fuel & rego for the first year"
    assert reply["amountCents"] == cents and reply["payment"] == h.payment
    view = await h.read(client, registry["slug"])
    assert view["overflow"]["count"] == 1
    assert view["crew"] == [{"kind": "overflow", "partId": None,
                             "item": "Fuel & rego for the first year", "name": "Bo",
                             "message": "For petrol"}]
    assert str(cents) not in str(view["crew"])


@pytest.mark.parametrize("amount", [499, 200001, 0, -500, 500.5, "5.00", "$50", "", None, True,
                                    [5000], {"c": 5000}, 1e12])
async def test_bad_amount(h: Any, client: Any, registry: dict[str, str], amount: Any) -> None:
    response = await h.chip_in(client, registry["slug"], amount)
    assert await h.error_of(response, 400) == BAD_AMOUNT


async def test_chip_in_check_order(h: Any, client: Any, registry: dict[str, str]) -> None:
    slug = registry["slug"]
    assert await h.error_of(await h.chip_in(client, slug, 1, ""), 400) == BAD_AMOUNT
    assert await h.error_of(await h.chip_in(client, slug, 600, " "), 400) == NO_NAME
    response = await client.post("/api/registry/overflow", json={"slug": slug, "name": "Bo"})
    assert await h.error_of(response, 400) == BAD_AMOUNT


async def test_four_hundred_contributions_then_chockers(h: Any, client: Any,
                                                        registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    for n in range(400):
        last = await h.chipped_in(client, slug, 500 + n, f"Guest {n}")
    assert await h.error_of(await h.chip_in(client, slug), 409) == FULL
    # Validation still comes first; part claims are not affected by the cap.
    assert await h.error_of(await h.chip_in(client, slug, 1), 400) == BAD_AMOUNT
    await h.claimed(client, slug, "p001")
    view = await h.read(client, slug)
    assert view["overflow"]["count"] == 400 and view["overflow"]["open"] is False
    # Releasing one frees exactly one place.
    response = await client.post(f"/api/registry/{edit}/release",
                                 json={"reference": last["reference"]})
    assert response.status_code == 200
    await h.chipped_in(client, slug)
    assert await h.error_of(await h.chip_in(client, slug), 409) == FULL
    assert len(await h.claims(client, edit)) == 401


# --- the organiser --------------------------------------------------------------------------

async def test_claims_list(h: Any, client: Any, registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    first = await h.claimed(client, slug, "p010", "Ann", message="Hi")
    second = await h.chipped_in(client, slug, 7500, "Bo")
    response = await client.get(f"/api/registry/{edit}/claims")
    assert response.headers["Cache-Control"] == "no-store"
    payload = await response.get_json()
    assert payload["payment"] == h.payment
    assert payload["totals"] == {"claimedCents": first["amountCents"] + 7500, "paidCents": 0}
    listed = payload["claims"]
    assert [(c["reference"], c["kind"], c["partId"], c["name"], c["message"], c["amountCents"],
             c["paid"]) for c in listed] == [
        (first["reference"], "part", "p010", "Ann", "Hi", first["amountCents"], False),
        (second["reference"], "overflow", None, "Bo", "", 7500, False)]
    assert all(re.match(r"\d{4}-\d\d-\d\dT", c["claimedAt"]) for c in listed)


async def test_mark_paid_and_unpaid(h: Any, client: Any, registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    made = await h.claimed(client, slug, "p010")
    response = await client.post(f"/api/registry/{edit}/paid",
                                 json={"reference": made["reference"]})
    assert await response.get_json() == {"ok": True, "reference": made["reference"],
                                         "paid": True}
    assert (await h.claims(client, edit))[0]["paid"] is True
    view = await client.post(f"/api/registry/{edit}/export")
    assert (await view.get_json())["data"]["totals"]["paidCents"] == made["amountCents"]
    response = await client.post(f"/api/registry/{edit}/paid",
                                 json={"reference": made["reference"], "paid": False})
    assert (await response.get_json())["paid"] is False
    assert (await h.claims(client, edit))[0]["paid"] is False
    # Paid state never changes what guests see.
    assert part(await h.read(client, slug), "p010")["claimed"] is True


async def test_release_makes_the_part_available(h: Any, client: Any,
                                                registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    made = await h.claimed(client, slug, "p010", "Ann")
    await client.post(f"/api/registry/{edit}/paid", json={"reference": made["reference"]})
    response = await client.post(f"/api/registry/{edit}/release",
                                 json={"reference": made["reference"]})
    assert await response.get_json() == {"ok": True, "partId": "p010"}
    view = await h.read(client, slug)
    assert part(view, "p010")["claimed"] is False and view["crew"] == []
    again = await h.claimed(client, slug, "p010", "Bo")
    assert again["reference"] != made["reference"]
    assert [c["name"] for c in await h.claims(client, edit)] == ["Bo"]


@pytest.mark.parametrize("path", ["paid", "release"])
async def test_unknown_reference_is_404(h: Any, client: Any, registry: dict[str, str],
                                        path: str) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    made = await h.claimed(client, slug)
    other = await create(client, "registry", {"coupleNames": "Lee & Kai"})
    theirs = await h.claimed(client, other["slug"])
    for body in ({"reference": "VAN-ZZZZZZ"}, {"reference": made["reference"].lower()},
                 {"reference": theirs["reference"]}, {"reference": None}, {}):
        response = await client.post(f"/api/registry/{edit}/{path}", json=body)
        assert await h.error_of(response, 404) == NO_CLAIM
    await client.post(f"/api/registry/{edit}/release", json={"reference": made["reference"]})
    response = await client.post(f"/api/registry/{edit}/{path}",
                                 json={"reference": made["reference"]})
    assert await h.error_of(response, 404) == NO_CLAIM
    assert (await h.claims(client, other["editToken"]))[0]["reference"] == theirs["reference"]


@pytest.mark.parametrize(("method", "path"), [("GET", "claims"), ("POST", "paid"),
                                              ("POST", "release")])
async def test_organiser_operations_need_the_edit_token(h: Any, client: Any,
                                                        registry: dict[str, str],
                                                        method: str, path: str) -> None:
    made = await h.claimed(client, registry["slug"])
    for credential in (registry["slug"], "2" * 26, made["reference"]):
        url = f"/api/registry/{credential}/{path}"
        response = await (client.get(url) if method == "GET" else
                          client.post(url, json={"reference": made["reference"]}))
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND
    assert (await h.claims(client, registry["editToken"]))[0]["paid"] is False


async def test_delete_removes_every_claim(h: Any, client: Any,
                                          registry: dict[str, str]) -> None:
    slug, edit = registry["slug"], registry["editToken"]
    made = await h.claimed(client, slug)
    await h.chipped_in(client, slug)
    response = await client.post(f"/api/registry/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    for response in (await client.get(f"/api/registry/{edit}/claims"),
                     await client.post(f"/api/registry/{edit}/paid",
                                       json={"reference": made["reference"]}),
                     await client.post(f"/api/registry/{edit}/release",
                                       json={"reference": made["reference"]}),
                     await client.post(f"/api/registry/{edit}/export")):
        assert response.status_code == 404
        assert await response.get_json() == NOT_FOUND
    for response in (await client.get(f"/api/registry/{slug}"),
                     await h.claim(client, slug, "p002"), await h.chip_in(client, slug)):
        assert response.status_code == 404
        assert await response.get_json() == PUBLIC_NOT_FOUND
