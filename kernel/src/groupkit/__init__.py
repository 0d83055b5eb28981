"""groupkit: the kernel's public surface, what every tool needs. A tool plugin imports from
here and from the building blocks' public modules (`groupkit.signups`, `groupkit.entries`,
`groupkit.integrations`), never from a private module; the hooks are in `groupkit.hookspecs`
and the test kit is the `groupkit-testing` distribution (`groupkit_testing`)."""

from __future__ import annotations

import importlib
import typing
import warnings

from groupkit.core._clock import local_date
from groupkit.core._clock import request_time
from groupkit.core._clock import utc_iso
from groupkit.core._clock import week_start
from groupkit.core._config import Settings
from groupkit.core._config import load_settings
from groupkit.core._credentials import CLAIM_SECRET_LENGTH
from groupkit.core._credentials import EDIT_TOKEN_LENGTH
from groupkit.core._credentials import PARTICIPANT_TOKEN_LENGTH
from groupkit.core._edits import mark_edited
from groupkit.core._errors import ApiError
from groupkit.core._errors import bad_request
from groupkit.core._errors import checked_in_order
from groupkit.core._errors import conflict
from groupkit.core._errors import not_found
from groupkit.core._fields import Choice
from groupkit.core._fields import Count
from groupkit.core._fields import Exact
from groupkit.core._fields import Flag
from groupkit.core._fields import Line
from groupkit.core._fields import ObjectList
from groupkit.core._fields import Raw
from groupkit.core._fields import RecordId
from groupkit.core._fields import SpecField
from groupkit.core._fields import StringList
from groupkit.core._fields import Text
from groupkit.core._fields import WholeNumber
from groupkit.core._fields import bounded_int
from groupkit.core._fields import clean_line
from groupkit.core._fields import clean_text
from groupkit.core._fields import first_duplicate
from groupkit.core._fields import js_string
from groupkit.core._fields import kept_by_name
from groupkit.core._fields import name_digest
from groupkit.core._fields import text_key
from groupkit.core._fields import truthy
from groupkit.core._fields import whole_number
from groupkit.core._i18n import N_
from groupkit.core._i18n import format_date
from groupkit.core._i18n import format_datetime
from groupkit.core._i18n import format_decimal
from groupkit.core._i18n import format_money
from groupkit.core._i18n import gettext
from groupkit.core._i18n import language
from groupkit.core._i18n import message
from groupkit.core._i18n import ngettext
from groupkit.core._i18n import pgettext
from groupkit.core._live import changed as instance_changed
from groupkit.core._schema import Schema
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Credential
from groupkit.core._storage import Instance
from groupkit.core._storage import JsonField
from groupkit.core._storage import UTCDateTimeField
from groupkit.core._storage import lock_instance
from groupkit.core._storage import prepared_rows
from groupkit.core._storage import run_prepared
from groupkit.core._storage import utcnow
from groupkit.core._times import read_day
from groupkit.core._times import read_hours
from groupkit.core._times import written_time
from groupkit.core._tokens import find_token
from groupkit.core._tokens import issue_token
from groupkit.core._tokens import retire_tokens
from groupkit.core._tokens import revoke_tokens
from groupkit.core._tokens import rotate_token
from groupkit.core._tool import AfterCommit
from groupkit.core._tool import Call
from groupkit.core._tool import Edit
from groupkit.core._tool import Hidden
from groupkit.core._tool import Operations
from groupkit.core._tool import Participation
from groupkit.core._tool import Reply
from groupkit.core._tool import Tool
from groupkit.core._tool import Walkthrough
from groupkit.core._tool import stored_values
from groupkit.hookspecs import PLUGIN_API_VERSION
from groupkit.hookspecs import hookimpl
from groupkit.ops._app import create_app

__version__ = "0.2.3"

__all__ = [
    "CLAIM_SECRET_LENGTH",
    "EDIT_TOKEN_LENGTH",
    "N_",
    "PARTICIPANT_TOKEN_LENGTH",
    "PLUGIN_API_VERSION",
    "AfterCommit",
    "ApiError",
    "BaseModel",
    "Call",
    "Choice",
    "Count",
    "Credential",
    "Edit",
    "Exact",
    "Flag",
    "Hidden",
    "Instance",
    "JsonField",
    "Line",
    "ObjectList",
    "Operations",
    "Participation",
    "Raw",
    "RecordId",
    "Reply",
    "Schema",
    "Settings",
    "SpecField",
    "StringList",
    "Text",
    "Tool",
    "UTCDateTimeField",
    "Walkthrough",
    "WholeNumber",
    "__version__",
    "bad_request",
    "bounded_int",
    "checked_in_order",
    "clean_line",
    "clean_text",
    "conflict",
    "create_app",
    "find_token",
    "first_duplicate",
    "format_date",
    "format_datetime",
    "format_decimal",
    "format_money",
    "gettext",
    "hookimpl",
    "instance_changed",
    "issue_token",
    "js_string",
    "kept_by_name",
    "language",
    "load_settings",
    "local_date",
    "lock_instance",
    "mark_edited",
    "message",
    "name_digest",
    "ngettext",
    "not_found",
    "pgettext",
    "prepared_rows",
    "read_day",
    "read_hours",
    "request_time",
    "retire_tokens",
    "revoke_tokens",
    "rotate_token",
    "run_prepared",
    "stored_values",
    "text_key",
    "truthy",
    "utc_iso",
    "utcnow",
    "week_start",
    "whole_number",
    "written_time",
]


#: Names that moved to a public submodule in 0.2.0: `groupkit.<name>` still works, with a
#: DeprecationWarning, until 0.3.0.
_MOVED = {
    "SignUp": "groupkit.signups",
    "board_views": "groupkit.signups",
    "claim_details": "groupkit.signups",
    "group_lists": "groupkit.signups",
    "group_spots": "groupkit.signups",
    "signup_operations": "groupkit.signups",
    "spots_schema": "groupkit.signups",
    "stored_groups": "groupkit.signups",
    "SlotClaim": "groupkit.signups",
    "board_edit": "groupkit.signups",
    "claim_slot": "groupkit.signups",
    "claims_by_slot": "groupkit.signups",
    "csv_reply": "groupkit.signups",
    "regroup_slots": "groupkit.signups",
    "release_slot": "groupkit.signups",
    "remove_slot": "groupkit.signups",
    "slot_group": "groupkit.signups",
    "slot_ids": "groupkit.signups",
    "spot_board": "groupkit.signups",
    "was_field": "groupkit.signups",
    "OK_REPLY": "groupkit.entries",
    "Entries": "groupkit.entries",
    "claim_once": "groupkit.entries",
    "entries_schema": "groupkit.entries",
    "ok_reply": "groupkit.entries",
    "token_reply": "groupkit.entries",
    "token_schema": "groupkit.entries",
    "CalendarEvent": "groupkit.integrations",
    "calendar_reply": "groupkit.integrations",
    "FeedSource": "groupkit.integrations",
    "participant_feed_operations": "groupkit.integrations",
    "slot_feed_operations": "groupkit.integrations",
    "ChatRitual": "groupkit.integrations",
    "ChatTime": "groupkit.integrations",
    "chat_operations": "groupkit.integrations",
    "post_to_chat": "groupkit.integrations",
}


if not typing.TYPE_CHECKING:  # a type checker reports the old names as missing: move them now

    def __getattr__(name: str) -> object:
        """The deprecated names of `_MOVED`, read from their new module."""
        home = _MOVED.get(name)
        if home is None:
            raise AttributeError(f"module 'groupkit' has no attribute {name!r}")
        warnings.warn(f"groupkit.{name} moved to {home}.{name} in groupkit 0.2.0; the old name "
                      "goes in 0.3.0", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)
