"""groupkit: the kernel's public surface. A tool plugin imports only from here."""

from __future__ import annotations

from .app import create_app
from .calendar import CalendarEvent, calendar_reply
from .clock import local_date, request_time, week_start
from .config import Settings, load_settings
from .credentials import (
    CLAIM_SECRET_LENGTH,
    EDIT_TOKEN_LENGTH,
    PARTICIPANT_TOKEN_LENGTH,
)
from .errors import ApiError, bad_request, conflict, not_found
from .fields import (
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
from .hookspecs import PLUGIN_API_VERSION, hookimpl
from .live import changed as instance_changed
from .schema import Schema
from .slots import (
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
from .storage import (
    BaseModel,
    Credential,
    Instance,
    JsonField,
    lock_instance,
    prepared_rows,
    run_prepared,
    utcnow,
)
from .tokens import find_token, issue_token, revoke_tokens, rotate_token
from .tool import Call, Edit, Operations, Reply, Tool, stored_values

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
    "Choice",
    "Count",
    "Credential",
    "Edit",
    "Exact",
    "Flag",
    "Instance",
    "JsonField",
    "Line",
    "ObjectList",
    "Operations",
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
    "WholeNumber",
    "__version__",
    "bad_request",
    "board_edit",
    "bounded_int",
    "calendar_reply",
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
    "prepared_rows",
    "regroup_slots",
    "release_slot",
    "remove_slot",
    "request_time",
    "revoke_tokens",
    "rotate_token",
    "run_prepared",
    "slot_ids",
    "spot_board",
    "stored_values",
    "text_key",
    "truthy",
    "utcnow",
    "was_field",
    "week_start",
    "whole_number",
]
