"""What reaches people outside the page: calendar events and private, always
current calendar feeds (webcal), posts to a team chat webhook, queued in the database and
sent once across workers, personal links sent by email (`Invitations`), and news by email
to the people who asked for it (`ask_for_news`, `send_news`). See
docs/how-to/calendar-feed.md and docs/how-to/chat-post.md.
"""

from __future__ import annotations

from groupkit.blocks._calendar import CalendarEvent
from groupkit.blocks._calendar import calendar_reply
from groupkit.blocks._feeds import FeedSource
from groupkit.blocks._feeds import participant_feed_operations
from groupkit.blocks._feeds import slot_feed_operations
from groupkit.blocks._news import ask_for_news
from groupkit.blocks._news import forget_news
from groupkit.blocks._news import send_news
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
    "ask_for_news",
    "calendar_reply",
    "chat_operations",
    "forget_news",
    "participant_feed_operations",
    "post_to_chat",
    "send_news",
    "slot_feed_operations",
]
