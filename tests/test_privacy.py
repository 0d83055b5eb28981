"""Private data stays where the spec keeps it, for every installed tool, on a real server.

Each tool's scenario creates an instance and takes part with a random MARKER in every text
field, then collects everything the public can read (the public page, its link-preview
tags, `GET /api/<tool>/{slug}`, every read operation under it in the OpenAPI document, the
first event of the live stream, the printable share sheet, its QR code and what that code
says when read back) and every participant's private page, and looks for the
private values in them: drop-off details, payment details, coordinator-only messages,
wishlists, roles, who wrote which fact, voter names, scores tied to comments, cards before
the reveal, edit tokens, participant tokens and claim secrets. Where the spec hides
something from the organiser too (Kris Kringle and Coffee Roulette pairings, secret-ballot
voters, Pulse rows, poker cards before the reveal, a poll's counts hidden until it closes),
the organiser's page, responses and export are scanned as well. A secret ballot is also
watched over time: its counts must never move by one ballot's picks.

Pairings and cards are not text of their own (every name, every card is public), so those
checks are differential: the views are taken, the pairing (or a card) changes, and the views
must come out the same, digits aside (versions and times move on).

Every scenario also checks that its markers really reach the place that may show them, so
no check passes because nothing was written.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html.parser
import json
import re
import time
from collections.abc import Callable
from collections.abc import Iterator
from typing import Any
from typing import ClassVar
from urllib.parse import urlencode

import httpx
import pytest
from chat_receiver import Receiver
from mail_receiver import MailServer
from mail_receiver import text_of
from participation import REVEALS
from participation import SCENARIOS
from qrdecode import qr_text
from waiting import wait_for

from groupkit_testing import Look as KitLook
from groupkit_testing import PrivacySuite
from groupkit_testing import Session
from groupkit_testing import Surface
from groupkit_testing import scan_declared
from groupkit_testing import string_leaves
from groupkit_testing._privacy import UNDECLARED
from groupkit_testing._privacy import api_document
from groupkit_testing._privacy import installed_tools

pytestmark = pytest.mark.server

INSTALLED = installed_tools()
DOCUMENT = api_document()


# --- what can be read ---------------------------------------------------------------------------

class _Elements(html.parser.HTMLParser):
    """The text of every element (its children's included)."""

    VOID: ClassVar[set[str]] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                                "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[list[str]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append([])
        values = " ".join(value for _, value in attrs if value)
        if values and self.open:
            self.open[-1].append(" " + values + " ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.open:
            return
        text = "".join(self.open.pop())
        self.texts.append(text)
        if self.open:
            self.open[-1].append(text)

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].append(data)


def element_texts(page: str) -> list[str]:
    parser = _Elements()
    parser.feed(page)
    return [text.lower() for text in parser.texts]


def json_subtrees(value: Any) -> Iterator[Any]:
    yield value
    children = value.values() if isinstance(value, dict) else value \
        if isinstance(value, list) else []
    for child in children:
        yield from json_subtrees(child)


def ties(groups: list[str], partners: dict[str, str], page: str | None = None,
         data: Any = None) -> list[str]:
    """Where a group member is shown with its own partner and with no other member: a row
    tying the two. A part that holds several members (a list) or every partner (a name
    picker) ties nothing. `groups` are e.g. the facts, `partners` fact -> its author."""
    pieces: list[str] = []
    if page is not None:
        pieces += element_texts(page)
    if data is not None:
        pieces += [json.dumps(tree).lower() for tree in json_subtrees(data)
                   if isinstance(tree, (dict, list))]
    found = []
    everyone = [partner.lower() for partner in partners.values()]
    for member in groups:
        partner = partners[member].lower()
        for text in pieces:
            if member.lower() in text and partner in text \
                    and not any(other.lower() in text for other in groups if other != member) \
                    and not all(name in text for name in everyone):
                found.append(f"{member} shown with {partners[member]}: {text[:120]!r}")
                break
    return found


# --- one tool's scenario ----------------------------------------------------------------------

class Look(KitLook):
    """The kit's scanner (groupkit_testing.Look) with this repository's scenarios for tools
    that declare no walkthrough, and a QR reader for the share sheet."""

    def __init__(self, client: httpx.Client, tool: str,
                 scenario: Callable[[Session], None] | None = None) -> None:
        super().__init__(client, tool, scenario or SCENARIOS.get(tool))

    def decoded_qr(self, s: Session, svg: str) -> list[Surface]:
        decoded = qr_text(svg)
        assert decoded.endswith(f"/s/{s.slug}"), decoded
        return [Surface("share QR code, decoded", decoded)]


# --- the scenarios ----------------------------------------------------------------------------

def claimed_names(s: Session) -> dict[str, str]:
    """token -> the name it was claimed or joined with."""
    return {sent.reply["token"]: sent.body["name"] for sent in s.sent
            if isinstance(sent.reply, dict) and "token" in sent.reply
            and isinstance(sent.body, dict) and "name" in sent.body}


def _meal(look: Look) -> None:
    s = look.session()
    dropoff = look.mark("create.dropoff")
    public = look.public(s)
    look.present(dropoff, look.organiser(s), "the drop-off on the coordinator page")
    look.absent({"drop-off": dropoff}, public, "Meal Train drop-off")
    later = look.mark("details.dropoff")
    s.organiser("details", {"forWhom": look.mark("details.forWhom"), "dropoff": later})
    public = look.public(s)
    look.present(later, look.organiser(s), "the changed drop-off on the coordinator page")
    look.absent({"drop-off": dropoff, "changed drop-off": later}, public,
                "Meal Train drop-off")
    look.common(s, public=public)


def _registry(look: Look) -> None:
    s = look.session(participate=False)
    payment = {label: value for label, value in look.mark.by_label.items()
               if label.startswith("create.payment.")}
    assert len(payment) >= 4, payment
    part = s.read()["parts"][0]["id"]
    claim = s.public("claim", {"partId": part, "name": look.mark("claim.name"),
                               "message": look.mark("claim.message")})
    chip = s.public("overflow", {"amountCents": 98765, "name": look.mark("overflow.name"),
                                 "message": look.mark("overflow.message")})
    s.organiser("paid", {"reference": claim["reference"], "paid": True})
    receipt = Surface("claim reply", json.dumps(claim))
    organiser = look.organiser(s)
    for label, value in payment.items():
        look.present(value, [receipt], f"{label} in the guest's claim reply")
        look.present(value, organiser, f"{label} on the organiser page")
    public = look.public(s)
    look.absent(payment, public, "registry payment details")
    look.absent({"part reference": claim["reference"], "overflow reference": chip["reference"],
                 "overflow amount": "98765", "overflow amount in dollars": "987.65"},
                public, "registry claim references and amounts")
    crew = s.read()["crew"]
    for row in crew:
        hidden = {"reference", "paid", "amountCents"} & set(row)
        if hidden:
            look.leaks.append(f"public claim list carries {sorted(hidden)}: {row}")
    look.common(s, public=public)


def _roster(look: Look) -> None:
    # The shift labels and the date stay readable, so the shift's calendar file is served.
    s = look.session(keep=("create.eventDate", "create.shifts.0.label",
                           "create.shifts.1.label", "create.shifts.2.label"))
    messages = {label: value for label, value in look.mark.by_label.items()
                if label.startswith("claim.message")}
    public = look.public(s)
    organiser = look.organiser(s)
    for label, value in messages.items():
        look.present(value, organiser, f"{label} on the coordinator page")
    look.absent(messages, public, "Volunteer Roster claim message")
    look.present("BEGIN:VCALENDAR", public, "the shift's calendar file")
    look.common(s, public=public)


def _hens(look: Look) -> None:
    s = look.session()
    where = look.mark("create.where")
    public = look.public(s)
    look.present(where, public[:1], "where on the share page")
    look.absent({"where": where}, [surface for surface in public
                                   if surface.name == "link preview"], "Hens where")
    look.common(s, public=public)


def _giftidea(look: Look) -> None:
    s = look.session()
    organiser = look.organiser(s)
    for _, token in s.tokens:  # the organiser removes an idea by its token
        look.present(token, organiser, "an idea's token on the organiser page")
    look.common(s)


def _recipe(look: Look) -> None:
    s = look.session()
    organiser = look.organiser(s)
    for _, token in s.tokens:  # the spec puts the contributor token on the organiser page
        look.present(token, organiser, "a contributor token on the organiser page")
    look.common(s)


def _kringle(look: Look) -> None:
    s = look.session()
    people = [person["name"] for person in s.read()["people"]]
    tokens = [token for _, token in s.tokens]
    assert len(tokens) == len(people) >= 3

    def pairing() -> dict[str, str]:
        return {name: look.client.get(f"/api/kringle/p/{token}").json()["giftee"]
                for name, token in zip(people, tokens, strict=True)}

    # Before anyone opens a page (opening is recorded), the draw changes under the views.
    views = look.public(s) + look.organiser(s)
    first = pairing()
    before = look.snapshot(views)
    s.organiser("redraw")
    second = pairing()
    if first == second:
        look.controls.append("the redraw kept the same pairing")
    look.same(before, look.snapshot(look.public(s) + look.organiser(s)),
              "Kris Kringle pairing on a public or organiser view")
    wishes = {people[index]: look.mark(f"wishlist.text.{index}") for index in range(len(people))}
    pages = look.participants(s)
    look.absent({f"{name}'s wishlist": wish for name, wish in wishes.items()}, look.public(s),
                "Kris Kringle wishlist")
    drawer = {giftee: giver for giver, giftee in second.items()}
    for viewer, token in zip(people, tokens, strict=True):
        mine = pages[token]
        look.present(second[viewer], mine, f"{viewer}'s giftee on their page")
        look.present(wishes[second[viewer]], mine, "the giftee's wishlist on the drawer's page")
        shown = {viewer, second[viewer]}
        look.absent({f"{name} (drawn by {drawer[name]})": name for name in people
                     if name not in shown}, mine, f"another person's pairing on {viewer}'s page")
        look.absent({f"{name}'s wishlist": wishes[name] for name in people
                     if name not in shown}, mine, f"another wishlist on {viewer}'s page")
    look.common(s, pages)


def _kringle_options(look: Look) -> None:
    """Kris Kringle with every optional addition: households and exclusions, personal links
    and anonymous questions, then a reset. The pairing stays off the public and organiser
    views (which must not change when the draw does), the links stay off the public side,
    each question reaches only the two pages of its pair, and a giftee's page never names
    their Kris Kringle; the old link of a reset shows nothing of the draw."""
    names = [look.mark(f"name.{index}") for index in range(6)]
    body = {"title": look.mark("title"), "names": names, "budget": look.mark("budget"),
            "note": look.mark("note"), "households": [[names[0], names[1]]],
            "exclusions": [f"{names[2]} -> {names[3]}"], "personalLinks": True,
            "questions": True}
    s = look.session(body, keep=tuple(string_leaves(body)), participate=False)
    links = [person["link"].removeprefix("/p/") for person in look.client.post(
        f"/api/kringle/{s.edit}/export").json()["data"]["people"]]
    s.tokens += [("personal link", token) for token in links]
    # Before anyone opens a page, the draw changes under the public and organiser views.
    before = look.snapshot(look.public(s) + look.organiser(s))
    s.organiser("redraw")
    look.same(before, look.snapshot(look.public(s) + look.organiser(s)),
              "Kris Kringle pairing (with exclusions and personal links) on a public or "
              "organiser view")
    look.absent(dict(enumerate(links)), look.public(s), "a personal link on the public side")
    look.participants(s)  # every owner opens their page: the JSON answers from now on
    giftee_of = {names.index(look.client.get(f"/api/kringle/p/{token}").json()["name"]):
                 names.index(look.client.get(f"/api/kringle/p/{token}").json()["giftee"])
                 for token in links}
    quiet = look.snapshot(look.public(s) + look.organiser(s))
    questions: dict[tuple[int, int], list[str]] = {}
    for index, token in enumerate(links):
        person = names.index(look.client.get(f"/api/kringle/p/{token}").json()["name"])
        for to, pair in (("giftee", (person, giftee_of[person])),
                         ("santa", (next(g for g, t in giftee_of.items() if t == person),
                                    person))):
            text = look.mark(f"ask.{to}.{index}")
            s.participant("p/{token}/ask", token, {"to": to, "text": text})
            questions.setdefault(pair, []).append(text)
    look.same(quiet, look.snapshot(look.public(s) + look.organiser(s)),
              "anonymous questions on a public or organiser view")
    every = {f"question {text}": text for texts in questions.values() for text in texts}
    look.absent(every, look.public(s) + look.organiser(s), "anonymous question")
    pages = look.participants(s)
    owner = {token: names.index(look.client.get(f"/api/kringle/p/{token}").json()["name"])
             for token in links}
    for token, surfaces in pages.items():
        me = owner[token]
        mine = {text for (santa, giftee), texts in questions.items() if me in (santa, giftee)
                for text in texts}
        for text in mine:
            look.present(text, surfaces, f"a question of person {me}'s pair on their page")
        look.absent({f"question {text}": text for text in every.values() if text not in mine},
                    surfaces, f"another pair's question on person {me}'s page")
        santa = next(g for g, t in giftee_of.items() if t == me)
        look.absent({f"person {me}'s Kris Kringle": names[santa]}, surfaces,
                    "a Kris Kringle's name on their giftee's page")
    look.common(s, pages)
    # A reset: the old link says so and shows nothing of the draw or the questions.
    s.organiser("reset", {"name": names[0]})
    old = look._get(f"/p/{links[0]}", "the old link of a reset")
    look.present("reset", [old], "the reset notice on the old link")
    look.absent({"the reset person's giftee": names[giftee_of[0]], **every}, [old],
                "the draw on a reset link")


def _coffee(look: Look) -> None:
    s = look.session()
    people = [person["name"] for person in s.read()["people"]]
    tokens = [token for _, token in s.tokens]

    def grouping() -> dict[str, set[str]]:
        return {name: {partner["name"] for partner in
                       look.client.get(f"/api/coffee/p/{token}").json()["partners"]}
                for name, token in zip(people, tokens, strict=True)}

    first = grouping()
    before = look.snapshot(look.public(s) + look.organiser(s))
    for _ in range(6):
        s.organiser("draw")
        second = grouping()
        if second != first:
            break
    else:
        look.controls.append("six draws kept the same grouping")
    look.same(before, look.snapshot(look.public(s) + look.organiser(s)),
              "Coffee Roulette pairing on a public or organiser view")
    pages = look.participants(s)
    for viewer, token in zip(people, tokens, strict=True):
        for partner in second[viewer]:
            look.present(partner, pages[token], f"{viewer}'s partner on their page")
        look.absent({f"{name} (not in {viewer}'s group)": name for name in people
                     if name != viewer and name not in second[viewer]}, pages[token],
                    f"another group on {viewer}'s page")
    look.common(s, pages)


def _roles(look: Look) -> None:
    s = look.session()
    roles = {label: value for label, value in look.mark.by_label.items()
             if label.startswith("create.roles.")}
    briefs = {label: value for label, value in look.mark.by_label.items()
              if label.startswith("create.briefs.")}
    assert len(set(roles.values())) == len(roles) >= 2 and briefs

    def deal() -> dict[str, str]:
        export = look.client.post(f"/api/roles/{s.edit}/export").json()["data"]
        return {player["name"]: player["role"] for player in export["players"]}

    # The organiser page hides who holds which role (unless asked with ?reveal=1).
    before, dealt = look.snapshot(look.organiser(s)[:1]), deal()
    for _ in range(6):
        s.organiser("redeal")
        if deal() != dealt:
            break
    else:
        look.controls.append("six re-deals kept the same deal")
    look.same(before, look.snapshot(look.organiser(s)[:1]), "a role on the organiser page")
    public = look.public(s)
    look.absent({**roles, **briefs}, public, "Secret Role Dealer role")
    now = deal()
    pages = look.participants(s)
    for token, name in claimed_names(s).items():
        mine = now[name]
        look.present(mine, pages[token], f"{name}'s role on their page")
        look.absent({label: role for label, role in roles.items() if role != mine},
                    pages[token], f"another role on {name}'s page")
    look.common(s, pages, public)


def _fact(look: Look) -> None:
    s = look.session()
    board = s.read()
    written = {look.mark(f"save.text.{index}"): board["names"][index] for index in range(3)}
    public = look.public(s)
    for fact in written:
        look.present(fact, public[:1], "a fact on the guessing grid")
    page, data = public[0].text, s.read()
    for tie in ties(list(written), written, page, data):
        look.leaks.append(f"fact author before the reveal, public: {tie}")
    pages = look.participants(s)
    owners = claimed_names(s)
    for token, surfaces in pages.items():
        others = [fact for fact, author in written.items() if author != owners[token]]
        for tie in ties(others, written, surfaces[0].text):
            look.leaks.append(f"fact author on {owners[token]}'s page: {tie}")
    look.common(s, pages, public)
    s.organiser("reveal", {"reveal": True})
    if not ties(list(written), written, None, s.read()):
        look.controls.append("the revealed answer key ties no fact to its author: "
                             "the tie check sees nothing")


def _poll(look: Look) -> None:
    example = dict(INSTALLED["poll"].example)
    for secret in (False, True):
        look.mark.by_label.clear()
        s = look.session({**example, "secret": secret})
        voters = {label: value for label, value in look.mark.by_label.items()
                  if label.startswith("vote.voterName")}
        public, organiser, pages = look.public(s), look.organiser(s), look.participants(s)
        if secret:
            everywhere = public + organiser + [p for page in pages.values() for p in page]
            look.absent(voters, everywhere, "a voter's name on a secret ballot")
        else:
            for value in voters.values():
                look.present(value, organiser, "a voter's name on the organiser page")
            look.absent(voters, public, "a voter's name")
            for token, surfaces in pages.items():
                own = [sent.body.get("voterName") for sent in s.sent
                       if isinstance(sent.reply, dict) and sent.reply.get("token") == token]
                look.absent({label: value for label, value in voters.items()
                             if value not in own}, surfaces, "another voter's name")
        look.common(s, pages, public)
    _poll_hidden_counts(look)
    _poll_watcher(look)


def poll_counts(surface: Surface) -> list[Any]:
    """Every count a Group Vote surface shows: tally counts and instant-runoff rounds in its
    JSON (an export's too), the count beside each option on a page. Hidden counts read as
    null."""
    with contextlib.suppress(ValueError):
        data = json.loads(surface.text)
        view = data.get("data", data) if isinstance(data, dict) else {}
        if not isinstance(view, dict):
            return []
        found = [entry.get("count") for entry in view.get("tally", [])]
        return [count for count in found if count is not None] + list(view.get("rounds", []))
    return re.findall(r'class="poll-count">(\d+)<', surface.text)


def _poll_hidden_counts(look: Look) -> None:
    """`resultsAfterVote`: no counts anywhere the public reads, while voters and the organiser
    see them. `resultsAtClose` on a secret ranked ballot: no counts or rounds anywhere, the
    organiser's page and export included, until the poll closes."""
    example = dict(INSTALLED["poll"].example)
    s = look.session({**example, "resultsAfterVote": True})
    public, organiser, pages = look.public(s), look.organiser(s), look.participants(s)
    for surface in public:
        if poll_counts(surface):
            look.leaks.append(f"counts before voting on the {surface.name}")
    for surface in (organiser[0], *(page[0] for page in pages.values())):
        if not poll_counts(surface):
            look.controls.append(f"no counts for a voter or the organiser: {surface.name}")
    look.common(s, pages, public)
    s = look.session({**example, "resultsAtClose": True, "secret": True, "ranked": True})
    public, organiser, pages = look.public(s), look.organiser(s), look.participants(s)
    for surface in public + organiser + [p for page in pages.values() for p in page]:
        if poll_counts(surface):
            look.leaks.append(f"counts before the poll closed on the {surface.name}")
    s.organiser("close")
    if not poll_counts(look.public(s)[2]):
        look.controls.append("no counts on the public read once the poll closed")


def _poll_watcher(look: Look) -> None:
    """A watcher of a secret ballot diffs the public read, the public page, the live stream
    and the organiser's export before and after each of 20 single ballots: the counts must
    never move by exactly one ballot's picks."""
    s = look.session({**INSTALLED["poll"].example, "secret": True}, participate=False)
    ids = [option["id"] for option in s.read()["tally"]]

    def watched() -> dict[str, list[Any]]:
        surfaces = look.public(s) + look.organiser(s)[:2]
        return {surface.name: poll_counts(surface) for surface in surfaces}

    before = watched()
    moves = 0
    for index in range(20):
        pick = ids[(index * 7 + index // 3) % len(ids)]
        s.public("vote", {"choices": [pick]})
        after = watched()
        for name, counts in after.items():
            changed = [(old, new) for old, new in zip(before.get(name, []), counts,
                                                      strict=False) if old != new]
            if len(changed) == 1:
                look.leaks.append(f"a single ballot moved one count on the {name}: {index}")
            moves += bool(changed)
        before = after
    if not moves:
        look.controls.append("a secret ballot's published counts never moved")


def _pulse(look: Look) -> None:
    s = look.session(participate=False)
    words = [look.mark(f"respond.words.{index}") for index in range(4)]
    for index, word in enumerate(words[:3]):
        s.public("respond", {"score": index * 2 + 1, "words": word})
    everything = look.public(s) + look.organiser(s)
    look.absent({f"comment {index}": word for index, word in enumerate(words[:3])},
                everything, "Pulse comment of a week under four responses")
    s.public("respond", {"score": 4, "words": words[3]})
    public, organiser = look.public(s), look.organiser(s)
    for word in words:
        look.present(word, public[:1], "a comment once the week has four responses")
    for surface in (*public, *organiser):
        data: Any = None
        with contextlib.suppress(ValueError):
            data = json.loads(surface.text)
        for tree in json_subtrees(data) if data is not None else []:
            if not isinstance(tree, (dict, list)):
                continue
            text = json.dumps(tree).lower()
            inside = [word for word in words if word in text]
            if len(inside) == 1 and re.search(r"(?<![\w.])[1-5](?![\w.])", text):
                look.leaks.append(f"Pulse comment tied to a score on the {surface.name}: "
                                  f"{text[:120]!r}")
        if data is None and surface.text.lstrip().startswith("<"):
            for text in element_texts(surface.text):
                inside = [word for word in words if word in text]
                if len(inside) == 1 and re.search(r"\b[1-5]\b", text):
                    look.leaks.append(f"Pulse comment tied to a score on the {surface.name}: "
                                      f"{text[:120]!r}")
    look.common(s, public=public)


def _poker(look: Look) -> None:
    example = {**INSTALLED["poker"].example, "deck": "tshirt"}
    s = look.session(example, keep=("create.deck",), participate=False)
    tokens = [s.public("join", {"name": look.mark(f"join.name.{index}")})["token"]
              for index in range(3)]

    def vote(index: int, card: str) -> None:
        s.participant("v/{token}/vote", tokens[index], {"card": card})

    for index, card in enumerate(("XS", "XL", "M")):
        vote(index, card)
    # The facilitator takes a seat and votes from the facilitator's page.
    s.organiser("seat", {"name": look.mark("seat.name")})
    s.organiser("vote", {"card": "L"})
    pages = look.participants(s)

    def views(unchanged: list[int], facilitator_page: bool = True) -> dict[str, str]:
        surfaces = look.public(s) + [
            surface for surface in look.organiser(s)
            if facilitator_page or not surface.name.startswith("organiser page")]
        for index in unchanged:
            surfaces += [Surface(f"voter {index}'s {surface.name}", surface.text)
                         for surface in look.participants(s).get(tokens[index], [])]
        return look.snapshot(surfaces)

    for changer, card in ((0, "XXL"), (1, "S")):
        others = [index for index in range(3) if index != changer]
        before = views(others)
        vote(changer, card)
        look.same(before, views(others), "a Scrum Poker card before the reveal")
    # The facilitator's own card shows on their own page only: not on the public side, the
    # export or any voter's page.
    before = views([0, 1, 2], facilitator_page=False)
    s.organiser("vote", {"card": "XS"})
    look.same(before, views([0, 1, 2], facilitator_page=False),
              "the facilitator's Scrum Poker card before the reveal")
    for voter in s.read()["voters"]:
        if voter.get("card") is not None:
            look.leaks.append(f"public read shows a card before the reveal: {voter}")
    look.common(s, pages)
    s.organiser("reveal")
    if all(voter.get("card") is None for voter in s.read()["voters"]):
        look.controls.append("the cards never showed, even after the reveal")


#: tool -> the privacy checks its declaration cannot say (pairings, ties, batches, reveals,
#: values over time), beyond the kit's scan of what every tool declares (`Tool.hidden`).
PRIVACY: dict[str, Callable[[Look], None]] = {
    "coffee": _coffee, "fact": _fact, "giftidea": _giftidea, "hens": _hens,
    "kringle": _kringle, "meal": _meal, "poker": _poker, "poll": _poll, "pulse": _pulse,
    "recipe": _recipe, "registry": _registry, "roles": _roles, "roster": _roster,
}


@pytest.fixture(scope="module")
def server(live_server: Callable[..., Any]) -> Any:
    return live_server(limits={"post_per_hour": 1_000_000}, webhooks={
        "hosts": ["127.0.0.1"], "allow_loopback": True, "every_seconds": 1})


@pytest.fixture
def client(server: Any) -> Iterator[httpx.Client]:
    """A client per tool (the server closes a connection after 1,000 requests); idle
    connections are dropped before the server's keep-alive timeout closes them."""
    with server.client(limits=httpx.Limits(keepalive_expiry=1.0)) as http:
        yield http


def test_kringle_options_stay_private(client: httpx.Client) -> None:
    look = Look(client, "kringle")
    _kringle_options(look)
    assert look.read_count > 0
    assert not look.controls and not look.leaks, look.report()


@pytest.mark.parametrize("tool", ["coffee", "fact", "roles"])
def test_personal_links_stay_off_the_public_side(client: httpx.Client, tool: str) -> None:
    """With personal links each person's link is on the organiser page (and export) only:
    never on the share page, its reads, preview or QR code, nor on anybody else's page."""
    look = Look(client, tool)
    names = [look.mark(f"name.{index}") for index in range(4)]
    body: dict[str, Any] = {"title": look.mark("title"), "names": names,
                            "personalLinks": True}
    if tool == "roles":
        body["roles"] = ["Spy", "Seer", "Villager", "Villager", "Villager"]
    s = look.session(body, keep=tuple(string_leaves(body)), participate=False)
    links = [entry["link"].removeprefix("/p/") for entry in client.post(
        f"/api/{tool}/{s.edit}/export").json()["data"]["links"]]
    assert len(links) == len(names)
    s.tokens += [("personal link", token) for token in links]
    look.absent(dict(enumerate(links)), look.public(s), "a personal link on the public side")
    for token in links:
        look.present(token, look.organiser(s)[:1], "a personal link on the organiser page")
    look.common(s)
    assert look.read_count > 0
    assert not look.controls and not look.leaks, look.report()


class TestDeclaredHiddenValues(PrivacySuite):
    """The kit's scan over every installed tool (a tool that declares nothing fails, with
    what to declare), taking part through the scenarios here or its walkthrough."""

    scenarios = SCENARIOS
    look_class = Look

    @pytest.fixture(scope="class")
    @classmethod
    def privacy_server(cls, server: Any) -> Any:
        """The module's server (with webhooks allowed), not one more."""
        return server


def test_a_tool_that_declares_nothing_is_reported_with_what_to_declare(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An outside tool with no `hidden` declaration gets the kit's report (the privacy
    test fails with it), before any request: never a crash, never a silent pass."""
    monkeypatch.setitem(INSTALLED, "plate", dataclasses.replace(INSTALLED["plate"], hidden=None))
    with httpx.Client(base_url="http://127.0.0.1:9") as unused:
        look = KitLook(unused, "plate")
        scan_declared(look)
    assert look.controls == [UNDECLARED.format(tool="plate")] and look.read_count == 0
    assert "plate declares no hidden values: declare" in look.report()


@pytest.mark.parametrize("tool_name", sorted(set(PRIVACY) & set(INSTALLED)))
def test_private_values_stay_private(tool_name: str, client: httpx.Client) -> None:
    look = Look(client, tool_name)
    PRIVACY[tool_name](look)
    assert look.read_count > 0
    assert not look.controls and not look.leaks, look.report()


# --- chat webhooks ------------------------------------------------------------------------------

CHAT_TOOLS = sorted(name for name, tool in INSTALLED.items() if tool.chat is not None)


@pytest.fixture(scope="module")
def chat() -> Iterator[Receiver]:
    """The team's chat: a receiver on loopback, the one host the server may post to."""
    receiver = Receiver()
    yield receiver
    receiver.close()


def _chat_posts(look: Look, chat: Receiver, s: Session, path: str) -> list[Surface]:
    """What the chat received for this instance once every queued post was tried."""
    log = f"/api/{look.tool}/{s.edit}/chat/log"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        entries = look.client.get(log).json()["log"]
        if entries and all(entry["state"] != "pending" for entry in entries):
            break
        time.sleep(0.2)
    else:
        look.controls.append("the chat posts were not all tried within 20 s")
    return [Surface("chat post", json.dumps(item["body"]))
            for item in list(chat.received) if item["path"] == path]


@pytest.mark.parametrize("tool_name", CHAT_TOOLS)
def test_chat_posts_carry_no_hidden_value_and_the_address_stays_with_the_organiser(
        tool_name: str, client: httpx.Client, server: Any, chat: Receiver) -> None:
    """The webhook is connected before anyone takes part, so every ritual the scenario
    brings is posted to the receiver. No post carries a link that opens someone's page,
    a claim secret, who is paired with whom (Coffee Roulette: no name at all), a Pulse
    comment, or a poker card before the reveal (no poker post until then). A webhook address
    lets anyone post to the team's channel: it is on no page, response, export or log line,
    the organiser's included (they see it masked: host and last four)."""
    look = Look(client, tool_name)
    s = look.session(participate=False)
    secret = look.mark("webhook")
    path = f"/services/T0/B0/{secret}"
    connected = client.post(f"/api/{tool_name}/{s.edit}/chat", json={
        "url": chat.url(path), "hour": 0, "format": "slack"})
    assert connected.status_code == 200, connected.text
    if look.scenario is not None:
        look.scenario(s)
    client.post(f"/api/{tool_name}/{s.edit}/chat/test")
    hidden = {"edit token": s.edit, **{f"participant token {index}": token
                                       for index, (_, token) in enumerate(s.tokens)}}
    hidden |= {f"claim secret {index}": sent.reply["secret"] for index, sent in enumerate(s.sent)
               if isinstance(sent.reply, dict) and "secret" in sent.reply}
    hidden |= {label: value for label, value in look.mark.by_label.items()
               if label.startswith("respond.words.")}
    if tool_name == "coffee":
        hidden |= {f"coffee person {index}": person["name"]
                   for index, person in enumerate(s.read()["people"])}
    posts = _chat_posts(look, chat, s, path)
    if tool_name == "poker":
        look.absent({"a poker post": "Cards are up"}, posts, "poker post before the reveal")
        REVEALS["poker"](s)
        posts = _chat_posts(look, chat, s, path)
        look.present("Cards are up", posts, "the reveal in the chat")
    look.present("groupkit is connected", posts, "the test post in the chat")
    look.absent(hidden, posts, "hidden value in a chat post")
    organiser = look.organiser(s)
    everyone = [surface for surfaces in look.participants(s).values() for surface in surfaces]
    surfaces = look.public(s) + organiser + everyone
    look.absent({"the webhook address": secret}, surfaces, "chat webhook")
    look.present(f"…{secret[-4:]}", organiser[:1], "the masked webhook on the organiser page")
    look.present("Delivery log", organiser[:1], "the chat panel")
    look.absent({"the webhook address": secret}, [Surface("server log", server.log())],
                "chat webhook")
    assert not look.controls and not look.leaks, look.report()


# --- email ------------------------------------------------------------------------------------

EMAIL_BASE = "https://groups.example.org"


@pytest.fixture(scope="module")
def mail() -> Iterator[MailServer]:
    """The people's mail: an SMTP server on loopback."""
    with MailServer() as server:
        yield server


def _all_sent(look: Look, s: Session) -> bool:
    log = look.client.get(f"/api/kringle/{s.edit}/invite/log").json()["log"]
    return bool(log) and all(line["state"] == "sent" for line in log)


def test_email_addresses_are_on_no_surface_and_masked_for_the_organiser(
        live_server: Callable[..., Any], mail: MailServer) -> None:
    """With email on, a Kris Kringle organiser emails everyone their personal link and a
    volunteer asks for a reminder on a roster: no address is on any public or private page,
    response, export, read operation, QR code or server log line (the organiser sees them
    masked), and each message holds its person's own link and no one else's."""
    server = live_server(tools=["kringle", "roster"], base_url=EMAIL_BASE,
                         limits={"post_per_hour": 1_000_000}, webhooks={"every_seconds": 1},
                         extra_toml=f'[email]\nurl = "{mail.url}"\n'
                                    'from = "groups@example.org"\n')
    with server.client() as client:
        look = Look(client, "kringle")
        names = [look.mark(f"name.{index}") for index in range(4)]
        body = {"title": look.mark("title"), "names": names, "budget": "", "note": "",
                "personalLinks": True}
        s = look.session(body, keep=tuple(string_leaves(body)), participate=False)
        links: dict[str, str] = {person["name"]: person["link"] for person in client.post(
            f"/api/kringle/{s.edit}/export").json()["data"]["people"]}
        s.tokens += [("personal link", link.removeprefix("/p/")) for link in links.values()]
        addresses = {f"address of {name}": f"{look.mark('mail.' + name)}@example.com"
                     for name in names}
        invited = client.post(f"/api/kringle/{s.edit}/invite", json={"emails": {
            name: addresses[f"address of {name}"] for name in names}})
        assert invited.status_code == 200, invited.text
        assert wait_for(lambda: _all_sent(look, s), 20)
        for name in names:
            [message] = mail.mailbox.to(addresses[f"address of {name}"])
            text = text_of(message)
            look.present(f"{EMAIL_BASE}{links[name]}", [Surface("email", text)],
                         "the person's own link in their email")
            look.absent({f"the link of {other}": link for other, link in links.items()
                         if other != name}, [Surface(f"email to {name}", text)],
                        "another person's link in an email")
        organiser = look.organiser(s)
        surfaces = look.public(s) + organiser + [
            surface for pages in look.participants(s).values() for surface in pages]
        look.present("Email everyone their link", organiser[:1], "the invite panel")
        look.present("…@", organiser[:1], "a masked address on the organiser page")

        board = Look(client, "roster")
        b = board.session()
        claim = next(sent for sent in b.sent if isinstance(sent.reply, dict)
                     and "secret" in sent.reply and isinstance(sent.body, dict))
        volunteer = f"{board.mark('volunteer')}@example.org"
        asked = client.post("/api/roster/remind", json={
            "slug": b.slug, "slotId": claim.body["slotId"], "secret": claim.reply["secret"],
            "email": volunteer})
        assert asked.status_code == 200, asked.text
        assert wait_for(lambda: bool(mail.mailbox.to(volunteer)), 20)
        surfaces += board.public(b) + board.organiser(b)
        addresses["the volunteer's address"] = volunteer
        look.absent(addresses, [*surfaces, Surface("server log", server.log())],
                    "an email address")
    assert look.read_count > 0 and board.read_count > 0
    assert not look.controls and not look.leaks, look.report()
    assert not board.controls and not board.leaks, board.report()


# --- calendar subscription feeds ---------------------------------------------------------------

FEED_TOOLS = sorted(name for name, tool in INSTALLED.items() if tool.feed is not None)


#: What a feed scenario keeps readable (so the feed has an event) and sets up.
FEED_SCENARIOS: dict[str, tuple[dict[str, Any] | None, tuple[str, ...]]] = {
    "roster": (None, ("create.eventDate", "create.shifts.0.label", "create.shifts.1.label",
                      "create.shifts.2.label")),
    "hens": ({**INSTALLED["hens"].example, "when": "Saturday 13 March 2027, 2pm"},
             ("create.when",)),
}


def _feed_requests(tool_name: str, s: Session) -> list[tuple[str, dict[str, Any]]]:
    """(path, body) of every feed the scenario's people may ask for: each claim's, by its
    secret, and each participant link's."""
    claims = [(f"/api/{tool_name}/feed", {"slug": s.slug, "slotId": sent.body["slotId"],
                                          "secret": sent.reply["secret"]})
              for sent in s.sent if isinstance(sent.reply, dict) and "secret" in sent.reply
              and isinstance(sent.body, dict) and "slotId" in sent.body]
    links = [(template.format(token=token), {}) for template in DOCUMENT["paths"]
             if template.startswith(f"/api/{tool_name}/") and template.endswith("{token}/feed")
             for _, token in s.tokens]
    return claims + links


@pytest.mark.parametrize("tool_name", FEED_TOOLS)
def test_a_calendar_feed_address_goes_only_to_its_holder(tool_name: str,
                                                         client: httpx.Client,
                                                         server: Any) -> None:
    """A feed address is a capability like a claim secret: it is on no page, response or
    export (the organiser's included), and its feed carries no hidden value: no drop-off,
    coordinator-only message, kitty, edit link, participant link or claim secret."""
    look = Look(client, tool_name)
    example, keep = FEED_SCENARIOS.get(tool_name, (None, ()))
    s = look.session(example, keep)
    if tool_name == "finddate":
        s.organiser("choose", {"slotId": "d1"})
    requests = _feed_requests(tool_name, s)
    assert requests, f"{tool_name}: the scenario holds no spot and no link"
    hidden = {label: value for label, value in look.mark.by_label.items()
              if any(word in label for word in ("dropoff", "message", "kitty"))}
    hidden |= {"edit token": s.edit, **{f"participant token {index}": token
                                        for index, (_, token) in enumerate(s.tokens)}}
    hidden |= {f"claim secret {index}": body["secret"]
               for index, (_, body) in enumerate(requests) if "secret" in body}
    tokens, feeds = {}, []
    for index, (path, body) in enumerate(requests):
        answer = client.post(path, json=body)
        assert answer.status_code == 201, answer.text
        feed = answer.json()["feedUrl"]
        tokens[f"feed address {index}"] = feed.rsplit("/", 1)[1].removesuffix(".ics")
        feeds.append(Surface("a calendar feed", client.get("/" + feed.split("/", 3)[3]).text))
    look.present("BEGIN:VEVENT", feeds, "an event in the feeds")
    look.absent(hidden, feeds, "hidden value in a feed")
    surfaces = look.public(s) + look.organiser(s) + [
        surface for surfaces in look.participants(s).values() for surface in surfaces]
    look.absent(tokens, [*surfaces, Surface("server log", server.log())], "feed address")
    assert not look.controls and not look.leaks, look.report()


# --- no-store on every private answer ----------------------------------------------------------

def private_operations(tool: str) -> list[tuple[str, str]]:
    """(method, template) of every organiser and participant operation of `tool` in the
    OpenAPI document, GET and POST, live stream and delete aside."""
    found = []
    for template, operations in DOCUMENT["paths"].items():
        if template.split("/")[2:3] != [tool] or template.endswith(("/events", "/delete")):
            continue
        if "{editToken}" not in template and "{token}" not in template:
            continue
        found += [(method.upper(), template) for method in operations
                  if method in ("get", "post")]
    return found


@pytest.mark.parametrize("tool_name", sorted(INSTALLED))
def test_every_private_answer_is_no_store(tool_name: str, client: httpx.Client) -> None:
    """Create, every participation call, every organiser and participant operation (GET and
    POST, with the body the participation used) and the /e/ and /p/ pages: every answer that
    can carry someone's private data says `Cache-Control: no-store`, so no shared proxy
    keeps one person's giftee, partner or edit link. Each private GET must have answered 200
    at least once, so none is judged only by its refusal."""
    look = Look(client, tool_name)
    s = look.session()
    problems: list[str] = []

    def judge(what: str, status: int, headers: Any) -> None:
        if status < 400 and "no-store" not in headers.get("cache-control", "").lower():
            problems.append(f"{what} answered {status} without no-store")

    created = client.post(f"/api/{tool_name}", json=dict(INSTALLED[tool_name].example))
    assert created.status_code == 201
    judge(f"POST /api/{tool_name}", created.status_code, created.headers)
    for sent in s.sent:
        judge(f"{sent.method} {sent.template}", sent.status, sent.headers)
    bodies = {sent.template: sent.body for sent in s.sent}
    tokens = [token for _, token in s.tokens] or ["x" * 22]
    answered: dict[tuple[str, str], set[int]] = {}
    for method, template in private_operations(tool_name):
        for token in tokens[:2]:
            path = template.format(editToken=s.edit, token=token, **s.params)
            # A GET carries no body, as no browser sends one: a body the server answers
            # before reading ends the kept-alive connection (the server cannot tell where
            # the next request starts), and the next request on it would find it closed.
            response = client.request(method, path, json=bodies.get(template, {})) \
                if method == "POST" else client.get(path)
            answered.setdefault((method, template), set()).add(response.status_code)
            judge(f"{method} {template}", response.status_code, response.headers)
    for path in [f"/e/{s.edit}", *(f"/p/{token}" for token in tokens)]:
        response = client.get(path)
        judge(f"GET {path[:3]}...", response.status_code, response.headers)
    unread = [f"{method} {template} {sorted(statuses)}"
              for (method, template), statuses in answered.items()
              if method == "GET" and 200 not in statuses]
    assert not unread, f"{tool_name}: private reads that never answered 200: {unread}"
    assert not problems, f"{tool_name}: " + "; ".join(problems)


@pytest.mark.parametrize("tool_name", sorted(INSTALLED))
def test_the_export_downloaded_without_javascript_is_the_export(
        tool_name: str, client: httpx.Client) -> None:
    """The organiser page's download without the script (a form post answered with the
    file) carries exactly what the JSON export does, after every kind of participation: so
    each scan of the export above holds for it too; it is never cached, and the edit token
    stays in the path."""
    look = Look(client, tool_name)
    s = look.session()
    path = f"/api/{tool_name}/{s.edit}/export"
    response = client.post(path, content=urlencode({"groupkit-download": "export.json"}),
                           headers={"Content-Type": "application/x-www-form-urlencoded",
                                    "Sec-Fetch-Site": "same-origin"})
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == 'attachment; filename="export.json"'
    assert "no-store" in response.headers["cache-control"]
    assert response.json() == client.post(path, json={}).json()


# --- Fact Matcher: the organiser's own view over time ------------------------------------------

#: What a page says of the instance's version (which every change moves, as everyone knows),
#: and the counts "3 of 8" that move by design.
VERSIONS = (r'\d+ of \d+|data-live-version="\d+"|data-edit-version="\d+"'
            r'|name="groupkit-version" value="\d+"')


def test_fact_organiser_diffing_exports_ties_no_fact(client: httpx.Client) -> None:
    """An organiser exports (and reads the public board and the organiser page) before and
    after every claim and every save, knowing exactly who just acted: no save changes
    anything about that person, and facts only ever join the grid three or more at a time,
    so no fact can be pinned on the one who just wrote it. The answer key appears only with
    the reveal, and the organiser's shortcuts (showing a short batch, a reset that wipes a
    shown fact) are announced on the public board."""
    names = [f"Person {letter}" for letter in "ABCDEFGH"]
    made = client.post("/api/fact", json={"title": "Offsite", "names": names}).json()
    slug, edit = made["slug"], made["editToken"]

    def seen() -> tuple[dict[str, Any], set[str], str]:
        export = client.post(f"/api/fact/{edit}/export").json()["data"]
        board = client.get(f"/api/fact/{slug}").json()
        texts = {fact["text"] for fact in board["facts"]} | \
            {fact["text"] for fact in export["facts"]}
        return export, texts, client.get(f"/e/{edit}").text

    facts = {name: f"fact number {index} qz" for index, name in enumerate(names)}
    ties: list[str] = []
    export, texts, page = seen()
    for name in names[:7]:
        token = client.post("/api/fact/claim", json={"slug": slug, "name": name}).json()["token"]
        export, texts, page = seen()
        assert client.post(f"/api/fact/p/{token}/save",
                           json={"text": facts[name]}).status_code == 200
        after, new_texts, new_page = seen()
        assert "answerKey" not in after and "savedAt" not in json.dumps(after)
        if after["people"] != export["people"]:
            ties.append(f"the export's people changed when {name} saved")
        if re.sub(VERSIONS, "", new_page) != re.sub(VERSIONS, "", page) \
                and facts[name] not in new_page:
            ties.append(f"the organiser page changed for {name}'s save alone")
        joined = new_texts - texts
        if 0 < len(joined) < 3:
            ties.append(f"{sorted(joined)} joined the grid alone as {name} saved")
    assert not ties, ties
    # The edit form is part of the organiser page compared above; its refusal to take a
    # claimed name off the list reads the same whether or not that person wrote a fact.
    client.post("/api/fact/claim", json={"slug": slug, "name": names[7]})

    def refusal(name: str) -> str:
        reply = client.post(f"/api/fact/{edit}/edit",
                            json={"names": [other for other in names if other != name]})
        assert reply.status_code == 409
        return str(reply.json()["error"]).replace(name, "someone")

    assert refusal(names[0]) == refusal(names[7])
    board = client.get(f"/api/fact/{slug}").json()
    assert board["factsIn"] == 6  # two batches of three; the seventh waits
    assert client.post(f"/api/fact/{edit}/show").json() == {"ok": True, "shown": 1}
    board = client.get(f"/api/fact/{slug}").json()
    assert board["factsIn"] == 7 and board["notices"][-1]["what"] == "shown early"
    # A reset that wipes a shown fact is told to everyone, the person's name included.
    assert client.post(f"/api/fact/{edit}/reset", json={"name": names[2]}).status_code == 200
    notice = client.get(f"/api/fact/{slug}").json()["notices"][-1]
    assert (notice["what"], notice["name"], notice["factRemoved"]) == \
        ("reset", names[2], True)
    assert f"The organiser reset {names[2]}" in client.get(f"/s/{slug}").text
    client.post(f"/api/fact/{edit}/reveal", json={"reveal": True})
    key = client.post(f"/api/fact/{edit}/export").json()["data"]["answerKey"]
    assert {row["name"]: row["fact"] for row in key}[names[0]] == facts[names[0]]


# --- Weekly Pulse: a watcher over time ----------------------------------------------------------

def _pulse_current(client: httpx.Client, slug: str) -> tuple[dict[int, int], set[str], set[str]]:
    """(score counts, words in the JSON, words on the page) of this week's results."""
    week = client.get(f"/api/pulse/{slug}").json()["weeks"][0]
    counts = {row["score"]: row["count"] for row in week["scores"] or []}
    page = client.get(f"/s/{slug}").text
    current = page[page.index("pulse-current"):]
    current = current[:current.index("</article>")]
    on_page = set(re.findall(r"<li>([^<]*)</li>", current))
    return counts, set(week["comments"] or []), on_page


def test_pulse_watcher_diffing_each_response_ties_none(client: httpx.Client) -> None:
    """A public visitor holds the live stream and, on every event, reads the public JSON and
    page, while 24 people respond one at a time (scores cycling 1-5, so any four in a row
    differ). Whenever the results change, every word that appeared could have come with any
    of at least four different scores: no score is tied to its words, on either surface.
    (Before batching, each response moved one score and added one word at once: 24 ties.)"""
    made = client.post("/api/pulse", json={"team": "Watchers"}).json()
    slug, tied, changes = made["slug"], [], 0
    with client.stream("GET", f"/api/pulse/{slug}/events", timeout=30.0) as stream:
        lines = stream.iter_lines()

        def next_event() -> None:
            for line in lines:
                if line.startswith("data:"):
                    return

        next_event()  # the version on connect
        before = _pulse_current(client, slug)
        for index in range(24):
            score, words = index % 5 + 1, f"pulse words {index} qz"
            reply = client.post("/api/pulse/respond",
                                json={"slug": slug, "score": score, "words": words})
            assert reply.status_code == 201
            next_event()
            after = _pulse_current(client, slug)
            delta = {s: after[0].get(s, 0) - before[0].get(s, 0) for s in range(1, 6)}
            scores = {s for s, moved in delta.items() if moved}
            for surface, new_words in (("JSON", after[1] - before[1]),
                                       ("page", after[2] - before[2])):
                if new_words:
                    changes += 1
                if new_words and len(scores) < 4:
                    tied.append(f"{surface}: {sorted(new_words)} came with scores {scores}")
            before = after
    assert not tied, tied
    assert changes == 2 * 6  # six batches of four, seen on both surfaces: the watcher watched
    week = client.get(f"/api/pulse/{slug}").json()["weeks"][0]
    assert (week["responses"], week["inResults"]) == (24, 24)


# --- forms without JavaScript ------------------------------------------------------------------

def form_fields(body: Any) -> list[tuple[str, str]]:
    """A JSON body as the wire names of a form (groupkit.web._forms): text as itself, anything
    else as `key:json`."""
    if not isinstance(body, dict):
        return []
    return [(key, value) if isinstance(value, str) else (f"{key}:json", json.dumps(value))
            for key, value in body.items()]


@pytest.mark.parametrize("tool_name", sorted(INSTALLED))
def test_form_posts_keep_hidden_values_out_of_urls_cookies_and_logs(
        tool_name: str, client: httpx.Client, server: Any) -> None:
    """Every participation call (and the create) sent again as a plain form post, as a
    browser without JavaScript sends it: the 303 goes back to a page with no query string,
    and neither its address, nor the flash cookie, nor the server's log holds a marker, a
    token, a claim secret or the edit token (beyond the link the form was posted to and the
    share link, whose words come from the title)."""
    look = Look(client, tool_name)
    s = look.session()
    secret_values = {**{f"marker {label}": value for label, value in look.mark.by_label.items()},
                     **{f"token {i}": token for i, (_, token) in enumerate(s.tokens)},
                     **{f"secret {i}": secret for i, secret in enumerate(s.secrets)},
                     "the editToken": s.edit}
    calls = [(f"/api/{tool_name}", dict(INSTALLED[tool_name].example))]
    calls += [(sent.path, sent.body) for sent in s.sent if sent.method == "POST"]
    log_before = len(server.log())
    problems = []
    receipts = 0
    for path, body in calls:
        response = client.post(path, content=urlencode(form_fields(body)), headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Sec-Fetch-Site": "same-origin"})
        location = response.headers.get("location", "")
        cookie = response.headers.get("set-cookie", "")
        if response.status_code != 303 or "?" in location:
            problems.append(f"{path} answered {response.status_code} to {location!r}")
        for label, value in secret_values.items():
            if value in path or value in s.slug:
                continue  # the link the form was posted to, or the public one
            if value in location or value in cookie:
                problems.append(f"{path}: {label} in the redirect or its cookie")
        if response.status_code == 303:
            leaks, paid = landing_leaks(client, server, path, location.split("#")[0], look)
            problems += leaks
            receipts += paid
    logged = server.log()[log_before:]
    problems += [f"{label} in the server's log" for label, value in secret_values.items()
                 if value in logged]
    assert not problems, f"{tool_name}: " + "; ".join(problems)
    if tool_name == "registry":  # shown to the sender, so its absence elsewhere means something
        assert receipts >= 1


#: What a flash hands its sender: private and organiser links, claim secrets and a registry
#: receipt's reference.
HANDED_OVER = re.compile(r'href="/[pe]/(\w{16,})"|<code>(\w+)</code>|'
                         r'class="registry-reference">([^<]+)<')


def landing_leaks(client: httpx.Client, server: Any, path: str, landing: str,
                  look: Look) -> tuple[list[str], int]:
    """The page a form post lands on, as its sender sees it (the flash, once) and as anyone
    else does: what the flash handed over (links, secrets, a receipt's reference and
    payment details) must not be on the other visitor's page, nor on the sender's next
    visit. Also says whether the sender was shown payment details."""
    sender = client.get(landing).text
    handed = {value for match in HANDED_OVER.finditer(sender) for value in match.groups()
              if value and value not in landing}
    payment = [value for label, value in look.mark.by_label.items()
               if label.startswith("create.payment.") and value in sender]
    with server.client() as other:
        seen = other.get(landing).text
    again = client.get(landing).text
    return [f"{path}: what its flash handed over ({value}) on {who} page"
            for value in [*handed, *payment] for who, text in
            (("another visitor's", seen), ("the sender's next", again)) if value in text
            ], int(bool(payment))


def test_meal_dropoff_reaches_only_the_cook_of_that_day(client: httpx.Client) -> None:
    """The drop-off address: on the coordinator's page and export, and in the answer to the
    day's holder's own secret (`held`); never on the public side, whatever the board holds,
    nor for another cook's secret."""
    look = Look(client, "meal")
    example = dict(INSTALLED["meal"].example)
    example["dropoff"] = look.mark("dropoff")
    s = look.session(example, keep=tuple(string_leaves(example)), participate=False)
    secrets_of = {}
    for slot_id, name in (("d0-1", "Ann"), ("d1-1", "Bo")):
        claimed = client.post("/api/meal/claim", json={"slug": s.slug, "slotId": slot_id,
                                                       "name": name, "dish": "Soup"})
        assert claimed.status_code == 201
        secrets_of[slot_id] = claimed.json()["secret"]
    s.params["slotId"] = "d0-1"  # the day's calendar read is on the public side too
    dropoff = example["dropoff"]
    look.absent({"the drop-off": dropoff}, look.public(s), "drop-off on the public side")
    look.present(dropoff, look.organiser(s)[:2], "drop-off for the coordinator")
    held = client.post("/api/meal/held", json={"slug": s.slug, "slotId": "d0-1",
                                               "secret": secrets_of["d0-1"]})
    look.present(dropoff, [Surface("the cook's own answer", held.text)], "drop-off for the cook")
    wrong = client.post("/api/meal/held", json={"slug": s.slug, "slotId": "d0-1",
                                                "secret": secrets_of["d1-1"]})
    assert wrong.status_code == 404
    look.absent({"the drop-off": dropoff}, [Surface("another cook's answer", wrong.text)],
                "drop-off for another day's cook")
    look.common(s)
    assert look.read_count > 0
    assert not look.controls and not look.leaks, look.report()
