"""The organiser's fix for every tool with an edit, as the browser tests make it
(test_edit.py, test_two_tabs.py): one `Fix` row per tool in FIXES: the create body holding
the typo, the field to fix it in, how to add one (`row` for a list of rows, `line` for a
one-per-line box) and what the share page shows of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

EDIT_FORM = "form[data-api$='/edit']"
PHONE = {"width": 390, "height": 844}

Add = Callable[[Page], None]


@dataclasses.dataclass(frozen=True)
class Fix:
    create: dict[str, Any]
    field: str  # the text field holding the typo: `#edit-<field>`
    typo: str  # in the create body, shown on the share page
    fixed: str  # what the organiser types instead
    add: Add | None = None  # adds a spot, option, shift or person on the form
    added: tuple[str, ...] = ()  # what the share page shows of it afterwards
    take: tuple[str, dict[str, Any], str] | None = None  # (operation, body, name it shows)
    asks: str = ""  # the confirm question saving asks first (its 409 is one console error)
    choose: tuple[str, str] | None = None  # (select, option) the guest can pick afterwards


def row(group: str, **values: str) -> Add:
    """Fill the blank row the form keeps at the end of a list (adding one if none is)."""
    def add(page: Page) -> None:
        rows = page.locator(f"{EDIT_FORM} [data-list='{group}'] [data-row]")
        last = rows.last
        if last.locator("[data-key]").first.input_value():
            page.locator(f"{EDIT_FORM} [data-add-row='{group}']").click()
            last = rows.last
        for key, value in values.items():
            last.locator(f"[data-key='{key}']").fill(value)
    return add


def line(field: str, text: str, then: str = "") -> Add:
    """Add a line to a one-per-line box (then press the button named `then`)."""
    def add(page: Page) -> None:
        box = page.locator(f"#{field}")
        box.fill(f"{box.input_value()}\n{text}")
        if then:
            page.get_by_role("button", name=then).click()
    return add


REDRAW = ("Changing the names or outcomes draws the sweep again — everyone may end up with a "
          "different one. Go ahead?")

FIXES: dict[str, Fix] = {
    "plate": Fix({"title": "Street party", "eventDate": "Satruday 6 December", "categories": [
        {"name": "Mains", "capacity": 2}, {"name": "Sweets", "capacity": 1}]},
        "eventDate", "Satruday", "Saturday", row("categories", name="Drinks", capacity="2"),
        ("Drinks",), ("claim", {"slotId": "c1-1", "name": "Bodhi", "dish": "Pavlova"}, "Bodhi")),
    "hens": Fix({"title": "Mia's hens", "when": "Satruday 14 March", "categories": [
        {"name": "Food", "capacity": 2}]},
        "when", "Satruday", "Saturday", row("categories", name="Music", capacity="1"),
        ("Music",), ("claim", {"slotId": "c0-1", "name": "Bodhi", "message": "on it"}, "Bodhi")),
    "roster": Fix({"title": "Working bee", "eventDate": "Satruday 14 March", "shifts": [
        {"label": "Set-up", "capacity": 2}]},
        "eventDate", "Satruday", "Saturday", row("shifts", label="Clean-up", capacity="3"),
        ("Clean-up",), ("claim", {"slotId": "s0-1", "name": "Bodhi", "message": "ok"}, "Bodhi")),
    "finddate": Fix({"title": "Team dinnner", "slots": [{"date": "2026-12-10"},
                                                        {"date": "2026-12-11"}]},
                    "title", "dinnner", "dinner", row("slots", date="2026-12-12"),
                    ("Sat 12 Dec",),
                    ("respond", {"name": "Bodhi", "answers": [{"slotId": "d1", "answer": "yes"}]},
                     "Bodhi")),
    "teams": Fix({"title": "Trivai night", "teams": [{"title": "Red", "members": ["Ann", "Bo"]},
                                                     {"title": "Blue", "members": ["Cy", "Di"]}]},
                 "title", "Trivai", "Trivia", line("edit-teams-names", "Eve",
                                                   then="Shuffle into teams"),
                 ("Eve", "5 people in 2 teams")),
    "sweeps": Fix({"title": "Grand fianl", "outcomes": ["Lions", "Swans"],
                   "names": ["Ann", "Bo"]},
                  "title", "fianl", "final", line("edit-names", "Cy"), ("Cy",), asks=REDRAW),
    "bracket": Fix({"title": "Table tennis", "seeding": "listed",
                    "entrants": ["Jonh", "Bo", "Cy", "Di"]}, "entrants", "Jonh", "John"),
    "meal": Fix({"forWhom": "Jo Smtih", "startDate": "2026-12-02", "days": 2},
                "forWhom", "Smtih", "Smith",
                take=("claim", {"slotId": "d0-1", "name": "Bodhi", "dish": "Soup"}, "Bodhi")),
    "registry": Fix({"coupleNames": "Mia & Smma", "payment": {"aliasId": "mia@example.com"}},
                    "coupleNames", "Smma", "Sam",
                    take=("claim", {"partId": "p001", "name": "Bodhi"}, "Bodhi")),
    "card": Fix({"recipient": "Margeret"}, "recipient", "Margeret", "Margaret",
                take=("sign", {"name": "Bodhi", "message": "Enjoy!"}, "Bodhi")),
    "recipe": Fix({"title": "Family cookbook", "forWhom": "Mum's 70ht"}, "forWhom", "70ht",
                  "70th", take=("add", {"cook": "Bodhi", "dish": "Pavlova",
                                        "ingredients": "Eggs", "method": "Whisk"}, "Bodhi")),
    "baby": Fix({"parents": "Priya & Tmo", "dueDate": "14 March"}, "parents", "Tmo", "Tom",
                take=("guess", {"guesser": "Bodhi", "date": "2026-12-14", "weightGrams": 3400},
                      "Bodhi")),
    "kudos": Fix({"team": "Suport team"}, "team", "Suport", "Support",
                 take=("note", {"sender": "Bodhi", "recipient": "Cy", "message": "Great work"},
                       "Bodhi")),
    "pulse": Fix({"team": "Data crwe"}, "team", "crwe", "crew"),
    "qotd": Fix({"teamName": "Platfrom"}, "teamName", "Platfrom", "Platform"),
    "poker": Fix({"team": "Paymnets squad"}, "team", "Paymnets", "Payments",
                 take=("join", {"name": "Bodhi"}, "Bodhi")),
    "giftidea": Fix({"recipient": "Priya", "occasion": "Farwell lunch"}, "occasion", "Farwell",
                    "Farewell", take=("suggest", {"idea": "Hiking socks"}, "Hiking socks")),
    # A name claimed before the edit stays claimed; the organiser page never shows a pairing.
    "kringle": Fix({"title": "Offcie Kris Kringle", "names": ["Ann", "Bodhi", "Cy"]},
                   "title", "Offcie", "Office", line("edit-names", "Dimitra"), ("Dimitra",),
                   ("claim", {"name": "Bodhi"}, "Bodhi")),
    # A vote needs an option id, unknown to a row: the tally is what shows.
    "poll": Fix({"question": "Where for lnuch?", "options": ["Thai", "Pub"]},
                "question", "lnuch", "lunch", row("options", text="Picnic in the park"),
                ("Picnic in the park",)),
    # The share page never names a role or a player: what it counts is what shows.
    "roles": Fix({"title": "Werewolf nihgt", "roles": ["Wolf", "Villager", "Villager"]},
                 "title", "nihgt", "night", row("roles", name="Seer", count="1"),
                 ("3 still to go",), ("claim", {"name": "Bodhi"}, "1 of 4 roles dealt")),
    # Names show only in the claim list (who has claimed, never): the count is what shows.
    "fact": Fix({"title": "Offsite icebraeker", "names": ["Ann", "Bodhi", "Cy"]},
                "title", "icebraeker", "icebreaker", line("edit-names", "Dimitra"),
                ("0 of 4 facts on the grid",), choose=("#name", "Dimitra")),
    "coffee": Fix({"title": "Coffee roueltte", "names": ["Ann", "Bodhi", "Cy"]},
                  "title", "roueltte", "roulette", line("edit-names", "Dimitra"),
                  ("Dimitra",), ("claim", {"name": "Bodhi"}, "Bodhi")),
}
