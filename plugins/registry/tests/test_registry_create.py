"""POST /api/registry: couple names, the optional fields, the payment block rule and the
overflow title default."""

from __future__ import annotations

import re
from typing import Any

import pytest

from groupkit_testing import create

NO_COUPLE = "Add your names — it's your registry."
DEFAULT_OVERFLOW = "Fuel & rego for the first year"
EMPTY = {"method": "", "aliasId": "", "accountName": "", "bsb": "", "accountNumber": "",
         "note": ""}
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"


async def refused(client: Any, body: Any) -> str:
    response = await client.post("/api/registry", json=body)
    payload = await response.get_json()
    assert response.status_code == 400, payload
    assert set(payload) == {"error"}
    return str(payload["error"])


async def stored(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    """What the organiser's export holds for a registry made with `body`."""
    made = await create(client, "registry", body)
    response = await client.post(f"/api/registry/{made['editToken']}/export")
    return dict((await response.get_json())["data"])


async def test_create_returns_slug_and_edit_token(client: Any) -> None:
    response = await client.post("/api/registry", json={"coupleNames": "Mia & Sam"})
    assert response.status_code == 201
    made = await response.get_json()
    assert set(made) == {"slug", "editToken"}
    assert re.fullmatch(rf"mia-sam-[{ALPHABET}]{{14}}", made["slug"])
    assert re.fullmatch(rf"[{ALPHABET}]{{26}}", made["editToken"])


@pytest.mark.parametrize("names", [None, "", "   ", "\n\t", [], [""], [[]]])
async def test_empty_couple_names(client: Any, names: Any) -> None:
    assert await refused(client, {"coupleNames": names, "payment": {"aliasId": "x"}}) == \
        NO_COUPLE


async def test_missing_couple_names(client: Any) -> None:
    assert await refused(client, {"tagline": "Hi"}) == NO_COUPLE


@pytest.mark.parametrize("body", [b"{nope", b"", b"null", b"[]", b'"Mia"'])
async def test_body_that_is_not_an_object_reads_as_empty(client: Any, body: bytes) -> None:
    response = await client.post("/api/registry", data=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert await response.get_json() == {"error": NO_COUPLE}


@pytest.mark.parametrize(("names", "text"), [
    (42, "42"), (0, "0"), (False, "false"), (True, "true"), (2.5, "2.5"),
    (["Mia", "Sam"], "Mia,Sam"), ({"a": 1}, "[object Object]")])
async def test_non_strings_with_content_are_converted(client: Any, names: Any,
                                                      text: str) -> None:
    data = await stored(client, {"coupleNames": names})
    assert data["coupleNames"] == text


async def test_couple_names_cleaned_and_cut(client: Any) -> None:
    assert (await stored(client, {"coupleNames": "  Mia \n  &\tSam "}))["coupleNames"] == \
        "Mia & Sam"
    assert (await stored(client, {"coupleNames": "m" * 500}))["coupleNames"] == "m" * 80


async def test_optional_fields(client: Any) -> None:
    data = await stored(client, {"coupleNames": "M", "tagline": " a \n b ",
                                 "weddingDate": "  14   March "})
    assert (data["tagline"], data["weddingDate"]) == ("a b", "14 March")
    data = await stored(client, {"coupleNames": "M", "tagline": "t" * 500,
                                 "weddingDate": "d" * 500})
    assert (data["tagline"], data["weddingDate"]) == ("t" * 140, "d" * 60)
    data = await stored(client, {"coupleNames": "M", "tagline": 5, "weddingDate": None})
    assert (data["tagline"], data["weddingDate"]) == ("", "")


@pytest.mark.parametrize("title", [None, "", "   ", 7, ["x"]])
async def test_overflow_title_default(client: Any, title: Any) -> None:
    data = await stored(client, {"coupleNames": "M", "overflowTitle": title})
    assert data["overflow"]["title"] == DEFAULT_OVERFLOW


async def test_overflow_title_given(client: Any) -> None:
    data = await stored(client, {"coupleNames": "M", "overflowTitle": "  Honeymoon \n petrol "})
    assert data["overflow"]["title"] == "Honeymoon petrol"
    data = await stored(client, {"coupleNames": "M", "overflowTitle": "o" * 300})
    assert data["overflow"]["title"] == "o" * 60


async def test_overflow_title_default_with_no_key(client: Any) -> None:
    assert (await stored(client, {"coupleNames": "M"}))["overflow"]["title"] == DEFAULT_OVERFLOW


# --- the payment block ----------------------------------------------------------------------

@pytest.mark.parametrize("key", ["aliasId", "accountName", "bsb", "accountNumber"])
async def test_any_one_identifying_field_keeps_the_block(client: Any, key: str) -> None:
    payment = {"method": " PayID ", "note": " Thanks ", key: "  x  y "}
    data = await stored(client, {"coupleNames": "M", "payment": payment})
    assert data["payment"] == {**EMPTY, "method": "PayID", "note": "Thanks", key: "x y"}


@pytest.mark.parametrize("payment", [
    None, "PayID 0400 000 000", 5, ["aliasId"], True,
    {}, {"method": "PayID", "note": "Pay us please"},
    {"method": "PayID", "aliasId": "   ", "accountName": "\n", "bsb": "", "accountNumber": " ",
     "note": "n"},
    {"aliasId": 412345678, "accountNumber": 10457788, "bsb": ["062"], "accountName": None,
     "method": "Bank", "note": "x"}])
async def test_without_identifying_fields_the_block_is_stored_empty(client: Any,
                                                                   payment: Any) -> None:
    data = await stored(client, {"coupleNames": "M", "payment": payment})
    assert data["payment"] == EMPTY


async def test_no_payment_key_is_stored_empty(client: Any) -> None:
    assert (await stored(client, {"coupleNames": "M"}))["payment"] == EMPTY


async def test_payment_fields_cleaned_and_cut(client: Any) -> None:
    payment = {"method": "m" * 100, "aliasId": "a" * 100, "accountName": "n" * 100,
               "bsb": "0" * 30, "accountNumber": "9" * 40, "note": "t" * 500,
               "extra": "dropped"}
    data = await stored(client, {"coupleNames": "M", "payment": payment})
    assert data["payment"] == {"method": "m" * 40, "aliasId": "a" * 80,
                               "accountName": "n" * 80, "bsb": "0" * 10,
                               "accountNumber": "9" * 20, "note": "t" * 200}


async def test_no_format_checks(client: Any) -> None:
    payment = {"aliasId": "not an email, not a phone", "bsb": "abc", "accountNumber": "??"}
    data = await stored(client, {"coupleNames": "M", "payment": payment})
    assert data["payment"]["bsb"] == "abc" and data["payment"]["accountNumber"] == "??"


async def test_couple_names_checked_before_anything_else(client: Any) -> None:
    assert await refused(client, {"coupleNames": "", "payment": "bad", "overflowTitle": 5,
                                  "tagline": ["x"]}) == NO_COUPLE
