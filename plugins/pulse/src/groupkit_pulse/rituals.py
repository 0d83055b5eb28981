"""Weekly Pulse in the team's chat: a reminder on Friday, and last week's result on Monday,
both from the hour the organiser chose (Sydney time, like the weeks). The result is posted
only for a week that passed the anonymity threshold, and only as the public page shows it
in numbers: the results' count, average and spread (its full batches: the few after the
last one never show), never a single response or comment."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from zoneinfo import ZoneInfo

from groupkit import N_
from groupkit import Instance
from groupkit.integrations import ChatRitual
from groupkit.integrations import ChatTime

from .api import weeks
from .weeks import SYDNEY
from .weeks import week_of

FRIDAY = 4


def due_posts(instance: Instance, when: ChatTime) -> Iterator[tuple[str, str]]:
    local = when.now.astimezone(ZoneInfo(SYDNEY))
    if local.hour < when.hour:
        return
    this_week = week_of(when.now)
    if local.weekday() == FRIDAY:
        yield (f"reminder-{this_week}",
               f"Pulse check: {instance.data['question']} Answer anonymously before the "
               f"week ends: {when.link}")
    last_week = (dt.date.fromisoformat(this_week) - dt.timedelta(weeks=1)).isoformat()
    for week in weeks(instance, when.now):
        if week["week"] == last_week and week["shown"]:
            spread = ", ".join(f"{entry['score']}: {entry['count']}"
                               for entry in reversed(week["scores"]))
            yield (f"result-{last_week}",
                   f"Last week's pulse ({week['label']}): {week['average']} on average from "
                   f"{week['inResults']} responses ({spread}). More: {when.link}")


RITUAL = ChatRitual(what=N_("a reminder on Friday, and last week's result on Monday once it "
                            "has enough responses to show"), schedule=due_posts)
