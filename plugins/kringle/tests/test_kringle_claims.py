"""Claiming a name, the private page and its JSON, wishlists, and the organiser's reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from groupkit import Instance
from groupkit_kringle.models import KringlePerson
from groupkit_testing import create
from groupkit_testing import error_of

ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
NOT_IN_DRAW = "That name isn't in this draw."
ALREADY = "That name's already been claimed. If it's yours, ask the organiser to reset you."
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]  # the `draw` fixture's


async def claim(client: Any, slug: Any, name: Any) -> Any:
    return await client.post("/api/kringle/claim", json={"slug": slug, "name": name})


async def token_for(client: Any, slug: str, name: str) -> str:
    response = await claim(client, slug, name)
    payload = await response.get_json()
    assert response.status_code == 200, payload
    return str(payload["token"])


async def private(client: Any, token: str) -> dict[str, Any]:
    response = await client.get(f"/api/kringle/p/{token}")
    assert response.status_code == 200
    return dict(await response.get_json())


async def export(client: Any, edit: str) -> dict[str, Any]:
    response = await client.post(f"/api/kringle/{edit}/export")
    assert response.status_code == 200
    return dict((await response.get_json())["data"])


def person(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in view["people"] if p["name"] == name)


# --- claim ---------------------------------------------------------------------------------

async def test_claim_answers_200_with_a_22_character_token(client: Any,
                                                           draw: dict[str, str]) -> None:
    response = await claim(client, draw["slug"], "Cy Cobb")
    assert response.status_code == 200
    payload = await response.get_json()
    assert set(payload) == {"token"}
    assert len(payload["token"]) == 22 and set(payload["token"]) <= set(ALPHABET)
    assert (await private(client, payload["token"]))["name"] == "Cy Cobb"


@pytest.mark.parametrize("typed", ["Cy Cobb", "cy cobb", "  CY   COBB ", "cY\n\tcObB", "Cy Cobb "])
async def test_claim_matches_after_cleaning_ignoring_case(client: Any, draw: dict[str, str],
                                                          typed: str) -> None:
    token = await token_for(client, draw["slug"], typed)
    assert (await private(client, token))["name"] == "Cy Cobb"


async def test_claim_matches_unicode_case(client: Any) -> None:
    made = await create(client, "kringle", {"names": ["Émile Zola", "Ørjan", "Straße"]})
    assert (await private(client, await token_for(client, made["slug"], "ÉMILE ZOLA")))[
        "name"] == "Émile Zola"
    assert (await private(client, await token_for(client, made["slug"], "øRJAN")))[
        "name"] == "Ørjan"
    assert (await private(client, await token_for(client, made["slug"], "STRASSE")))[
        "name"] == "Straße"


async def test_claim_matches_look_alike_letters(client: Any, draw: dict[str, str]) -> None:
    """Names compare the same way everywhere: a name typed with a Cyrillic "А" is the name
    it looks like, so it cannot slip past the claimed check."""
    token = await token_for(client, draw["slug"], "\u0410nn \u0410rcher")
    assert (await private(client, token))["name"] == "Ann Archer"
    response = await client.post("/api/kringle/claim", json={"slug": draw["slug"],
                                                             "name": "Ann Archer"})
    assert response.status_code == 409
    assert (await response.get_json())["error"] == (
        "That name's already been claimed. If it's yours, ask the organiser to reset you.")


async def test_claim_cuts_the_typed_name_to_40(client: Any) -> None:
    long = "L" * 40
    made = await create(client, "kringle", {"names": [long + "ong name", "Bo", "Cy"]})
    token = await token_for(client, made["slug"], long + " and then some")
    assert (await private(client, token))["name"] == long


@pytest.mark.parametrize("name", ["Cy", "Cobb", "Cy Cobbs", "", "   ", None, 42, ["Cy Cobb"],
                                  {"name": "Cy Cobb"}, "Cy-Cobb"])
async def test_claim_of_a_name_not_in_the_draw_is_404(client: Any, draw: dict[str, str],
                                                      name: Any) -> None:
    assert await error_of(await claim(client, draw["slug"], name), 404) == NOT_IN_DRAW


async def test_claim_without_a_name_field_is_404(client: Any, draw: dict[str, str]) -> None:
    response = await client.post("/api/kringle/claim", json={"slug": draw["slug"]})
    assert await error_of(response, 404) == NOT_IN_DRAW


@pytest.mark.parametrize("slug", [None, "", "nope", "office-kris-kringle-23456789abcdef", 7])
async def test_claim_with_a_bad_slug_is_the_common_404(client: Any, draw: dict[str, str],
                                                       slug: Any) -> None:
    response = await claim(client, slug, "Ann Archer")
    assert response.status_code == 404
    assert await response.get_json() == NOT_FOUND


async def test_claim_with_another_tools_slug_is_404(make_app: Callable[..., Any]) -> None:
    client = make_app(tools=["kringle", "sweeps"]).test_client()
    sweep = await create(client, "sweeps", {"outcomes": ["A", "B"], "names": ["Ann", "Bo"]})
    response = await claim(client, sweep["slug"], "Ann")
    assert await response.get_json() == NOT_FOUND


async def test_claimed_twice_is_409_whatever_the_case(client: Any, draw: dict[str, str]) -> None:
    first = await token_for(client, draw["slug"], "Di Dunlop")
    for typed in ("Di Dunlop", "di dunlop", " DI  DUNLOP"):
        assert await error_of(await claim(client, draw["slug"], typed), 409) == ALREADY
    # The first claim's link is untouched by the refused ones.
    assert (await private(client, first))["name"] == "Di Dunlop"
    assert (await client.get(f"/p/{first}")).status_code == 200


async def test_unknown_name_is_checked_before_claimed(client: Any, draw: dict[str, str]) -> None:
    await token_for(client, draw["slug"], "Ann Archer")
    assert await error_of(await claim(client, draw["slug"], "Ann Archers"), 404) == NOT_IN_DRAW


async def test_each_claim_gets_its_own_token(client: Any, draw: dict[str, str]) -> None:
    tokens = [await token_for(client, draw["slug"], name) for name in NAMES]
    assert len(set(tokens)) == len(NAMES)
    views = [await private(client, token) for token in tokens]
    assert [view["name"] for view in views] == NAMES


async def test_claims_show_as_claimed(client: Any, draw: dict[str, str]) -> None:
    await token_for(client, draw["slug"], "Bo Bramble")
    public = await (await client.get(f"/api/kringle/{draw['slug']}")).get_json()
    assert [p["claimed"] for p in public["people"]] == [False, True, False, False, False]
    organiser = await export(client, draw["editToken"])
    bo = person(organiser, "Bo Bramble")
    assert bo["claimed"] is True and bo["claimedAt"].endswith("+00:00")
    assert bo["opened"] is False and bo["openedAt"] is None
    assert organiser["claimedCount"] == 1 and organiser["openedCount"] == 0


# --- the private page and its JSON ---------------------------------------------------------

async def test_private_json_shape(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Ann Archer")
    view = await private(client, token)
    assert set(view) == {"title", "heading", "budget", "exchangeDate", "note", "name",
                         "giftee", "gifteeWishlist", "myWishlist"}
    assert (view["title"], view["budget"], view["exchangeDate"], view["note"]) == (
        "Office Kris Kringle", "$30", "Friday 19 December", "Gifts under the kitchen tree.")
    assert view["giftee"] != "Ann Archer"
    assert (view["gifteeWishlist"], view["myWishlist"]) == ("", "")


@pytest.mark.parametrize("token", ["2" * 22, "short", "2" * 23, "I" * 22])
async def test_unknown_private_tokens_are_404(client: Any, draw: dict[str, str],
                                              token: str) -> None:
    response = await client.get(f"/api/kringle/p/{token}")
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": "x"})
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await client.get(f"/p/{token}")).status_code == 404


async def test_opening_the_page_is_noted_once(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Ed Ekins")
    await private(client, token)  # the JSON read is not "opening the page"
    assert person(await export(client, draw["editToken"]), "Ed Ekins")["opened"] is False
    def version() -> int:
        return int(Instance.get(Instance.slug == draw["slug"]).version)

    before = version()
    assert (await client.get(f"/p/{token}")).status_code == 200
    # The first opening tells open organiser pages (a new version); later ones change nothing.
    assert version() == before + 1
    assert (await client.get(f"/p/{token}")).status_code == 200
    assert version() == before + 1
    first = person(await export(client, draw["editToken"]), "Ed Ekins")
    assert first["opened"] is True and first["openedAt"].endswith("+00:00")
    assert (await client.get(f"/p/{token}")).status_code == 200
    assert person(await export(client, draw["editToken"]), "Ed Ekins") == first


# --- wishlists -----------------------------------------------------------------------------

async def santa_of(client: Any, slug: str, name: str, tokens: dict[str, str]) -> str:
    for giver, token in tokens.items():
        if (await private(client, token))["giftee"] == name:
            return giver
    raise AssertionError(name)


async def everyone(client: Any, slug: str) -> dict[str, str]:
    return {name: await token_for(client, slug, name) for name in NAMES}


async def test_wishlist_reaches_only_the_santa(client: Any, draw: dict[str, str]) -> None:
    tokens = await everyone(client, draw["slug"])
    response = await client.post(f"/api/kringle/p/{tokens['Cy Cobb']}/wishlist",
                                 json={"text": "  Hot sauce\nand socks  "})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "wishlist": "Hot sauce\nand socks"}
    santa = await santa_of(client, draw["slug"], "Cy Cobb", tokens)
    for name, token in tokens.items():
        view = await private(client, token)
        if name == santa:
            assert view["gifteeWishlist"] == "Hot sauce\nand socks"
        else:
            assert view["gifteeWishlist"] == ""
        assert view["myWishlist"] == ("Hot sauce\nand socks" if name == "Cy Cobb" else "")
    page = (await (await client.get(f"/p/{tokens[santa]}")).get_data()).decode()
    assert "Hot sauce\nand socks" in page


@pytest.mark.parametrize(("text", "stored"), [
    ("w" * 600, "w" * 500),
    ("  " + "w" * 500 + "  ", "w" * 500),
    ("a\r\nb\r\n", "a\nb"),
    ("é" * 501, "é" * 500),
    ("", ""),
    (None, ""),
    (17, ""),
    (["socks"], ""),
])
async def test_wishlist_is_cut_to_500_never_refused(client: Any, draw: dict[str, str],
                                                    text: Any, stored: str) -> None:
    token = await token_for(client, draw["slug"], "Bo Bramble")
    await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": "first"})
    response = await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": text})
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "wishlist": stored}
    assert (await private(client, token))["myWishlist"] == stored


async def test_wishlist_can_be_saved_again(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Bo Bramble")
    for text in ("Books", "Books, or a plant", "Just chocolate"):
        await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": text})
    assert (await private(client, token))["myWishlist"] == "Just chocolate"


async def test_wishlist_with_unreadable_body_clears(client: Any, draw: dict[str, str]) -> None:
    token = await token_for(client, draw["slug"], "Bo Bramble")
    await client.post(f"/api/kringle/p/{token}/wishlist", json={"text": "Books"})
    response = await client.post(f"/api/kringle/p/{token}/wishlist", data="{oops",
                                 headers={"Content-Type": "application/json"})
    assert await response.get_json() == {"ok": True, "wishlist": ""}


# --- reset ---------------------------------------------------------------------------------

async def reset(client: Any, edit: str, name: Any) -> Any:
    return await client.post(f"/api/kringle/{edit}/reset", json={"name": name})


async def test_reset_kills_the_old_token_and_reclaim_gets_a_fresh_one(
        client: Any, draw: dict[str, str]) -> None:
    slug, edit = draw["slug"], draw["editToken"]
    old = await token_for(client, slug, "Ann Archer")
    giftee = (await private(client, old))["giftee"]
    await client.post(f"/api/kringle/p/{old}/wishlist", json={"text": "Mystery novels"})
    assert (await client.get(f"/p/{old}")).status_code == 200

    response = await reset(client, edit, "  ann ARCHER ")
    assert response.status_code == 200
    assert await response.get_json() == {"ok": True, "reset": True}

    # The old link no longer shows the draw, but says what happened (never silently dead).
    page = await client.get(f"/p/{old}")  # an invalid credential: 404, never cached
    assert (page.status_code, page.headers["Cache-Control"]) == (404, "no-store")
    body = (await page.get_data()).decode()
    assert "The organiser reset this link" in body and "Ann Archer" in body
    assert giftee not in body and "Mystery novels" not in body
    response = await client.get(f"/api/kringle/p/{old}")
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    response = await client.post(f"/api/kringle/p/{old}/wishlist", json={"text": "x"})
    assert response.status_code == 404 and await response.get_json() == NOT_FOUND

    ann = person(await export(client, edit), "Ann Archer")
    assert (ann["claimed"], ann["claimedAt"], ann["opened"], ann["openedAt"]) == (
        False, None, False, None)
    public = await (await client.get(f"/api/kringle/{slug}")).get_json()
    assert person(public, "Ann Archer")["claimed"] is False

    fresh = await token_for(client, slug, "Ann Archer")
    assert fresh != old
    view = await private(client, fresh)
    assert view["giftee"] == giftee            # same person to buy for
    assert view["myWishlist"] == ""            # the old wishlist is wiped
    assert await error_of(await claim(client, slug, "Ann Archer"), 409) == ALREADY


async def test_reset_of_an_unclaimed_name_changes_nothing(client: Any,
                                                          draw: dict[str, str]) -> None:
    response = await reset(client, draw["editToken"], "Bo Bramble")
    assert await response.get_json() == {"ok": True, "reset": False}
    assert (await claim(client, draw["slug"], "Bo Bramble")).status_code == 200


async def test_reset_leaves_other_people_alone(client: Any, draw: dict[str, str]) -> None:
    bo = await token_for(client, draw["slug"], "Bo Bramble")
    await client.post(f"/api/kringle/p/{bo}/wishlist", json={"text": "Tea"})
    await token_for(client, draw["slug"], "Cy Cobb")
    await reset(client, draw["editToken"], "Cy Cobb")
    assert (await private(client, bo))["myWishlist"] == "Tea"
    assert person(await export(client, draw["editToken"]), "Bo Bramble")["claimed"] is True


@pytest.mark.parametrize("name", ["Nobody", "", None, 3, "Ann"])
async def test_reset_of_a_name_not_in_the_draw_is_404(client: Any, draw: dict[str, str],
                                                      name: Any) -> None:
    assert await error_of(await reset(client, draw["editToken"], name), 404) == NOT_IN_DRAW


@pytest.mark.parametrize("token", ["nope", "2" * 26])
async def test_reset_needs_the_edit_token(client: Any, draw: dict[str, str], token: str) -> None:
    mine = await token_for(client, draw["slug"], "Ann Archer")
    for path in (f"/api/kringle/{token}/reset", f"/api/kringle/{draw['slug']}/reset",
                 f"/api/kringle/{mine}/reset"):
        response = await client.post(path, json={"name": "Ann Archer"})
        assert response.status_code == 404 and await response.get_json() == NOT_FOUND
    assert (await private(client, mine))["name"] == "Ann Archer"


async def test_a_participant_token_opens_nothing_else(client: Any, draw: dict[str, str]) -> None:
    mine = await token_for(client, draw["slug"], "Ann Archer")
    for path in ("redraw", "export", "delete"):
        response = await client.post(f"/api/kringle/{mine}/{path}")
        assert response.status_code == 404
    assert (await client.get(f"/e/{mine}")).status_code == 404
    assert (await client.get(f"/s/{mine}")).status_code == 404


# --- delete --------------------------------------------------------------------------------

async def test_delete_kills_every_link_and_row(client: Any, draw: dict[str, str]) -> None:
    slug, edit = draw["slug"], draw["editToken"]
    token = await token_for(client, slug, "Ann Archer")
    instance_id = Instance.get(Instance.slug == slug).id
    response = await client.post(f"/api/kringle/{edit}/delete")
    assert await response.get_json() == {"ok": True, "deleted": True}
    assert KringlePerson.select().where(KringlePerson.instance == instance_id).count() == 0
    calls = [("GET", f"/api/kringle/{slug}", None), ("GET", f"/api/kringle/p/{token}", None),
             ("POST", "/api/kringle/claim", {"slug": slug, "name": "Bo Bramble"}),
             ("POST", f"/api/kringle/p/{token}/wishlist", {"text": "x"}),
             ("POST", f"/api/kringle/{edit}/reset", {"name": "Ann Archer"}),
             ("POST", f"/api/kringle/{edit}/redraw", None),
             ("POST", f"/api/kringle/{edit}/export", None),
             ("POST", f"/api/kringle/{edit}/delete", None)]
    for method, path, body in calls:
        response = await (client.get(path) if method == "GET"
                          else client.post(path, json=body or {}))
        assert response.status_code == 404, path
        assert await response.get_json() == NOT_FOUND, path
    for path in (f"/s/{slug}", f"/e/{edit}", f"/p/{token}"):
        assert (await client.get(path)).status_code == 404
