"""Group Vote: the organiser's edit of the question, the options and the closing time.

A closed poll's result is final: its options (which ones, their words, their order) and its
closing time no longer change, since either would rewrite the result everyone saw close.
Its question still does: rewording it fixes a typo and moves no vote. An edit that sends
the options or closing time exactly as they are is no change, so the organiser page's
form (which posts every field it shows) still saves a new question.

A vote is never dropped silently: an option that holds votes goes only once the organiser
confirms. On a secret ballot the organiser does not see every vote yet (the published tally
moves in batches), so whether to ask must not tell them more: there it asks before
removing any option once anyone has voted, whatever the hidden counts say.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from groupkit import N_
from groupkit import Call
from groupkit import Edit
from groupkit import Instance
from groupkit import bad_request
from groupkit import conflict
from groupkit import gettext
from groupkit import message
from groupkit import request_time

from .ballots import CLOSED_OPTIONS
from .ballots import add_option
from .ballots import closes_at
from .ballots import drop_options
from .ballots import holding
from .ballots import is_closed
from .ballots import options_of
from .models import PollBallot
from .models import PollOption
from .results import ORGANISER
from .results import organiser_edit
from .results import results
from .schema import MAX_OPTIONS
from .schema import RANKED
from .schema import TOO_MANY_OPTIONS
from .schema import EditPoll
from .schema import out_of_window

REMOVE_VOTED = N_("People voted for {options}. Remove anyway? Those votes go; every "
                  "ballot keeps its other picks.")
REMOVE_SECRET = N_("It's a secret ballot, so you can't see every vote yet: removing "
                   "{options} drops any votes it has. Remove anyway?")
CLOSED_DEADLINE = N_("This poll has closed — its closing time can't change now.")

DESCRIPTION = (
    "Group Vote: `question` (the title; votes stay), `closesAt` (add, move or, with null or "
    "an empty string, clear the closing time; create rules) and `options`, the whole new "
    "list: an entry `{id, text}` continues that option (a renamed option keeps its votes), "
    "a plain text is the option of that text ignoring case or a new one, the list's order "
    "becomes the poll's, and options left out are removed. The create rules apply (2 to 30 "
    "options; a poll that already has more, through suggestions, may keep as many): "
    f"growing past that is `{TOO_MANY_OPTIONS}`. Refused once the poll is closed (by the "
    "organiser or its closing time), since the result is final: changing its closing "
    f"time, 409 `{CLOSED_DEADLINE}`, and changing its options in any way (adding, "
    f"removing, renaming or reordering), 409 `{CLOSED_OPTIONS}`; sending them exactly as "
    "they are is no change and is accepted, and the question stays editable. "
    "Confirmations (409 with `confirm: true`; go ahead by resending with "
    "`\"confirm\": true`): removing options that hold votes, "
    f"`{REMOVE_VOTED}` (then each ballot loses that pick and keeps the rest, as "
    "`removeOption` does); on a secret ballot, removing any option once anyone has voted, "
    f"`{REMOVE_SECRET}` (the organiser cannot see every vote, and the question must not "
    "tell them). `{options}` lists the options in quotes.")


def _visible(instance: Instance, options: list[PollOption], now: dt.datetime
             ) -> list[PollOption]:
    """The options the organiser sees: on a secret ballot a suggestion joins the tally only
    with the next batch of ballots (so it cannot be tied to its ballot), so until then the
    edit neither shows it nor lets its existence change an answer."""
    shown = {entry["id"] for entry in results(instance, options, now, ORGANISER,
                                                 runoff=False)["tally"]}
    return [option for option in options if option.option_id in shown]


def current(instance: Instance) -> dict[str, Any]:
    moment = closes_at(instance.data)
    options = _visible(instance, options_of(instance), request_time())
    return {"question": instance.title,
            "options": [{"id": option.option_id, "text": option.text} for option in options],
            "closesAt": moment.isoformat().replace("+00:00", "Z") if moment else ""}


#: The end of a list of options, in the language being spoken (the API's is English).
LAST_OF_LIST = N_("{rest} and {last}")


def _quoted(options: list[PollOption]) -> str:
    texts = [f'"{option.text}"' for option in options]
    if len(texts) == 1:
        return texts[0]
    return gettext(LAST_OF_LIST).format(rest=", ".join(texts[:-1]), last=texts[-1])


def apply_edit(call: Call) -> None:
    instance, changes = call.instance, call.data
    data = dict(instance.data)
    if "closesAt" in changes:
        moment = changes["closesAt"]
        value = moment.isoformat() if moment else None
        if value != data.get("closesAt"):
            if is_closed(data, call.now):
                raise conflict(CLOSED_DEADLINE, "closesAt")
            refused = out_of_window(moment) if moment else None
            if refused:
                raise bad_request(refused, "closesAt")
            data.pop("closesAt", None)
            if value:
                data["closesAt"] = value
    if "options" in changes:
        if is_closed(data, call.now):
            _keep_options(call, changes["options"])
        else:
            data = _edit_options(call, data, changes["options"])
    if "question" in changes:
        instance.title = changes["question"]
    instance.data = data


def _keep_options(call: Call, sent: list[dict[str, Any]]) -> None:
    """A closed poll's options stay as they closed: the same list, word for word and in
    order, passes (nothing to store); anything else is refused."""
    every = options_of(call.instance)
    options = _visible(call.instance, every, call.now)
    hidden = [option for option in every if option not in options]
    plan = _match(options, hidden, sent)
    if plan != options or any(entry["text"] != option.text
                              for entry, option in zip(sent, options, strict=True)):
        raise conflict(CLOSED_OPTIONS, "options")


def _match(options: list[PollOption], hidden: list[PollOption], sent: list[dict[str, Any]]
           ) -> list[PollOption | None]:
    """The option each sent entry continues (None: a new one): by id first, then a plain
    text finds the option of that text ignoring case, a waiting suggestion included."""
    by_id = {option.option_id: option for option in options}
    plan: list[PollOption | None] = []
    taken: set[str] = set()
    for entry in sent:  # the options named by id first
        option = by_id.get(entry["id"] or "")
        if option is not None and option.option_id not in taken:
            taken.add(option.option_id)
            plan.append(option)
        else:
            plan.append(None)
    for place, entry in enumerate(sent):  # then a plain text finds its option
        if plan[place] is None:
            match = next((option for option in [*options, *hidden]
                          if option.option_id not in taken
                          and option.text.casefold() == entry["text"].casefold()), None)
            if match is not None:
                taken.add(match.option_id)
                plan[place] = match
    return plan


def _edit_options(call: Call, data: dict[str, Any], sent: list[dict[str, Any]]
                  ) -> dict[str, Any]:
    instance = call.instance
    every = options_of(instance)
    options = _visible(instance, every, call.now)
    hidden = [option for option in every if option not in options]
    if len(sent) > max(MAX_OPTIONS, len(options)):
        raise bad_request(TOO_MANY_OPTIONS, "options")
    plan = _match(options, hidden, sent)
    taken = {option.option_id for option in plan if option is not None}
    removed = [option for option in options if option.option_id not in taken]
    gone = {option.option_id for option in removed}
    if removed and not call.confirmed:
        if data["secret"]:
            if data["ballots"]:
                raise conflict(message(REMOVE_SECRET, options=_quoted(removed)), "options",
                               confirm=True)
        else:
            voted = [option for option in removed if PollBallot.select(PollBallot.id).where(
                holding(instance, option.option_id)).exists()]
            if voted:
                raise conflict(message(REMOVE_VOTED, options=_quoted(voted)), "options",
                               confirm=True)
    kept = [option for option in every if option.option_id not in gone]
    if removed:
        PollOption.delete().where(PollOption.id.in_([option.id for option in removed])
                                  ).execute()
        for option_id in sorted(gone):
            data = organiser_edit(data, removed=option_id)
        # Removing: as `removeOption`, each ballot loses those picks and keeps the rest.
        drop_options(instance, kept, sorted(gone), ranked=data["mode"] == RANKED)
    renamed: dict[str, str] = {}
    order: list[str] = []
    for place, (entry, option) in enumerate(zip(sent, plan, strict=True)):
        if option is None or option in hidden:
            # A new option, or a waiting suggestion the organiser typed: shown from now on
            # with no votes until the next batch, alike.
            if option is None:
                option = add_option(instance, kept, entry["text"], suggested=False)
            data = organiser_edit(data, added={"id": option.option_id, "text": entry["text"]})
        if option.text != entry["text"]:
            renamed[option.option_id] = option.text = entry["text"]
        option.position = place
        option.save(only=[PollOption.text, PollOption.position])
        order.append(option.option_id)
    for place, option in enumerate(
            [option for option in hidden if option.option_id not in taken], len(sent)):
        option.position = place  # waiting suggestions stay, after the organiser's list
        option.save(only=[PollOption.position])
    return organiser_edit(data, renamed=renamed, order=order)


EDIT = Edit(fields=("question", "options", "closesAt"), current=current, apply=apply_edit,
            schema=EditPoll, description=DESCRIPTION,
            errors={409: f"`{CLOSED_DEADLINE}`; `{CLOSED_OPTIONS}`; with `confirm: true`: "
                         f"`{REMOVE_VOTED}` or `{REMOVE_SECRET}` (see above)."})
