"""Personal links (the organiser hands each person their own link, claiming is off, each page
says when it was first opened), anonymous questions between a Kris Kringle and their giftee,
and resets that are never silent (so an organiser cannot read a giftee unseen)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from groupkit import Instance
from groupkit_kringle.models import KringleMessage
from groupkit_kringle.models import KringlePerson
from groupkit_testing import create

NAMES = ["Ann Archer", "Bo Bramble", "Cy Cobb", "Di Dunlop", "Ed Ekins"]
NOT_FOUND = {"error": "Nothing here — check the link you were given."}
PERSONAL = ("This draw uses personal links, so names can't be claimed here: ask the "
            "organiser for your link.")
OPEN_FIRST = ("Open this personal link's page first: its first opening goes on record, so "
              "nobody can read a personal link unseen.")


async def json_of(response: Any, status: int = 200) -> Any:
    payload = await response.get_json()
    assert response.status_code == status, payload
    return payload


async def page(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status_code == status, path
    return str((await response.get_data()).decode())


async def export(client: Any, edit: str) -> dict[str, Any]:
    return dict((await json_of(await client.post(f"/api/kringle/{edit}/export")))["data"])


def token_of(link: str) -> str:
    match = re.fullmatch(r"/p/([23456789a-z]{22})", link)
    assert match, link
    return match.group(1)


async def personal_draw(client: Any, **extra: Any) -> tuple[dict[str, str], dict[str, str]]:
    made = await create(client, "kringle", {"title": "Family", "names": NAMES,
                                            "personalLinks": True, **extra})
    people = (await export(client, made["editToken"]))["people"]
    return made, {person["name"]: token_of(person["link"]) for person in people}


async def claimed_draw(client: Any, **extra: Any) -> tuple[dict[str, str], dict[str, str]]:
    made = await create(client, "kringle", {"names": NAMES, **extra})
    tokens = {}
    for name in NAMES:
        reply = await json_of(await client.post("/api/kringle/claim", json={
            "slug": made["slug"], "name": name}))
        tokens[name] = reply["token"]
    return made, tokens


# --- personal links ---------------------------------------------------------------------------

async def test_the_organiser_gets_one_link_per_person_and_claiming_is_off(client: Any) -> None:
    made, tokens = await personal_draw(client)
    assert len(set(tokens.values())) == len(NAMES)
    organiser = await page(client, f"/e/{made['editToken']}")
    for name, token in tokens.items():
        assert f"/p/{token}" in organiser and name in organiser
    response = await client.post("/api/kringle/claim", json={"slug": made["slug"],
                                                             "name": "Ann Archer"})
    assert await json_of(response, 409) == {"error": PERSONAL}
    # Even a name that isn't in the draw gets the same answer: nothing to learn by probing.
    response = await client.post("/api/kringle/claim", json={"slug": made["slug"],
                                                             "name": "Zed"})
    assert await json_of(response, 409) == {"error": PERSONAL}
    public = await json_of(await client.get(f"/api/kringle/{made['slug']}"))
    assert public["personalLinks"] is True
    share = await page(client, f"/s/{made['slug']}")
    assert "ask them for yours" in share and 'id="claim-name"' not in share
    # Links are for the organiser only.
    for token in tokens.values():
        assert token not in share and token not in str(public)


async def test_a_personal_page_says_when_it_was_first_opened(client: Any) -> None:
    made, tokens = await personal_draw(client)
    ann = tokens["Ann Archer"]
    # The JSON answers only once the page has been opened, so no reading goes unrecorded.
    assert await json_of(await client.get(f"/api/kringle/p/{ann}"), 409) == {
        "error": OPEN_FIRST}
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    first = await page(client, f"/p/{ann}")
    view = await json_of(await client.get(f"/api/kringle/p/{ann}"))
    opened = dt.datetime.fromisoformat(view["firstOpenedAt"])
    assert before <= opened <= dt.datetime.now(dt.UTC)
    assert "This personal link was first opened on" in first
    assert f'datetime="{view["firstOpenedAt"]}"' in first
    # Opening it again (the owner, later) still shows the first time.
    again = await page(client, f"/p/{ann}")
    assert f'datetime="{view["firstOpenedAt"]}"' in again
    exported = await export(client, made["editToken"])
    ann_row = next(p for p in exported["people"] if p["name"] == "Ann Archer")
    assert ann_row["opened"] is True and ann_row["openedAt"] == view["firstOpenedAt"]
    assert ann_row["claimed"] is False
    # Wishlists work the same with personal links.
    response = await client.post(f"/api/kringle/p/{ann}/wishlist", json={"text": "Tea"})
    assert (await json_of(response))["wishlist"] == "Tea"


@pytest.mark.parametrize("write", ["wishlist", "ask"])
async def test_writing_through_an_unopened_link_goes_on_record(client: Any, write: str) -> None:
    """Whoever holds a link nobody has opened (the organiser, say) cannot write a wishlist
    or ask a question as its owner unseen: the write is the link's first opening, on the
    owner's page and the organiser's list."""
    made, tokens = await personal_draw(client, questions=True)
    bo = tokens["Bo Bramble"]
    path, body = ((f"/api/kringle/p/{bo}/wishlist", {"text": "Socks"}) if write == "wishlist"
                  else (f"/api/kringle/p/{bo}/ask", {"to": "giftee", "text": "Size?"}))
    before = dt.datetime.now(dt.UTC).replace(microsecond=0)
    await json_of(await client.post(path, json=body))
    people = (await export(client, made["editToken"]))["people"]
    assert [p["opened"] for p in people] == [False, True, False, False, False]
    opened_at = people[1]["openedAt"]
    assert before <= dt.datetime.fromisoformat(opened_at) <= dt.datetime.now(dt.UTC)
    # The owner's page shows that first opening, not their own later visit.
    assert f'datetime="{opened_at}"' in await page(client, f"/p/{bo}")
    assert (await json_of(await client.get(f"/api/kringle/p/{bo}")))["firstOpenedAt"] == \
        opened_at


async def test_without_personal_links_a_write_is_not_an_opening(client: Any) -> None:
    """Without personal links "opened" says who has seen the current draw, which saving a
    wishlist does not show."""
    made, tokens = await claimed_draw(client)
    await json_of(await client.post(f"/api/kringle/p/{tokens['Bo Bramble']}/wishlist",
                                    json={"text": "Socks"}))
    people = (await export(client, made["editToken"]))["people"]
    assert not any(person["opened"] for person in people)


async def test_a_peek_before_a_redraw_stays_on_the_page(client: Any) -> None:
    """Someone opens Ann's link, then the organiser redraws: Ann still sees that first
    opening, so a redraw cannot cover a peek (and with few allowed loops the peek could
    still tell the new draw)."""
    made, tokens = await personal_draw(client)
    ann = tokens["Ann Archer"]
    await page(client, f"/p/{ann}")
    first = (await json_of(await client.get(f"/api/kringle/p/{ann}")))["firstOpenedAt"]
    await json_of(await client.post(f"/api/kringle/{made['editToken']}/redraw"))
    later = await page(client, f"/p/{ann}")
    assert f'datetime="{first}"' in later
    assert (await json_of(await client.get(f"/api/kringle/p/{ann}")))["firstOpenedAt"] == first
    exported = await export(client, made["editToken"])
    assert [p["opened"] for p in exported["people"]] == [True] + [False] * 4


async def test_a_personal_reset_issues_a_fresh_link_and_the_old_one_says_so(
        client: Any) -> None:
    made, tokens = await personal_draw(client)
    bo = tokens["Bo Bramble"]
    await page(client, f"/p/{bo}")
    giftee = (await json_of(await client.get(f"/api/kringle/p/{bo}")))["giftee"]
    reply = await json_of(await client.post(f"/api/kringle/{made['editToken']}/reset",
                                            json={"name": "bo bramble"}))
    assert reply == {"ok": True, "reset": True}
    people = (await export(client, made["editToken"]))["people"]
    fresh = token_of(next(p["link"] for p in people if p["name"] == "Bo Bramble"))
    assert fresh != bo
    old = await page(client, f"/p/{bo}", 404)
    assert "The organiser reset this link" in old and "Ask the organiser for your new" in old
    assert giftee not in old
    assert await json_of(await client.get(f"/api/kringle/p/{bo}"), 404) == NOT_FOUND
    await page(client, f"/p/{fresh}")
    assert (await json_of(await client.get(f"/api/kringle/p/{fresh}")))["giftee"] == giftee
    # Everybody else's link is untouched.
    others = {p["name"]: token_of(p["link"]) for p in people if p["name"] != "Bo Bramble"}
    assert others == {name: token for name, token in tokens.items() if name != "Bo Bramble"}


async def test_without_personal_links_private_json_is_as_before(client: Any) -> None:
    _, tokens = await claimed_draw(client)
    response = await client.get(f"/api/kringle/p/{tokens['Ann Archer']}")
    assert response.headers["Cache-Control"] == "no-store"  # one person's secret
    view = await json_of(response)
    assert set(view) == {"title", "heading", "budget", "exchangeDate", "note", "name",
                         "giftee", "gifteeWishlist", "myWishlist"}


# --- resets are never silent ---------------------------------------------------------------

async def test_an_organiser_who_resets_and_claims_a_name_is_seen(client: Any) -> None:
    """The side door of a reset: the organiser resets Ann and claims her name to read her
    giftee. The share page, the public read and Ann's old link all say who was reset and
    when."""
    made, tokens = await claimed_draw(client)
    ann = tokens["Ann Archer"]
    await page(client, f"/p/{ann}")
    assert (await json_of(await client.get(f"/api/kringle/{made['slug']}")))["resets"] == []
    await json_of(await client.post(f"/api/kringle/{made['editToken']}/reset",
                                    json={"name": "Ann Archer"}))
    peek = await json_of(await client.post("/api/kringle/claim", json={
        "slug": made["slug"], "name": "Ann Archer"}))
    giftee = (await json_of(await client.get(f"/api/kringle/p/{peek['token']}")))["giftee"]

    public = await json_of(await client.get(f"/api/kringle/{made['slug']}"))
    [entry] = public["resets"]
    assert entry["name"] == "Ann Archer"
    moment = dt.datetime.fromisoformat(entry["at"])
    assert abs(dt.datetime.now(dt.UTC) - moment) < dt.timedelta(minutes=1)
    share = await page(client, f"/s/{made['slug']}")
    assert "The organiser reset Ann Archer on" in share
    assert f'<time datetime="{entry["at"]}" data-local>' in share
    old = await page(client, f"/p/{ann}", 404)
    assert "This was Ann Archer's private link. The organiser reset it on" in old
    assert f'datetime="{entry["at"]}"' in old
    assert giftee not in old
    # Resetting again adds a second entry; an unclaimed name adds none.
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "Ann Archer"})
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "Ann Archer"})
    names = [r["name"] for r in (await json_of(
        await client.get(f"/api/kringle/{made['slug']}")))["resets"]]
    assert names == ["Ann Archer", "Ann Archer"]
    # The first old link still tells its own story.
    assert f'datetime="{entry["at"]}"' in await page(client, f"/p/{ann}", 404)


async def test_old_links_of_a_reset_do_nothing_but_say_so(client: Any) -> None:
    made, tokens = await claimed_draw(client, questions=True)
    old = tokens["Cy Cobb"]
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "Cy Cobb"})
    for path, body in ((f"/api/kringle/p/{old}/wishlist", {"text": "x"}),
                       (f"/api/kringle/p/{old}/ask", {"to": "santa", "text": "x"})):
        assert await json_of(await client.post(path, json=body), 404) == NOT_FOUND


# --- anonymous questions ---------------------------------------------------------------------

def pairing(slug: str) -> dict[str, str]:
    instance = Instance.get(Instance.slug == slug)
    people = list(KringlePerson.select().where(KringlePerson.instance == instance)
                  .order_by(KringlePerson.position))
    return {person.name: people[person.giftee].name for person in people}


async def ask(client: Any, token: str, to: str, text: Any) -> Any:
    return await client.post(f"/api/kringle/p/{token}/ask", json={"to": to, "text": text})


async def test_a_kris_kringle_and_their_giftee_talk_without_names(client: Any) -> None:
    made, tokens = await claimed_draw(client, questions=True)
    pairs = pairing(made["slug"])
    santa, giftee = "Ann Archer", pairs["Ann Archer"]
    assert await json_of(await ask(client, tokens[santa], "giftee",
                                   "  What size are you?\r\nS or M? ")) == {"ok": True}
    assert await json_of(await ask(client, tokens[giftee], "SANTA", "M, thanks!")) == {
        "ok": True}
    mine = await json_of(await client.get(f"/api/kringle/p/{tokens[santa]}"))
    theirs = await json_of(await client.get(f"/api/kringle/p/{tokens[giftee]}"))
    assert [(m["mine"], m["text"]) for m in mine["questions"]["withGiftee"]] == [
        (True, "What size are you?\nS or M?"), (False, "M, thanks!")]
    assert [(m["mine"], m["text"]) for m in theirs["questions"]["withSanta"]] == [
        (False, "What size are you?\nS or M?"), (True, "M, thanks!")]
    assert mine["questions"]["limit"] == 40
    # The giftee's page and JSON never name their Kris Kringle.
    giftee_page = await page(client, f"/p/{tokens[giftee]}")
    for surface in (giftee_page, str(theirs)):
        assert santa not in surface
        assert "What size are you?" in surface
    assert "Your Kris Kringle" in giftee_page
    # Nobody else sees the conversation: the other private pages, public, organiser, export.
    others = [await page(client, f"/p/{tokens[name]}") for name in NAMES
              if name not in (santa, giftee)]
    for surface in [*others, await page(client, f"/s/{made['slug']}"),
                    await page(client, f"/e/{made['editToken']}"),
                    str(await export(client, made["editToken"])),
                    str(await json_of(await client.get(f"/api/kringle/{made['slug']}")))]:
        assert "What size are you?" not in surface and "M, thanks!" not in surface


async def test_question_rules(client: Any) -> None:
    made, tokens = await claimed_draw(client, questions=True)
    ann = tokens["Ann Archer"]
    assert await json_of(await ask(client, ann, "nobody", "Hi"), 400) == {"error": (
        'Say who it\'s for: "giftee" (the person you buy for) or "santa" (whoever drew you).')}
    for blank in ("", "   ", None, 5):
        assert await json_of(await ask(client, ann, "giftee", blank), 400) == {
            "error": "Write your question or answer first."}
    await json_of(await ask(client, ann, "giftee", "x" * 400))
    view = await json_of(await client.get(f"/api/kringle/p/{ann}"))
    assert view["questions"]["withGiftee"][0]["text"] == "x" * 300
    for index in range(39):
        await json_of(await ask(client, ann, "giftee" if index % 2 else "santa", f"q{index}"))
    giftee = pairing(made["slug"])["Ann Archer"]
    for _ in range(20):  # the giftee's side fills the same conversation
        await ask(client, tokens[giftee], "santa", "answer")
    assert KringleMessage.select().count() == 20 + 20 + 20
    response = await ask(client, ann, "giftee", "one more")
    assert await json_of(response, 409) == {
        "error": "This conversation is full: 40 messages is the most."}
    assert "This conversation is full." in await page(client, f"/p/{ann}")


async def test_questions_are_off_unless_asked_for(client: Any) -> None:
    _, tokens = await claimed_draw(client)
    response = await ask(client, tokens["Ann Archer"], "giftee", "Hi")
    assert await json_of(response, 409) == {
        "error": "Anonymous questions aren't turned on for this draw."}
    assert "Ask " not in await page(client, f"/p/{tokens['Ann Archer']}")


async def test_redraw_and_reset_wipe_conversations(client: Any) -> None:
    made, tokens = await claimed_draw(client, questions=True)
    for name in NAMES:
        await json_of(await ask(client, tokens[name], "giftee", f"from {name}"))
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "Bo Bramble"})
    # Bo's two conversations go: the one with the person Bo buys for and the one with Bo's
    # Kris Kringle.
    assert KringleMessage.select().count() == len(NAMES) - 2
    await client.post(f"/api/kringle/{made['editToken']}/redraw")
    assert KringleMessage.select().count() == 0


@pytest.mark.parametrize("field", ["personalLinks", "questions"])
async def test_the_options_read_as_javascript_truthiness(client: Any, field: str) -> None:
    made = await create(client, "kringle", {"names": NAMES, field: "yes"})
    assert Instance.get(Instance.slug == made["slug"]).data[field] is True


async def test_the_openapi_document_describes_the_additions(client: Any) -> None:
    document = await json_of(await client.get("/openapi.json"))
    create_body = document["paths"]["/api/kringle"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["properties"]
    for field in ("households", "exclusions", "personalLinks", "questions"):
        assert create_body[field]["description"].startswith("optional:"), field
    ask_op = document["paths"]["/api/kringle/p/{token}/ask"]["post"]
    assert "never with the Kris Kringle's name" in ask_op["description"]
    assert {"400", "409"} <= set(ask_op["responses"])
    read = document["paths"]["/api/kringle/p/{token}"]["get"]
    assert OPEN_FIRST in read["responses"]["409"]["description"]
    assert PERSONAL in document["paths"]["/api/kringle/claim"]["post"]["responses"]["409"][
        "description"]
    reset_op = document["paths"]["/api/kringle/{editToken}/reset"]["post"]
    assert "A reset is never silent" in reset_op["description"]
    tag = next(tag for tag in document["tags"] if tag["name"] == "kringle")
    assert "is more than half the draw" in tag["description"]
    public = document["paths"]["/api/kringle/{slug}"]["get"]["responses"]["200"]["content"][
        "application/json"]["schema"]["properties"]
    assert "never silent" in public["resets"]["description"]


async def test_an_existing_database_gains_the_new_tables(client: Any) -> None:
    """A database made before resets and questions existed has run `0001_initial` only:
    the second step adds the two tables and leaves the people (and their draw) alone."""
    from groupkit_kringle.models import MIGRATIONS
    from groupkit_kringle.models import KringleReset
    from groupkit_testing import rerun_migrations

    made, tokens = await claimed_draw(client)
    before = pairing(made["slug"])
    KringleMessage.drop_table()
    KringleReset.drop_table()
    assert rerun_migrations("tool:kringle", MIGRATIONS, keep=["0001_initial"]) == [
        "0002_resets_and_questions"]
    assert rerun_migrations("tool:kringle", MIGRATIONS, keep=[
        "0001_initial", "0002_resets_and_questions"]) == []
    assert pairing(made["slug"]) == before
    await client.post(f"/api/kringle/{made['editToken']}/reset", json={"name": "Ann Archer"})
    assert KringleReset.select().count() == 1
    assert "The organiser reset this link" in await page(client, f"/p/{tokens['Ann Archer']}",
                                                         404)


async def test_questions_and_rules_are_shown_as_text(client: Any) -> None:
    hostile = '<script>alert("x")</script>'
    names = ["<b>Ann</b>", "Bo & Co", "Cy", "Di", "Ed"]
    made = await create(client, "kringle", {"names": names, "questions": True,
                                            "households": [["<b>Ann</b>", "Bo & Co"]]})
    tokens = {}
    for name in names:
        reply = await json_of(await client.post("/api/kringle/claim", json={
            "slug": made["slug"], "name": name}))
        tokens[name] = reply["token"]
    await json_of(await ask(client, tokens["Cy"], "giftee", hostile))
    giftee = pairing(made["slug"])["Cy"]
    for text in (await page(client, f"/p/{tokens['Cy']}"),
                 await page(client, f"/p/{tokens[giftee]}")):
        assert hostile not in text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in text
    organiser = await page(client, f"/e/{made['editToken']}")
    assert "<b>Ann</b>" not in organiser and "&lt;b&gt;Ann&lt;/b&gt;, Bo &amp; Co" in organiser
