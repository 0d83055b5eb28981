"""Chat webhooks: a team tool posts its ritual (today's question, a new kudos, a poker
reveal) to the team's Slack, Microsoft Teams, Discord or Mattermost channel.

An organiser pastes an incoming-webhook URL (`chat_operations` adds the organiser's
operations to a tool). A tool queues a post with `post_to_chat` inside its own transaction,
or declares `Tool.chat = ChatRitual(schedule=...)` for posts that fall due by the clock; the
(instance, key) pair is unique, so a scheduled post is queued once however many workers
notice it is due. Posts wait in the service's outbox (`groupkit.blocks._outbox`, channel
"chat"), which sends each once across workers and hosts, retries and keeps the delivery
log. Each send has one deadline (`DEADLINE`, well inside the outbox's lease) and reads only
the answer's status and headers; a process sends up to `PARALLEL` posts at once, one per
instance at a time, so a slow or hostile chat host holds one slot for at most the deadline
and never another team's post.

Links: a post's link to the tool's page starts with the operator's `base_url`, else (in
development: production refuses to start without one while webhooks are on) with the
origin the organiser connected the webhook on. Never with the address of whoever caused
the post: a participant's Host header must not choose where the team's chat links to.

Safety: a webhook URL is a secret (it lets anyone post to the channel), so it is kept only
here, shown only on the organiser's page (masked), and never logged, exported or posted.
Delivery refuses hosts outside the operator's allow list, any address that is not public
after DNS resolution (private, loopback, link-local..., also when an IPv6 address embeds
one: NAT64, 6to4, IPv4-compatible) and every redirect; it connects to the very address it
checked, so a resolver that answers differently the second time (DNS rebinding) cannot
steer it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import ipaddress
import json
import logging
import re
import secrets
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

import peewee as pw

from groupkit.blocks import _outbox as outbox

# The outbox's names, as chat posts know them.
from groupkit.blocks._outbox import LEASE as LEASE
from groupkit.blocks._outbox import OutboxMessage as ChatPost
from groupkit.blocks._outbox import Outcome as Outcome
from groupkit.core import _i18n as i18n
from groupkit.core._clock import utc_iso
from groupkit.core._config import Settings
from groupkit.core._declared import ChatRitual
from groupkit.core._declared import ChatTime
from groupkit.core._errors import bad_request
from groupkit.core._fields import Choice
from groupkit.core._fields import Exact
from groupkit.core._fields import Raw
from groupkit.core._fields import whole_number
from groupkit.core._i18n import N_
from groupkit.core._schema import Schema
from groupkit.core._storage import BaseModel
from groupkit.core._storage import Instance
from groupkit.core._storage import Storage
from groupkit.core._storage import UTCDateTimeField
from groupkit.core._storage import utcnow
from groupkit.core._tool import Call
from groupkit.core._tool import Operations
from groupkit.core._tool import Tool

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("groupkit.webhooks")
# httpx logs every request's full URL at INFO, and a webhook URL is a secret: its own lines
# are dropped (ours name the host only).
for _name in ("httpx", "httpcore"):
    logging.getLogger(_name).setLevel(logging.WARNING)

FORMATS = ("slack", "teams", "discord", "mattermost")
#: Seconds one send may take in all (name lookup, connection, post, answer), and to connect.
#: Well inside LEASE: no other process takes the post while it is being sent.
DEADLINE, CONNECT_TIMEOUT = 15.0, 5.0
#: Posts one process sends at once (at most one per instance).
PARALLEL = 8
LOG_ENTRIES = 20
URL_LIMIT = 500
TEXT_LIMIT = 1500

BAD_URL = N_(
    "Paste the incoming-webhook address your chat app gave you (it starts with https://).")
NOT_ALLOWED = N_("This server doesn't post to that host. Ask whoever runs it to allow it, or use "
               "Slack, Microsoft Teams, Discord or Mattermost.")
BAD_HOUR = N_("Choose an hour from 0 to 23.")
NOT_CONNECTED = N_("Connect a chat webhook first.")

#: Chat apps whose incoming-webhook hosts are allowed unless the operator says otherwise
#: (`*.` allows every subdomain). Mattermost is self-hosted: add its host in config.
DEFAULT_HOSTS = Settings.webhook_hosts


class ChatHook(BaseModel):
    """An instance's webhook. `url` is a secret: never in a view, export, log or post."""

    id = pw.AutoField()
    instance = pw.ForeignKeyField(Instance, on_delete="CASCADE", unique=True)
    url = pw.TextField()
    format = pw.CharField(max_length=20)
    #: The local hour (the tool's time zone) of morning posts such as today's question.
    hour = pw.IntegerField(default=9)
    #: The origin the organiser connected on: a post's link starts with it when the operator
    #: set no `base_url` (development).
    base_url = pw.CharField(max_length=300, default="")
    created = UTCDateTimeField(default=utcnow)

    class Meta:
        table_name = "chat_hook"


MODELS: list[type[pw.Model]] = [ChatHook, ChatPost]


def _create_tables(db: pw.Database) -> None:
    db.create_tables(MODELS, safe=True)


#: The kernel's second migration: the webhook and outbox tables.
MIGRATION = ("0002_chat_webhooks", _create_tables)

# --- queueing -------------------------------------------------------------------------------

def hook_of(instance: Instance) -> ChatHook | None:
    return ChatHook.get_or_none(ChatHook.instance == instance)


def page_link(hook: ChatHook, instance: Instance, settings: Settings | None) -> str:
    """The instance's public page as a post links to it: the operator's `base_url`, else the
    origin the organiser connected the webhook on; never a request's Host header."""
    origin = (settings.base_url if settings is not None else "") or hook.base_url
    return f"{origin}/s/{instance.slug}"


def _app_settings() -> Settings | None:
    """The running app's settings, when there is one (a post queued outside an app, as a
    test may, takes the webhook's recorded origin)."""
    from quart import has_app_context

    return _settings() if has_app_context() else None


def post_to_chat(instance: Instance, text: str, key: str | None = None,
                 now: dt.datetime | None = None, *, link: bool = False) -> bool:
    """Queue `text` for the instance's chat webhook, inside the caller's transaction; no
    webhook, no post. `key` makes it once-only (a second post with the same key is dropped).
    `link=True` ends the text with the instance's public page: build it no other way
    (`call.base_url` is the address the request came in on, which a participant chooses).
    Returns whether it was queued. Never pass a hidden value: the channel is public to the
    team. A `message(...)` or an `N_` constant is said in the group's language
    (`Instance.language`), whoever's request queued it."""
    hook = hook_of(instance)
    if hook is None:
        return False
    with i18n.for_group(instance):
        text = i18n.translated(text)
    ending = page_link(hook, instance, _app_settings()) if link else ""
    return outbox.queue(instance, "chat", text[:TEXT_LIMIT - len(ending)] + ending,
                        key or f"event-{secrets.token_hex(8)}",
                        now if now is not None else utcnow())


def queue_scheduled(tools: Mapping[str, Tool], now: dt.datetime,
                    settings: Settings | None = None,
                    catalogs: i18n.Catalogs | None = None) -> int:
    """Queue every scheduled post now due, on every instance with a webhook; returns how
    many were new. `settings` gives the links their `base_url`; `catalogs` the words of
    each group's language."""
    queued = 0
    for tool in tools.values():
        ritual = getattr(tool, "chat", None)
        if ritual is None or ritual.schedule is None:
            continue
        hooks = (ChatHook.select(ChatHook, Instance).join(Instance)
                 .where(Instance.tool == tool.name))
        for hook in hooks:
            when = ChatTime(now=now, hour=hook.hour,
                            link=page_link(hook, hook.instance, settings))
            with i18n.for_group(hook.instance, catalogs):
                posts = list(ritual.schedule(hook.instance, when))
            for key, text in posts:
                queued += post_to_chat(hook.instance, text, key, now)
    return queued


# --- address checks -------------------------------------------------------------------------

Resolver = Callable[[str, int], Awaitable[list[str]]]


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=0)
    return [str(info[4][0]) for info in infos]


class Refused(Exception):
    """A webhook this server will not call (the message is safe to log: no URL in it)."""


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    host = host.lower().rstrip(".")
    for pattern in allowed:
        pattern = pattern.lower().rstrip(".")
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and host != pattern[2:]:
                return True
        elif host == pattern:
            return True
    return False


def check_url(url: str, settings: Settings) -> tuple[str, str, int]:
    """(scheme, host, port) of an acceptable webhook URL, or `Refused`."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused("not a URL") from None
    host = (parts.hostname or "").lower()
    plain_http = parts.scheme == "http" and settings.webhook_allow_loopback
    if parts.scheme != "https" and not plain_http:
        raise Refused("not https")
    if not host or parts.username or parts.password:
        raise Refused("not a URL")
    if not host_allowed(host, settings.webhook_hosts):
        raise Refused("host not allowed")
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80)


#: IPv6 ranges whose last 32 bits are an IPv4 address the packets end up at: IPv4-translated
#: (SIIT), the well-known NAT64 prefix (DNS64 answers with it on IPv6-only networks) and
#: IPv4-compatible addresses. The IPv4 address is checked instead.
_LAST_32_BITS = tuple(ipaddress.IPv6Network(net) for net in (
    "::ffff:0:0:0/96", "64:ff9b::/96", "::/96"))
#: IPv6 ranges refused outright: site-local (deprecated, private in practice) and the
#: local-use NAT64 prefix (a private IPv4 address hides in it).
_REFUSED_V6 = tuple(ipaddress.IPv6Network(net) for net in ("fec0::/10", "64:ff9b:1::/48"))


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, translated, NAT64, 6to4,
    IPv4-compatible), or None."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in net for net in _LAST_32_BITS) and int(ip) > 1:  # not :: nor ::1
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_allowed(address: str, settings: Settings) -> bool:
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(
        address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in net for net in _REFUSED_V6):
            return False
        ip = _embedded_ipv4(ip) or ip
    if ip.is_loopback:
        return settings.webhook_allow_loopback
    return ip.is_global and not ip.is_multicast


async def pinned_address(host: str, port: int, settings: Settings,
                         resolver: Resolver) -> str:
    """The one address to connect to: every address the name resolves to must be public
    (one private answer refuses the lot)."""
    try:
        addresses = await resolver(host, port)
    except OSError:
        raise Refused("name not found") from None
    if not addresses:
        raise Refused("name not found")
    if not all(address_allowed(address, settings) for address in addresses):
        raise Refused("address not public")
    return addresses[0]


# --- sending --------------------------------------------------------------------------------

def _escape_markup(text: str) -> str:
    """Slack and Mattermost read `<...>` as links and mentions (`<!channel>`)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: An `@` before a word: a mention (`@channel`, `@ALL`, `@sam`), wherever it stands.
_MENTION = re.compile(r"@(?=\w)")


def _defuse_mentions(text: str) -> str:
    """A zero-width space after every `@` that could start a mention: it reads the same and
    pings nobody, in any letter case (Mattermost reads `@Channel` and `@ALL` as `@channel`
    and `@all`) and whatever the app's own settings (Slack's `link_names`). An email
    address in a post gets one too: it still reads right."""
    return _MENTION.sub("@\u200b", text)


def payload(format: str, text: str) -> dict[str, Any]:
    """The JSON body each chat app's incoming webhook expects; mentions never ping (Discord:
    `allowed_mentions` turns every kind off, `@everyone` too)."""
    if format == "discord":
        return {"content": text, "allowed_mentions": {"parse": []}}
    if format == "teams":
        return {"@type": "MessageCard", "@context": "https://schema.org/extensions",
                "summary": text.split("\n", 1)[0][:80], "text": text.replace("\n", "\n\n")}
    return {"text": _defuse_mentions(_escape_markup(text))}


def guess_format(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    if host.endswith(("discord.com", "discordapp.com")):
        return "discord"
    if host.endswith(("office.com", "azure.com")):
        return "teams"
    if host == "hooks.slack.com":
        return "slack"
    return "mattermost"


LATE = "no answer in time; not tried again (the chat may have posted it)"


async def send(url: str, format: str, text: str, settings: Settings,
               resolver: Resolver = system_resolver,
               transport: httpx.AsyncBaseTransport | None = None) -> None:
    """POST one message, or raise `Outcome`. Connects to the address it checked (the name
    goes only into the Host header and TLS server name); no redirects, no proxies from the
    environment. All of it, the name lookup too, within DEADLINE; of the answer only the
    status line and headers are read, never the body (a chat host that drips or floods its
    answer costs one slot for the deadline and a few KiB). Once the whole post went out, a
    late answer is final: the chat may have posted it, and a second try would post it
    twice."""
    went_out = False

    async def trace(event: str, info: Mapping[str, Any]) -> None:
        nonlocal went_out
        went_out = went_out or event.endswith("send_request_body.complete")

    try:
        async with asyncio.timeout(DEADLINE):
            status = await _post(url, payload(format, text), settings, resolver, transport,
                                 trace)
    except TimeoutError:
        raise Outcome(LATE if went_out else "timed out", retry=not went_out) from None
    if 200 <= status < 300:
        return
    if 300 <= status < 400:
        raise Outcome(f"refused: redirect (HTTP {status})", retry=False)
    raise Outcome(f"HTTP {status}", retry=status == 429 or status >= 500)


Trace = Callable[[str, Mapping[str, Any]], Awaitable[None]]


async def _post(url: str, body: dict[str, Any], settings: Settings, resolver: Resolver,
                transport: httpx.AsyncBaseTransport | None, trace: Trace) -> int:
    """The answer's status; `send` holds the deadline."""
    # Imported here: httpx (with its command line, rich and pygments) is a third of a
    # second of every server process's start-up, and most services never send a post.
    import httpx

    try:
        scheme, host, port = check_url(url, settings)
        address = await pinned_address(host, port, settings, resolver)
    except Refused as refused:
        raise Outcome(f"refused: {refused}", retry=False) from None
    parts = urlsplit(url)
    literal = f"[{address}]" if ":" in address else address
    target = urlunsplit((scheme, f"{literal}:{port}", parts.path or "/", parts.query, ""))
    headers = {"Host": parts.netloc.rsplit("@", 1)[-1], "User-Agent": "groupkit"}
    try:
        timeout = httpx.Timeout(DEADLINE, connect=CONNECT_TIMEOUT)
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False,
                                     transport=transport) as client, \
                client.stream("POST", target, json=body, headers=headers,
                              extensions={"sni_hostname": host, "trace": trace}) as response:
            return response.status_code  # the body is never read
    except httpx.TimeoutException:
        raise Outcome("timed out", retry=True) from None
    except httpx.HTTPError as error:
        raise Outcome(f"connection failed ({type(error).__name__})", retry=True) from None


# --- the delivery loop ----------------------------------------------------------------------

def _targets(posts: list[outbox.Due]) -> dict[int, tuple[str, str]]:
    """Each post's webhook (URL, format); posts whose webhook was removed are left out."""
    if not posts:
        return {}
    found: list[Any] = list(ChatHook.select(ChatHook.instance, ChatHook.url, ChatHook.format)
                            .where(ChatHook.instance.in_([post.instance_id for post in posts]))
                            .tuples())
    hooks: dict[int, tuple[str, str]] = {row[0]: (row[1], row[2]) for row in found}
    return {post.id: hooks[post.instance_id] for post in posts if post.instance_id in hooks}


def channel(settings: Settings, resolver: Resolver = system_resolver,
            transport: httpx.AsyncBaseTransport | None = None) -> outbox.Channel:
    """The outbox's chat channel: posts go to the instance's webhook."""

    async def deliver(post: outbox.Claimed) -> None:
        await send(post.to, post.how, post.text, settings, resolver, transport)

    return outbox.Channel("chat", _targets, deliver, gone="webhook removed",
                          where=lambda post: str(urlsplit(post.to).hostname))


async def deliver_once(storage: Storage, settings: Settings, clock: Callable[[], dt.datetime],
                       resolver: Resolver = system_resolver,
                       transport: httpx.AsyncBaseTransport | None = None) -> int:
    """Send every chat post due now, and those that fall due meanwhile (the outbox's loop
    with the chat channel alone); returns how many went out."""
    return await outbox.deliver_once(storage, {"chat": channel(settings, resolver, transport)},
                                     clock, PARALLEL)


def base_url_problem(settings: Settings, tools: Iterable[Tool]) -> str | None:
    """Why the service must not start: production without `base_url` while chat webhooks
    are on (an allow list and a tool that posts). Posts link to the service, and without
    `base_url` nothing but a request's Host header could say where it is."""
    if settings.production and not settings.base_url and settings.webhook_hosts and any(
            getattr(tool, "chat", None) is not None for tool in tools):
        return ("base_url must be set in production while chat webhooks are on: chat posts "
                "link to it (set base_url = \"https://your.server\", or [webhooks] hosts = "
                "[] to turn chat webhooks off)")
    return None


# --- the organiser's operations -------------------------------------------------------------

def _mask(url: str) -> str:
    """Enough of the URL for the organiser to recognise it, not enough to post with."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}/…{url[-4:]}"


def chat_status(instance: Instance) -> dict[str, Any]:
    """The organiser's view of the webhook: masked address and the delivery log."""
    hook = hook_of(instance)
    posts = (ChatPost.select().where((ChatPost.instance == instance)
                                     & (ChatPost.channel == "chat"))
             .order_by(ChatPost.created.desc(), ChatPost.id.desc()).limit(LOG_ENTRIES))
    return {"connected": hook is not None,
            "webhook": _mask(hook.url) if hook is not None else None,
            "format": hook.format if hook is not None else None,
            "hour": hook.hour if hook is not None else None,
            "log": [{"id": post.id, "text": post.text, "state": post.state,
                     "attempts": post.attempts, "queuedAt": utc_iso(post.created),
                     "finishedAt": utc_iso(post.finished), "outcome": post.outcome}
                    for post in posts]}


#: What went wrong with a post, in the words of the people reading the delivery log (the
#: log's `outcome` stays the technical one, for the API and the operator).
_REASONS = (
    ("HTTP 404", N_("the chat address was not found")),
    ("HTTP 410", N_("the chat address was not found")),
    ("HTTP 401", N_("the chat app refused the address: it may have been removed there")),
    ("HTTP 403", N_("the chat app refused the address: it may have been removed there")),
    ("HTTP 429", N_("the chat app asked to slow down")),
    ("HTTP 5", N_("the chat app had a problem on its side")),
    ("HTTP", N_("the chat app refused the post")),
    ("timed out", N_("the chat app didn't answer in time")),
    (LATE, N_("the chat app answered too late, so it wasn't sent again (it may have "
              "posted)")),
    ("connection failed", N_("the chat app couldn't be reached")),
    ("refused: redirect", N_("the chat address sends posts somewhere else, which isn't "
                             "allowed")),
    ("refused", N_("the chat address isn't allowed here")),
    ("webhook removed", N_("the chat was disconnected before it went out")),
)
SENT = N_("sent")
WAITING = N_("waiting")
WAITING_BECAUSE = N_("waiting to try again: {reason}")
NOT_SENT = N_("not sent")
NOT_SENT_BECAUSE = N_("not sent: {reason}")


def said(post: Mapping[str, Any]) -> str:
    """A delivery-log line's state in people's words, in the language being spoken."""
    if post["state"] == "sent":
        return i18n.gettext(SENT)
    reason = next((i18n.gettext(words) for start, words in _REASONS
                   if post["outcome"].startswith(start)), post["outcome"])
    if post["state"] == "pending":
        return i18n.gettext(WAITING_BECAUSE).format(reason=reason) if post["outcome"] \
            else i18n.gettext(WAITING)
    return i18n.gettext(NOT_SENT_BECAUSE).format(reason=reason) if reason \
        else i18n.gettext(NOT_SENT)


def chat_stamp(instance: Instance) -> str:
    """A digest of what `chat_status` shows, for the organiser page's render-cache key: the
    delivery loop changes the log without bumping the instance's version."""
    shown = json.dumps(chat_status(instance), sort_keys=True, default=str)
    return hashlib.blake2b(shown.encode("utf-8"), digest_size=12).hexdigest()


class ChatBody(Schema):
    url = Exact("the incoming-webhook URL; empty disconnects")
    format = Choice(FORMATS, default="")
    hour = Raw(("integer", "string"), "local hour (0-23) of morning posts; default 9")


STATUS_SCHEMA = {"type": "object", "properties": {
    "connected": {"type": "boolean"},
    "webhook": {"type": ["string", "null"],
                "description": "masked: scheme, host and the last four characters"},
    "format": {"type": ["string", "null"], "enum": [*FORMATS, None]},
    "hour": {"type": ["integer", "null"]},
    "log": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer"}, "text": {"type": "string"},
        "state": {"type": "string", "enum": ["pending", "sent", "failed"]},
        "attempts": {"type": "integer"}, "queuedAt": {"type": "string"},
        "finishedAt": {"type": ["string", "null"]}, "outcome": {"type": "string"}}}}}}


def _settings() -> Settings:
    from quart import current_app

    settings: Settings = current_app.config["GROUPKIT_SETTINGS"]
    return settings


def chat_operations(ops: Operations, ritual: ChatRitual) -> ChatRitual:
    """Add the organiser's webhook operations to a tool: `chat` (connect, or disconnect with
    an empty url), `chat/test` (queue a test post) and `GET chat/log` (status and delivery
    log). Returns `ritual`, for `Tool(chat=...)`."""
    what = ritual.what
    if any(op.path == "chat" for op in ops.operations):
        return ritual  # already added (the hook runs once per app)

    @ops.organiser("chat", body=ChatBody, returns=STATUS_SCHEMA, errors={
        400: f"`{BAD_URL}` (not an https URL); `{NOT_ALLOWED}` (host not in the server's "
             f"allow list); `{BAD_HOUR}`"},
        description=(f"Connect a chat incoming webhook (Slack, Microsoft Teams, Discord, "
                     f"Mattermost; `format` defaults from the host). It posts {what}. An "
                     "empty `url` disconnects and drops posts not yet sent. The address is "
                     "a secret: it is never shown again in full, exported or logged."))
    def connect(call: Call) -> dict[str, Any]:
        """Connect (or disconnect) the team's chat webhook."""
        url = str(call.data.get("url") or "").strip()
        existing = hook_of(call.instance)
        if not url:
            if existing is not None:
                existing.delete_instance()
                ChatPost.update(state="failed", finished=utcnow(), outcome="webhook removed"
                                ).where((ChatPost.instance == call.instance)
                                        & (ChatPost.channel == "chat")
                                        & (ChatPost.state == "pending")).execute()
            return chat_status(call.instance)
        if len(url) > URL_LIMIT:
            raise bad_request(BAD_URL)
        try:
            check_url(url, _settings())
        except Refused as refused:
            raise bad_request(NOT_ALLOWED if str(refused) == "host not allowed"
                              else BAD_URL) from None
        hour = 9 if call.data.get("hour") is None else whole_number(call.data["hour"])
        if hour is None or not 0 <= hour <= 23:
            raise bad_request(BAD_HOUR)
        fmt = call.data.get("format") or guess_format(url)
        # The origin the organiser connected on (or the configured base_url): where posts
        # link to when the operator set none. Never a participant's: this is the organiser's.
        base = call.base_url[:300]
        if existing is None:
            ChatHook.create(instance=call.instance, url=url, format=fmt, hour=hour,
                            base_url=base)
        else:
            ChatHook.update(url=url, format=fmt, hour=hour, base_url=base).where(
                ChatHook.id == existing.id).execute()
        return chat_status(call.instance)

    @ops.organiser("chat/test", returns=STATUS_SCHEMA, errors={
        409: "`Connect a chat webhook first.`"},
        description="Queue a short test post, to check the webhook; see the delivery log.")
    def test_post(call: Call) -> dict[str, Any]:
        """Send a test post to the connected webhook."""
        from groupkit.core._errors import conflict

        said = N_("groupkit is connected: {title} will post here.")
        if not post_to_chat(call.instance, said.format(title=call.instance.title),
                            now=call.now):
            raise conflict(NOT_CONNECTED)
        return chat_status(call.instance)

    @ops.organiser("chat/log", method="GET", returns=STATUS_SCHEMA,
                   description="The webhook (masked) and the last posts with their outcome.")
    def status(call: Call) -> dict[str, Any]:
        """The chat webhook and its delivery log."""
        return chat_status(call.instance)

    return ritual
