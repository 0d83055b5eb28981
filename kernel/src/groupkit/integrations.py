"""What reaches people outside the page: calendar events and private, always
current calendar feeds (webcal), posts to a team chat webhook, queued in the database and
sent once across workers, and personal links sent by email (`Invitations`). See
docs/how-to/calendar-feed.md and docs/how-to/chat-post.md.
"""

from __future__ import annotations

from groupkit.blocks._calendar import CalendarEvent
from groupkit.blocks._calendar import calendar_reply
from groupkit.blocks._feeds import FeedSource
from groupkit.blocks._feeds import participant_feed_operations
from groupkit.blocks._feeds import slot_feed_operations
from groupkit.blocks._webhooks import ChatRitual
from groupkit.blocks._webhooks import ChatTime
from groupkit.blocks._webhooks import chat_operations
from groupkit.blocks._webhooks import post_to_chat
from groupkit.core._declared import Invitations

__all__ = [
    "CalendarEvent",
    "ChatRitual",
    "ChatTime",
    "FeedSource",
    "Invitations",
    "calendar_reply",
    "chat_operations",
    "participant_feed_operations",
    "post_to_chat",
    "slot_feed_operations",
]
