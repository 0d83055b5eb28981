"""groupkit: the kernel's public surface. A tool plugin imports only from here."""

from __future__ import annotations

from ._app import create_app
from ._calendar import CalendarEvent, calendar_reply
from ._clock import local_date, request_time, week_start
from ._config import Settings, load_settings
from ._credentials import (
    CLAIM_SECRET_LENGTH,
    EDIT_TOKEN_LENGTH,
    PARTICIPANT_TOKEN_LENGTH,
)
from ._errors import ApiError, bad_request, conflict, not_found
from ._feeds import FeedSource, participant_feed_operations, slot_feed_operations
from ._fields import (
    Choice,
    Count,
    Exact,
    Flag,
    Line,
    ObjectList,
    Raw,
    RecordId,
    SpecField,
    StringList,
    Text,
    WholeNumber,
    bounded_int,
    clean_line,
    clean_text,
    first_duplicate,
    js_string,
    text_key,
    truthy,
    whole_number,
)
from ._live import changed as instance_changed
from ._schema import Schema
from ._slots import (
    SlotClaim,
    board_edit,
    claim_slot,
    claims_by_slot,
    csv_reply,
    regroup_slots,
    release_slot,
    remove_slot,
    slot_ids,
    spot_board,
    was_field,
)
from ._storage import BaseModel, Credential, Instance, JsonField, lock_instance, utcnow
from ._times import read_day, read_hours, written_time
from ._tokens import find_token, issue_token, retire_tokens, revoke_tokens, rotate_token
from ._tool import (
    Call,
    Edit,
    Operations,
    Participation,
    Reply,
    Tool,
    Walkthrough,
    stored_values,
)
from ._webhooks import ChatRitual, ChatTime, chat_operations, post_to_chat
from .hookspecs import PLUGIN_API_VERSION, hookimpl

__version__ = "0.1.0"

__all__ = [
    "CLAIM_SECRET_LENGTH",
    "EDIT_TOKEN_LENGTH",
    "PARTICIPANT_TOKEN_LENGTH",
    "PLUGIN_API_VERSION",
    "ApiError",
    "BaseModel",
    "CalendarEvent",
    "Call",
    "ChatRitual",
    "ChatTime",
    "Choice",
    "Count",
    "Credential",
    "Edit",
    "Exact",
    "FeedSource",
    "Flag",
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
    "SlotClaim",
    "SpecField",
    "StringList",
    "Text",
    "Tool",
    "Walkthrough",
    "WholeNumber",
    "__version__",
    "bad_request",
    "board_edit",
    "bounded_int",
    "calendar_reply",
    "chat_operations",
    "claim_slot",
    "claims_by_slot",
    "clean_line",
    "clean_text",
    "conflict",
    "create_app",
    "csv_reply",
    "find_token",
    "first_duplicate",
    "hookimpl",
    "instance_changed",
    "issue_token",
    "js_string",
    "load_settings",
    "local_date",
    "lock_instance",
    "not_found",
    "participant_feed_operations",
    "post_to_chat",
    "read_day",
    "read_hours",
    "regroup_slots",
    "release_slot",
    "remove_slot",
    "request_time",
    "retire_tokens",
    "revoke_tokens",
    "rotate_token",
    "slot_feed_operations",
    "slot_ids",
    "spot_board",
    "stored_values",
    "text_key",
    "truthy",
    "utcnow",
    "was_field",
    "week_start",
    "whole_number",
    "written_time",
]
