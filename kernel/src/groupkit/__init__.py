"""groupkit: the kernel's public surface. A tool plugin imports only from here."""

from __future__ import annotations

from ._app import create_app
from ._calendar import CalendarEvent
from ._calendar import calendar_reply
from ._clock import local_date
from ._clock import request_time
from ._clock import utc_iso
from ._clock import week_start
from ._config import Settings
from ._config import load_settings
from ._credentials import CLAIM_SECRET_LENGTH
from ._credentials import EDIT_TOKEN_LENGTH
from ._credentials import PARTICIPANT_TOKEN_LENGTH
from ._entries import OK_REPLY
from ._entries import Entries
from ._entries import claim_once
from ._entries import entries_schema
from ._entries import ok_reply
from ._entries import token_reply
from ._entries import token_schema
from ._errors import ApiError
from ._errors import bad_request
from ._errors import checked_in_order
from ._errors import conflict
from ._errors import not_found
from ._feeds import FeedSource
from ._feeds import participant_feed_operations
from ._feeds import slot_feed_operations
from ._fields import Choice
from ._fields import Count
from ._fields import Exact
from ._fields import Flag
from ._fields import Line
from ._fields import ObjectList
from ._fields import Raw
from ._fields import RecordId
from ._fields import SpecField
from ._fields import StringList
from ._fields import Text
from ._fields import WholeNumber
from ._fields import bounded_int
from ._fields import clean_line
from ._fields import clean_text
from ._fields import first_duplicate
from ._fields import js_string
from ._fields import text_key
from ._fields import truthy
from ._fields import whole_number
from ._live import changed as instance_changed
from ._schema import Schema
from ._signup import SignUp
from ._signup import board_views
from ._signup import claim_details
from ._signup import group_lists
from ._signup import group_spots
from ._signup import signup_operations
from ._signup import spots_schema
from ._signup import stored_groups
from ._slots import SlotClaim
from ._slots import board_edit
from ._slots import claim_slot
from ._slots import claims_by_slot
from ._slots import csv_reply
from ._slots import regroup_slots
from ._slots import release_slot
from ._slots import remove_slot
from ._slots import slot_group
from ._slots import slot_ids
from ._slots import spot_board
from ._slots import was_field
from ._storage import BaseModel
from ._storage import Credential
from ._storage import Instance
from ._storage import JsonField
from ._storage import UTCDateTimeField
from ._storage import lock_instance
from ._storage import prepared_rows
from ._storage import run_prepared
from ._storage import utcnow
from ._times import read_day
from ._times import read_hours
from ._times import written_time
from ._tokens import find_token
from ._tokens import issue_token
from ._tokens import retire_tokens
from ._tokens import revoke_tokens
from ._tokens import rotate_token
from ._tool import Call
from ._tool import Edit
from ._tool import Hidden
from ._tool import Operations
from ._tool import Participation
from ._tool import Reply
from ._tool import Tool
from ._tool import Walkthrough
from ._tool import stored_values
from ._webhooks import ChatRitual
from ._webhooks import ChatTime
from ._webhooks import chat_operations
from ._webhooks import post_to_chat
from .hookspecs import PLUGIN_API_VERSION
from .hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = [
    "CLAIM_SECRET_LENGTH",
    "EDIT_TOKEN_LENGTH",
    "OK_REPLY",
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
    "Entries",
    "Exact",
    "FeedSource",
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
    "SignUp",
    "SlotClaim",
    "SpecField",
    "StringList",
    "Text",
    "Tool",
    "UTCDateTimeField",
    "Walkthrough",
    "WholeNumber",
    "__version__",
    "bad_request",
    "board_edit",
    "board_views",
    "bounded_int",
    "calendar_reply",
    "chat_operations",
    "checked_in_order",
    "claim_details",
    "claim_once",
    "claim_slot",
    "claims_by_slot",
    "clean_line",
    "clean_text",
    "conflict",
    "create_app",
    "csv_reply",
    "entries_schema",
    "find_token",
    "first_duplicate",
    "group_lists",
    "group_spots",
    "hookimpl",
    "instance_changed",
    "issue_token",
    "js_string",
    "load_settings",
    "local_date",
    "lock_instance",
    "not_found",
    "ok_reply",
    "participant_feed_operations",
    "post_to_chat",
    "prepared_rows",
    "read_day",
    "read_hours",
    "regroup_slots",
    "release_slot",
    "remove_slot",
    "request_time",
    "retire_tokens",
    "revoke_tokens",
    "rotate_token",
    "run_prepared",
    "signup_operations",
    "slot_feed_operations",
    "slot_group",
    "slot_ids",
    "spot_board",
    "spots_schema",
    "stored_groups",
    "stored_values",
    "text_key",
    "token_reply",
    "token_schema",
    "truthy",
    "utc_iso",
    "utcnow",
    "was_field",
    "week_start",
    "whole_number",
    "written_time",
]
