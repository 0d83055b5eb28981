"""Question of the Day in the team's chat: today's question each morning, at the hour the
organiser chose, in the team's time zone (Sydney, like the rotation)."""

from __future__ import annotations

from collections.abc import Iterator
from zoneinfo import ZoneInfo

from groupkit import N_
from groupkit import Instance
from groupkit import gettext
from groupkit.integrations import ChatRitual
from groupkit.integrations import ChatTime

from . import rotation

#: The morning post, in the group's language (the kernel speaks it while this runs).
MORNING = N_("Question of the day: {question}\n{a} or {b}? Pick a side: {link}")


def morning_post(instance: Instance, when: ChatTime) -> Iterator[tuple[str, str]]:
    """Today's question, once per Sydney day, from the chosen hour on."""
    local = when.now.astimezone(ZoneInfo(rotation.ZONE))
    if local.hour < when.hour:
        return
    day = local.date()
    asked = rotation.question(instance.data, rotation.qi_on(instance.data, day))
    # A question from the bank is said in the group's language (the catalog holds the
    # bank); one the organiser wrote stays as written.
    shown = asked.public()
    options: dict[str, str] = shown["options"]  # type: ignore[assignment]
    yield (f"qotd-{day.isoformat()}", gettext(MORNING).format(
        question=shown["question"], a=options["a"], b=options["b"], link=when.link))


RITUAL = ChatRitual(what=N_("today's question each morning"), schedule=morning_post,
                    zone=rotation.ZONE)
