"""The group's language: what a group receives together (chat posts, emails, calendar
text) speaks one language, whoever's request or which background loop makes it
(`groupkit.core._i18n.for_group`). A new instance takes its creator's language
(`groupkit.core._api.creator_language`); the organiser changes it with `POST
/api/<tool>/{editToken}/language`, which the kernel adds to every tool that sends its group
anything (`language_operations`), and the organiser page's panel (`language_panel`).
Pages never follow it: each reader reads their own language."""

from __future__ import annotations

from typing import Any

from groupkit.core import _i18n as i18n
from groupkit.core._errors import bad_request
from groupkit.core._fields import Exact
from groupkit.core._i18n import N_
from groupkit.core._schema import Schema
from groupkit.core._storage import Instance
from groupkit.core._tool import Call
from groupkit.core._tool import Operations
from groupkit.core._tool import Tool

__all__ = ["BAD_LANGUAGE", "group_language", "language_operations", "language_panel",
           "sends_to_group"]

BAD_LANGUAGE = N_("Choose one of the languages offered here: {languages}.")


class LanguageBody(Schema):
    language = Exact("a language offered here (`en`, and each shipped one, e.g. `de`)")


LANGUAGE_SCHEMA = {"type": "object", "properties": {
    "language": {"type": "string", "description": "the group's language now"}}}


def _offered() -> tuple[str, ...]:
    catalogs = i18n.app_catalogs()
    return catalogs.languages if catalogs is not None else (i18n.DEFAULT,)


def group_language(instance: Instance) -> str:
    """The language the group is sent messages in (English when its choice is no longer
    offered)."""
    chosen = instance.language or i18n.DEFAULT
    return chosen if chosen in _offered() else i18n.DEFAULT


def sends_to_group(tool: Tool) -> bool:
    """Whether the tool sends its group anything (chat posts, emails, calendar entries):
    then the organiser chooses the language it is in."""
    return tool.chat is not None or tool.invite is not None or tool.feed is not None


def language_operations(ops: Operations) -> None:
    """Add `language` to a tool that sends its group anything; once per `Operations`."""
    if any(op.path == "language" for op in ops.operations):
        return

    @ops.organiser("language", body=LanguageBody, returns=LANGUAGE_SCHEMA, errors={
        400: f"`{BAD_LANGUAGE}` (formatted with the languages offered)"},
        description=("The language of what the group receives together: chat posts, "
                     "emails and calendar entries. A new instance takes its creator's "
                     "(their language cookie, else their `Accept-Language`). Pages follow "
                     "each reader, and the API's JSON stays English."))
    def choose(call: Call) -> dict[str, Any]:
        """Choose the language the group is sent messages in."""
        offered = _offered()
        chosen = str(call.data.get("language") or "").strip()
        if chosen not in offered:
            raise bad_request(i18n.message(BAD_LANGUAGE, languages=", ".join(offered)))
        call.instance.language = "" if chosen == i18n.DEFAULT else chosen
        call.instance.save(only=[Instance.language])
        return {"language": chosen}


def language_panel(instance: Instance, email: bool) -> dict[str, Any] | None:
    """The organiser page's choice of the group's language: None while the service speaks
    English only (there is nothing to choose). `email`: whether this server sends email
    (else the panel never mentions it)."""
    offered = _offered()
    if len(offered) == 1:
        return None
    return {"current": group_language(instance), "email": email,
            "choices": [(code, i18n.language_name(code)) for code in offered]}
