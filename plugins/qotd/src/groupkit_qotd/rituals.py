"""Question of the Day in the team's chat: today's question each morning, at the hour the
organiser chose, in the team's time zone (Sydney, like the rotation)."""

from __future__ import annotations

from collections.abc import Iterator
from zoneinfo import ZoneInfo

from groupkit import N_
from groupkit import Instance
from groupkit.integrations import ChatRitual
from groupkit.integrations import ChatTime

from . import rotation


def morning_post(instance: Instance, when: ChatTime) -> Iterator[tuple[str, str]]:
    """Today's question, once per Sydney day, from the chosen hour on."""
    local = when.now.astimezone(ZoneInfo(rotation.ZONE))
    if local.hour < when.hour:
        return
    day = local.date()
    asked = rotation.question(instance.data, rotation.qi_on(instance.data, day))
    yield (f"qotd-{day.isoformat()}",
           f"Question of the day: {asked.question}\n{asked.a} or {asked.b}? "
           f"Pick a side: {when.link}")


RITUAL = ChatRitual(what=N_("today's question each morning"), schedule=morning_post)
