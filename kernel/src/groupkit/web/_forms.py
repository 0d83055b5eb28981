"""Forms without JavaScript: an ordinary form post (`application/x-www-form-urlencoded`) to
a JSON API URL runs the same operation as the script's JSON post, then answers 303 back to
the page (POST/redirect/GET). What the page must show next (the result, or the error at its
field with what was typed) travels in a *flash*: a row in the database, found through a
random id in an HttpOnly, SameSite=Strict cookie scoped to the page's path, read once and
gone within `FLASH_SECONDS`. So no credential or typed value ever rides in a URL, and any
worker may serve the page.

Field names on the wire (the one place these are defined; `serialize()` in groupkit.js
produces the same body from the same form):

| form field name      | JSON body                         | script reads it from              |
| ---                  | ---                               | ---                               |
| `key`                | `{"key": value}`                  | `[name]`                          |
| `group.key`          | `{"group": {"key": value}}`       | `[data-group] [data-key]`         |
| `list.3.key`         | `{"list": [..., {"key": value}]}` | `[data-list] [data-row] [data-key]` |
| `…:lines`            | non-blank lines, as a list        | `textarea[data-lines]`            |
| `…:number`           | a number when it reads as one     | `[data-type=number]`              |
| `…:bool`             | `true`, or `false` for `""`/`false` | `input[type=checkbox]` (checked) |
| `…:json`             | the JSON value (text if unreadable) | a hidden field's value           |
| `…:list`             | every value sent under the name, in order | ticked boxes, a chosen radio |
| `…:cents`            | whole cents of an amount in dollars | `[name$=":cents"]`   |
| `…:thousandths`      | whole thousandths of a number (kg as g) | `[name$=":thousandths"]` |
| `…:local`            | a time typed in `…:zone`, in UTC  | `input[type=datetime-local]` |
| `…:zone`             | (not in the body) an IANA zone    | a select, `zone_select` |

`:cents` and `:thousandths` send text that is not a number unchanged (for the operation to
refuse). A `:local`
time that cannot be read, or whose zone is missing or unknown, is sent as typed, so the
operation refuses it as it refuses any time without a zone; a blank one is `""`.

Rows are ordered by their index; when a name comes twice the last value wins (as the
script's later field overwrites an earlier one), so a hidden `x:bool` = `false` before a
checkbox `x:bool` makes an unticked box send `false`. A hidden `groupkit-spare` = `list`
(`SPARE`, in the `<noscript>` of a list's rows) leaves out that list's rows sent blank (a
row's `was`, the hidden index an edit form keeps of an existing row, does not count: clearing
an existing row removes it), and an error about a row names the form's row it came from.

A submit button that asks first (`data-confirm`, the script's `window.confirm`) asks without
the script too: every such button of every page template is sent with the name `ASK` (see
`AskFirst`), so its form post does nothing yet and lands back on the page with the question
shown at that form, which now carries `AGREED`: sending it again goes ahead.

A form carrying a hidden `DOWNLOAD` field (its value a file name) is a download: the
operation's answer comes back as that file (`Content-Disposition: attachment`) and the
browser stays on the page; only an error goes back to the page as a flash.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
import math
import re
import secrets
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo
from zoneinfo import available_timezones

import jinja2
import jinja2.ext
import peewee as pw
from lxml import html as lxml_html
from quart import Response
from quart import current_app
from quart import request

from groupkit.core import _edits as edits
from groupkit.core import _i18n as i18n
from groupkit.core._api import parse_body
from groupkit.core._credentials import digest
from groupkit.core._errors import ApiError
from groupkit.core._i18n import N_
from groupkit.core._i18n import gettext
from groupkit.core._storage import BaseModel
from groupkit.core._storage import JsonField
from groupkit.core._storage import Storage
from groupkit.core._tokens import lookup_token

FORM_TYPE = "application/x-www-form-urlencoded"
FLASH_COOKIE = "groupkit_flash"
FLASH_SECONDS = 120
#: The anchor the redirect scrolls to: the notice, or the first error.
ANCHOR = "groupkit-flash"
CROSS_SITE = N_("That form came from another site, so nothing was changed.")
#: What of an operation's answer the page shows (and so the flash keeps): the links and
#: codes it hands over. The rest of the answer is never stored as such: a tool whose answer
#: holds something only the sender may see (a registry's payment details) renders it with its
#: `<tool>/_flash.html` (given `result`, the whole answer), and the flash keeps that HTML.
SHOWN = ("slug", "editToken", "token", "secret", "deleted")
RECEIPT_TEMPLATE = "{tool}/_flash.html"
#: Pages a form may send the visitor back to (the rest of the path is kept, never a query).
PAGE_PREFIXES = ("/s/", "/e/", "/p/", "/new/")

#: The name a `data-confirm` submit button is sent under, and the hidden field of the form
#: shown again with its question: neither is part of the body.
ASK = "groupkit-ask"
AGREED = "groupkit-agreed"
#: A hidden field naming a list whose rows a page without the script offers blank, to fill
#: or leave (groupkit/_groups.html): its rows sent with every value blank are left out.
SPARE = "groupkit-spare"
#: A row's bookkeeping key (groupkit/_groups.html): an existing row's index, not its content.
ROW_MARK = "was"
#: The hidden field whose value names the file a form post's answer is saved as.
DOWNLOAD = "groupkit-download"
#: An edit form's own fields (`groupkit.core._edits`): never part of the body.
EDIT_CONTROL = (edits.EDIT_VERSION, edits.EDIT_SHOWN, edits.KEEP_THEIRS, edits.USE_MINE)
_CONTROL = (ASK, AGREED, DOWNLOAD, *EDIT_CONTROL)
_FILE_NAME = re.compile(r"[^\w.-]")
#: A `<button ...>` up to its `data-confirm` (Jinja tags inside the tag are allowed).
_ASKING_BUTTON = re.compile(r"(<button\b[^<]*?)(\sdata-confirm=)")

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
#: What a datetime-local field sends (and all `:local` reads, as the script does).
_LOCAL_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?")
_RADIX = re.compile(r"([+-]?)0([xXoObB])([0-9a-fA-F]+)")


class Flash(BaseModel):
    """One redirect's message for the page it lands on; `key` is the digest of the cookie's
    id, so a copy of the database cannot be replayed as a cookie."""

    key = pw.CharField(primary_key=True, max_length=64)
    expires = pw.DateTimeField(index=True)
    payload = JsonField()


def _create_flash_table(db: pw.Database) -> None:
    db.create_tables([Flash], safe=True)


#: The kernel's migration step that adds the flash table.
MIGRATION = ("0003_flash", _create_flash_table)


def js_number(text: str) -> Any:
    """`Number(text)` as groupkit.js reads a `data-type=number` field: the number when the
    trimmed text reads as one (an infinity is JSON `null`), else the text unchanged."""
    stripped = text.strip()
    if not stripped:
        return text
    if stripped.lstrip("+-") == "Infinity":
        return None
    radix = _RADIX.fullmatch(stripped)
    if radix and not radix[1]:
        base = {"x": 16, "o": 8, "b": 2}[radix[2].lower()]
        try:
            return int(radix[3], base)
        except ValueError:
            return text
    if not _NUMBER.fullmatch(stripped):
        return text
    value = float(stripped)
    if math.isinf(value):
        return None
    if value.is_integer() and abs(value) <= 2 ** 53:
        return int(value)
    return value


def cents(text: str, parts: int = 100) -> Any:
    """Whole cents of an amount in dollars typed as `:number` reads it (`12.5` -> 1250,
    rounded half up as the script's `Math.round`), or whole `parts` of any unit
    (`:thousandths`: a weight typed in kilograms, sent in grams); other text unchanged, for
    the operation to refuse with its own message."""
    typed = js_number(text)
    if isinstance(typed, bool) or not isinstance(typed, int | float):
        return text
    return math.floor(typed * parts + 0.5)


def zoned(text: str, zone: str | None) -> str:
    """A date and time typed without a zone (`2026-12-01T18:30`) read in the IANA `zone`,
    as UTC (`2026-12-01T07:30:00Z`); blank is `""`; any other text, or a missing or unknown
    zone: the text as typed. A time the zone skips or repeats (a daylight-saving change)
    takes the offset in force before the change."""
    stripped = text.strip()
    if not stripped:
        return ""
    if not _LOCAL_TIME.fullmatch(stripped) or not zone:
        return text
    try:
        moment = dt.datetime.fromisoformat(stripped)
        tz = ZoneInfo(zone)
    except (ValueError, KeyError, OSError):
        return text
    try:
        return moment.replace(tzinfo=tz).astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    except (ValueError, OverflowError):
        return text


#: Areas of the IANA names `zone_select` offers (the rest are aliases and fixed offsets).
_AREAS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe",
          "Indian", "Pacific")


@functools.cache
def time_zones() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The IANA time zones a `…:zone` select offers, by area (UTC first, on its own).

    Read once per process: listing the zone files took half the time of building an app
    for one tool, which the tests do thousands of times (a new zone needs a restart)."""
    names = sorted(name for name in available_timezones()
                   if name.split("/")[0] in _AREAS and "/" in name)
    areas: dict[str, list[str]] = {}
    for name in names:
        areas.setdefault(name.split("/")[0], []).append(name)
    return (("", ("UTC",)), *((area, tuple(zones)) for area, zones in areas.items()))


class FormHelpers(jinja2.ext.Extension):
    """Lends page templates what `groupkit/_forms.html` needs: the time zones."""

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        environment.globals["groupkit_time_zones"] = time_zones()


def _convert(value: str, kind: str) -> Any:
    if kind == "cents":
        return cents(value)
    if kind == "thousandths":
        return cents(value, 1000)
    if kind == "lines":
        return [line for line in re.split(r"\r?\n", value) if line.strip()]
    if kind == "number":
        return js_number(value)
    if kind == "bool":
        return value not in ("", "false")
    if kind == "json":
        return _json_value(value)
    return value


def _json_value(value: str) -> Any:
    parsed = parse_body(value)
    return value if parsed == {} and value.strip() != "{}" else parsed


def wire_path(name: str) -> tuple[list[str], str]:
    """(`list.3.key` -> ["list", "3", "key"], kind) of a form field name."""
    path, _, kind = name.partition(":")
    return path.split("."), kind


def decode(pairs: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """The JSON body `serialize()` makes of the same form (see the table above)."""
    body: dict[str, Any] = {}
    rows: dict[str, dict[int, dict[str, Any]]] = {}
    pairs = list(pairs)
    zones = {name.partition(":")[0]: value for name, value in pairs
             if name.endswith(":zone")}
    for name, value in pairs:
        parts, kind = wire_path(name)
        if any(not part for part in parts) or kind == "zone":
            continue
        converted = zoned(value, zones.get(".".join(parts))) if kind == "local" else \
            _convert(value, kind)
        if kind == "list" and len(parts) == 1:
            listed = body.get(parts[0])
            body[parts[0]] = [*(listed if isinstance(listed, list) else []), value]
        elif len(parts) == 1:
            body[parts[0]] = converted
        elif len(parts) == 2:
            group = body.get(parts[0])
            if not isinstance(group, dict):
                group = body[parts[0]] = {}
            group[parts[1]] = converted
        elif len(parts) == 3 and parts[1].isdigit() and len(parts[1]) < 6:
            rows.setdefault(parts[0], {}).setdefault(int(parts[1]), {})[parts[2]] = converted
    for name, by_index in rows.items():
        body[name] = [by_index[i] for i in sorted(by_index)]
    return body


def without_blank_rows(pairs: list[tuple[str, str]]
                       ) -> tuple[list[tuple[str, str]], dict[str, list[int]]]:
    """The pairs without `SPARE` and without the rows, of each list it names, whose every
    value but `ROW_MARK` is blank; and, per such list, the form's row index of each row kept
    (an error about the body's row 2 is about the form's row `kept[2]`)."""
    spare = {value for name, value in pairs if name == SPARE}
    filled: dict[str, dict[int, bool]] = {}
    for name, value in pairs:
        parts, _ = wire_path(name)
        if len(parts) == 3 and parts[0] in spare and parts[1].isdigit() and len(parts[1]) < 6:
            row = filled.setdefault(parts[0], {})
            shown = parts[2] != ROW_MARK and bool(value.strip())
            row[int(parts[1])] = row.get(int(parts[1]), False) or shown

    def kept(name: str) -> bool:
        parts, _ = wire_path(name)
        return name != SPARE and not (len(parts) == 3 and parts[1].isdigit()
                                      and filled.get(parts[0], {}).get(int(parts[1])) is False)
    return ([(name, value) for name, value in pairs if kept(name)],
            {key: sorted(i for i, full in row.items() if full) for key, row in filled.items()})


def row_field(field: str, rows: dict[str, list[int]]) -> str:
    """An error's field ("categories.2.name", the body's row) as the form names it."""
    parts = field.split(".")
    if len(parts) == 3 and parts[0] in rows and parts[1].isdigit() \
            and int(parts[1]) < len(rows[parts[0]]):
        parts[1] = str(rows[parts[0]][int(parts[1])])
    return ".".join(parts)


class AskFirst(jinja2.ext.Extension):
    """Page templates' `data-confirm` buttons get `name="groupkit-ask"` as they are compiled,
    so every tool's (and every third-party plugin's) destructive button asks before acting
    without JavaScript, with no change to its template. The script never sends a button's
    name, so its dialog is the only question there."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _ASKING_BUTTON.sub(rf'\1 name="{ASK}" value="1"\2', source)


def shown_pairs(fields: str) -> str:
    """The pairs a form of these fields posts unchanged, as JSON: the edit form carries it
    (`edits.EDIT_SHOWN`) so a post can tell which fields the person changed."""
    form = lxml_html.fragment_fromstring(f"<form>{fields}</form>")
    return json.dumps([[name, value] for name, value in form.form_values()],
                      ensure_ascii=False, separators=(",", ":"))


def _same_text(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Pairs as the page wrote them: a browser sends a textarea's line breaks as CRLF."""
    return [(name, value.replace("\r\n", "\n")) for name, value in pairs]


def changed_only(body: dict[str, Any], pairs: list[tuple[str, str]], shown: str | None,
                 keep_theirs: str | None) -> tuple[dict[str, Any], list[str]] | None:
    """An edit form post without the script sends every field: keep only those the person
    changed from what the form showed (and not one whose "keep theirs" was pressed), so a
    field someone else changed meanwhile is never sent back stale. None when the post
    carries no readable `shown` (not an edit form)."""
    try:
        listed = json.loads(shown) if shown else None
    except ValueError:
        return None
    if not isinstance(listed, list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
            for pair in listed):
        return None
    was = decode(without_blank_rows(_same_text((n, v) for n, v in listed))[0])
    now = decode(without_blank_rows(_same_text(pairs))[0])
    changed = [key for key in body if key == "confirm" or key not in was or
               json.dumps(was[key], sort_keys=True) != json.dumps(now.get(key), sort_keys=True)]
    changed = [key for key in changed if key != keep_theirs]
    return {key: body[key] for key in changed}, [key for key in changed if key != "confirm"]


def is_form_post() -> bool:
    """`request.mimetype == FORM_TYPE` for a POST, read straight from the header: every API
    write asks, and werkzeug parses the whole header and its options to answer."""
    if request.method != "POST":
        return False
    kind = request.headers.get("Content-Type", "")
    return kind.partition(";")[0].strip().lower() == FORM_TYPE


def cross_site() -> bool:
    """A form post another site made the browser send. The link in the URL is the authority,
    but a page elsewhere must not make a visitor's browser use it: refuse when the browser
    says the request is cross-site (Sec-Fetch-Site) or from another origin (Origin)."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    own = {request.host.lower()}
    configured: str = current_app.config["GROUPKIT_SETTINGS"].base_url
    if configured:
        own.add(urlsplit(configured).netloc.lower())
    return urlsplit(origin).netloc.lower() not in own


def back_to(fallback: str) -> str:
    """The page the form was on (its path only, from a same-origin Referer), else
    `fallback`: the page the operation belongs to."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc.lower() == request.host.lower() and \
            referer.path.startswith(PAGE_PREFIXES):
        return referer.path
    return fallback


@dataclasses.dataclass
class Outcome:
    """What the landing page shows: `result` (the operation's JSON answer) or an error."""

    action: str
    result: dict[str, Any] | None = None
    error: str | None = None
    field: str | None = None
    confirm: bool = False
    ask: bool = False
    errors: list[dict[str, str]] = dataclasses.field(default_factory=list)
    values: list[list[str]] = dataclasses.field(default_factory=list)
    #: An edit's conflicts ([{field, text}]): the page shows each at its field with a
    #: choice, and puts back only what the person changed (`refill`) over the fresh values.
    conflicts: list[dict[str, str]] = dataclasses.field(default_factory=list)
    refill: list[str] | None = None
    #: An edit form's base ([version, shown pairs]) as it was posted: put back with what
    #: was typed after any other error, so the form still says what it was based on.
    edit_base: list[str] | None = None


def outcome_of_error(action: str, error: ApiError, pairs: list[tuple[str, str]]) -> Outcome:
    # A form post speaks its reader's language (the flash keeps the words it was shown).
    more = [{"field": field, "error": i18n.translated(message)}
            for field, message in error.errors]
    field = error.field or (error.errors[0][0] if error.errors else None)
    return Outcome(action=action, error=i18n.translated(error.message), field=field,
                   confirm=error.confirm, errors=more,
                   values=[[name, value] for name, value in pairs])


def _store(payload: dict[str, Any], now: dt.datetime) -> str:
    Flash.delete().where(Flash.expires < now).execute()
    flash_id = secrets.token_urlsafe(24)
    Flash.insert(key=digest(flash_id), expires=now + dt.timedelta(seconds=FLASH_SECONDS),
                 payload=payload).execute()
    return flash_id


def take(flash_id: str, now: dt.datetime) -> dict[str, Any] | None:
    """The flash, once: whoever deletes the row gets it (so two workers never both do)."""
    key = digest(flash_id)
    row = Flash.get_or_none(Flash.key == key)
    if row is None or Flash.delete().where(Flash.key == key).execute() != 1:
        return None
    if row.expires < now:
        return None
    payload: dict[str, Any] = row.payload
    return payload


async def submit(storage: Storage, now: dt.datetime, fallback: Callable[[dict[str, Any]], str],
                 run: Callable[[dict[str, Any]], Awaitable[Response]]) -> Response:
    """Decode the form, run the operation on it, keep the outcome and redirect back."""
    if cross_site():
        return Response(json.dumps({"error": CROSS_SITE}), 403,
                        content_type="application/json")
    form = await request.form
    sent = [(name, value.replace("\x00", "")) for name, value in form.items(multi=True)]
    pairs = [(name, value) for name, value in sent if name not in _CONTROL]
    download = next((value for name, value in sent if name == DOWNLOAD), None)
    kept, rows = without_blank_rows(pairs)
    body = decode(kept)
    target = back_to(fallback(body))
    names = {name for name, _ in sent}
    if ASK in names and AGREED not in names:
        outcome = Outcome(action=request.path, ask=True,
                          values=[[name, value] for name, value in pairs])
        return await _redirect(storage, now, outcome, target)
    group = await storage.read(_group_of_link, target) if target.startswith("/p/") else None
    control = {name: value for name, value in sent if name in EDIT_CONTROL}
    edited = changed_only(body, pairs, control.get(edits.EDIT_SHOWN),
                          control.get(edits.KEEP_THEIRS))
    version = control.get(edits.EDIT_VERSION, "")
    based = edits.set_base(int(version) if version.isdigit() and len(version) < 13 else None)
    try:
        response = await run(body if edited is None else edited[0])
    except ApiError as error:
        outcome = outcome_of_error(request.path, error, pairs)
        outcome.field = outcome.field and row_field(outcome.field, rows)
        for extra in outcome.errors:
            extra["field"] = row_field(extra["field"], rows)
        if isinstance(error, edits.EditConflict):
            outcome.conflicts = [{"field": c["field"], "text": i18n.translated(c["text"])}
                                 for c in error.conflicts]
            outcome.refill = edited[1] if edited is not None else None
            outcome.field = None
        elif edited is not None:
            outcome.edit_base = [version, control.get(edits.EDIT_SHOWN, "")]
    else:
        if download is not None:
            return await _as_file(response, download)
        result: dict[str, Any] = {}
        if response.mimetype == "application/json":
            answer = json.loads(await response.get_data(as_text=True))
            if isinstance(answer, dict):
                result = {key: answer[key] for key in SHOWN if key in answer}
                receipt = _receipt(answer)
                if receipt:
                    result["receipt"] = receipt
        # What was sent finds the form the notice belongs to (its hidden fields), as for
        # an error; it is read back once with the notice and gone with it.
        outcome = Outcome(action=request.path, result=result,
                          values=[[name, value] for name, value in pairs])
        if result.get("deleted") is True:
            target = "/"
        elif group is not None and await storage.read(_group_of_link, target) is None:
            target = group  # the private link just ended (removed, released): its group
    finally:
        edits.reset_base(based)
    return await _redirect(storage, now, outcome, target)


async def _as_file(response: Response, name: str) -> Response:
    """The operation's answer saved as the file `name` (JSON laid out as the script's
    download lays it out), the page left as it was."""
    data = await response.get_data(as_text=False)
    if response.mimetype == "application/json":
        data = (json.dumps(json.loads(data), indent=2, ensure_ascii=False)).encode("utf-8")
    safe = _FILE_NAME.sub("-", name)[:100].lstrip(".-") or "download"
    response.set_data(data)
    response.headers["Content-Disposition"] = f'attachment; filename="{safe}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _receipt(answer: dict[str, Any]) -> str | None:
    """The tool's own account of an answer for the page the sender lands on, if it has one
    (`RECEIPT_TEMPLATE`): what the script would have shown from the JSON answer."""
    environment: jinja2.Environment = current_app.config["GROUPKIT_PAGES"]
    try:
        name = RECEIPT_TEMPLATE.format(tool=request.path.split("/")[2])
        template = environment.get_template(name)
    except jinja2.TemplateNotFound:
        return None
    return template.render(result=answer).strip() or None


def _group_of_link(path: str) -> str | None:
    """The public page of the group a private page (`/p/{token}`) belongs to, while the
    link works."""
    credential = lookup_token(path.removeprefix("/p/"))
    return None if credential is None else f"/s/{credential.instance.slug}"


async def _redirect(storage: Storage, now: dt.datetime, outcome: Outcome,
                    target: str) -> Response:
    flash_id = await storage.write(_store, dataclasses.asdict(outcome),
                                   now.replace(tzinfo=None))
    redirect = Response("", 303, headers={"Location": f"{target}#{ANCHOR}",
                                          "Cache-Control": "no-store"})
    redirect.set_cookie(FLASH_COOKIE, flash_id, max_age=FLASH_SECONDS, path=target,
                        httponly=True, samesite="Strict", secure=request.scheme == "https")
    return redirect


async def pending(storage: Storage, now: dt.datetime) -> dict[str, Any] | None:
    """The flash this page request carries, taken (None without a cookie: no database trip)."""
    flash_id = request.cookies.get(FLASH_COOKIE)
    if not flash_id or len(flash_id) > 64:
        return None
    return await storage.write(take, flash_id, now.replace(tzinfo=None))


def finish(response: Response, had_cookie: bool) -> Response:
    """A page that showed (or dropped) a flash: never cached, and the cookie cleared."""
    if had_cookie:
        response.delete_cookie(FLASH_COOKIE, path=request.path, httponly=True,
                               samesite="Strict")
        response.headers["Cache-Control"] = "no-store"
        response.headers.pop("ETag", None)
    return response


# --- Showing the flash in the page -------------------------------------------------------

_FIELD_TAGS = ("input", "textarea", "select")


def _find_form(doc: Any, outcome: dict[str, Any]) -> Any:
    """The form that was sent: its action, and (among several: a board's spots) hidden
    fields that hold what was sent."""
    forms = [form for form in doc.iter("form") if form.get("action") == outcome["action"]]
    sent: dict[str, list[str]] = {}
    for name, value in outcome.get("values") or []:
        sent.setdefault(name, []).append(value)
    for form in forms:
        hidden = [field for field in form.iter("input")
                  if field.get("type") == "hidden" and field.get("name")
                  and field.get("name") not in EDIT_CONTROL]
        if all(field.get("value", "") in sent.get(field.get("name"), []) for field in hidden):
            return form
    # None is the form sent (its spot was taken, its row removed, the page moved on): a
    # message in another spot's form would speak of the wrong thing.
    return None


def _spot_sent(doc: Any, outcome: dict[str, Any]) -> Any:
    """The board spot (`[data-slot]`, groupkit/_spots.html) a form was sent for, when the
    page no longer has that form: it was taken meanwhile."""
    sent = {value for name, value in outcome.get("values") or [] if value}
    return next((spot for spot in doc.iter() if isinstance(spot.tag, str)
                 and spot.get("data-slot") in sent), None)


def _offer_next(spot: Any, box: Any, values: list[list[str]]) -> None:
    """After a lost race, the next free spot of the same group (`[data-slot-group]`) with
    its claim form open, what was typed in it and its button saying "Take ... instead", as
    slots.js offers it; or that the group is full."""
    group = next((e for e in spot.iterancestors() if e.get("data-slot-group") is not None),
                 None)
    if group is None:
        return
    free = next((e for e in group.iter() if isinstance(e.tag, str) and e.get("data-slot")
                 and e.get("data-slot-taken") is None and e.find(".//form") is not None), None)
    if free is None:
        offer = lxml_html.Element("p", {"class": "spot-offer"})
        offer.text = gettext("Every spot in {group} is taken now.").format(
            group=group.get("data-slot-group"))
        _after(box, offer)
        return
    form = free.find(".//form")
    _open(form)
    _refill(form, values)
    button = next((b for b in form.iter("button") if b.get("type") == "submit"), None)
    if button is not None and free.get("data-slot-label"):
        button.text = gettext("Take {spot} instead").format(spot=free.get("data-slot-label"))
        for child in list(button):
            button.remove(child)


def _open(element: Any) -> None:
    """A message inside a closed disclosure (a spot's claim form) would not be seen."""
    for details in element.iterancestors("details"):
        details.set("open", "open")


def _refill(form: Any, values: list[list[str]]) -> None:
    """Put back what the person typed (never hidden fields, which the page owns)."""
    sent: dict[str, list[str]] = {}
    for name, value in values:
        sent.setdefault(name, []).append(value)
    for field in form.iter(*_FIELD_TAGS):
        name = field.get("name")
        kind = (field.get("type") or "").lower()
        if not name or kind in ("hidden", "submit", "button", "file", "password"):
            continue
        mine = sent.get(name, [])
        if kind in ("checkbox", "radio"):
            if field.get("value", "on") in mine:
                field.set("checked", "checked")
            elif "checked" in field.attrib:
                del field.attrib["checked"]
        elif field.tag == "select":
            for option in field.iter("option"):
                chosen = option.get("value", option.text_content()) in mine[-1:]
                if chosen:
                    option.set("selected", "selected")
                elif "selected" in option.attrib and mine:
                    del option.attrib["selected"]
        elif field.tag == "textarea":
            if mine:
                for child in list(field):
                    field.remove(child)
                field.text = mine[-1]
        elif mine:
            field.set("value", mine[-1])


def _field_target(form: Any, field: str) -> Any:
    """As groupkit.js `fieldTarget`: the input named for the field, its list or group, or an
    element marked `data-field`; a visible input before a hidden one of the same name. A
    named input comes before a `data-field` one: that marks the control the script fills
    (a weight typed in kg, sent in grams), which a page may hide without the script."""
    hidden = marked = None
    for element in form.iter():
        if not isinstance(element.tag, str):
            continue
        name = element.get("name")
        if name and ".".join(wire_path(name)[0]) == field:
            if element.get("type") != "hidden":
                return element
            hidden = hidden if hidden is not None else element
        elif field in (element.get("data-list"), element.get("data-group")):
            return element
        elif field == element.get("data-field") and marked is None:
            marked = element
    return marked if marked is not None else hidden


def _after(target: Any, new: Any) -> None:
    """Insert `new` right after `target`, keeping the text that followed it in place."""
    new.tail, target.tail = target.tail, None
    target.addnext(new)


def _mark_field(form: Any, field: str, message: str, box_id: str, first: bool) -> bool:
    target = _field_target(form, field)
    if target is None:
        return False
    control = target if target.tag in _FIELD_TAGS else next(
        (e for e in target.iter(*_FIELD_TAGS) if e.get("type") != "hidden"), target)
    box = lxml_html.Element("p", {"class": "error field-error", "id": box_id,
                                  "data-field-error": field})
    if first:
        box.set("role", "alert")
    box.text = message
    _after(target, box)
    control.set("aria-invalid", "true")
    described = control.get("aria-describedby")
    control.set("aria-describedby", f"{described} {box_id}" if described else box_id)
    if first:
        control.set("autofocus", "autofocus")
    return True


def _notice(doc: Any, outcome: dict[str, Any], base: str) -> Any:
    result = outcome.get("result") or {}
    box = lxml_html.Element("div", {"class": "notice flash", "id": ANCHOR, "role": "status",
                                    "tabindex": "-1"})

    def line(text: str, link: str | None = None, code: str | None = None) -> None:
        para = lxml_html.Element("p")
        para.text = text
        if link is not None:
            anchor = lxml_html.Element("a", {"href": link})
            anchor.text = f"{base}{link}"
            para.append(anchor)
        if code is not None:
            element = lxml_html.Element("code")
            element.text = code
            para.append(element)
        box.append(para)

    token, edit_token, secret = (result.get(k) for k in ("token", "editToken", "secret"))
    if isinstance(edit_token, str):
        line(gettext("Created. Save your organiser link before you leave this page: "),
             f"/e/{edit_token}")
        if isinstance(result.get("slug"), str):
            line(gettext("Share link for everyone taking part: "), f"/s/{result['slug']}")
    elif result.get("deleted") is True:
        line(gettext("Deleted."))
    else:
        line(gettext("Saved."))
    if isinstance(token, str):
        line(gettext("Your private link — keep it to come back later: "), f"/p/{token}")
    if isinstance(secret, str):
        line(gettext("Your code to change or release this later: "), code=secret)
    if isinstance(result.get("receipt"), str):
        for part in lxml_html.fragments_fromstring(result["receipt"]):
            if isinstance(part, str):  # text between elements (a template's bare words)
                line(part.strip())
            else:
                box.append(part)
    return box


def _ask(form: Any, path: str) -> None:
    """The question a `data-confirm` button asks, at its form, which now goes ahead when
    sent again (`AGREED`); Cancel is the page without the flash."""
    button = next((b for b in form.iter("button") if b.get("name") == ASK), None)
    question = lxml_html.Element("p", {"class": "notice ask", "id": ANCHOR, "role": "alert",
                                       "tabindex": "-1"})
    question.text = (button.get("data-confirm") if button is not None else None) or \
        gettext("Go ahead?")
    form.insert(0, question)
    question.addnext(lxml_html.Element("input", {"type": "hidden", "name": AGREED,
                                                 "value": "1"}))
    form.set("class", f"{form.get('class') or ''} asking".strip())
    if button is not None:
        cancel = lxml_html.Element("a", {"href": path, "class": "ask-cancel"})
        cancel.text = gettext("Cancel")
        _after(button, cancel)


def show(page: bytes, outcome: dict[str, Any], base: str, path: str = "") -> bytes:
    """The page with the flash in place: a notice before the form that was sent (after a
    create, in the create form's place: the created page), or the error next to its field
    (aria-invalid, aria-describedby, autofocus) with what was typed put back, as the script
    would show them, or the question a `data-confirm` button asks."""
    doc = lxml_html.document_fromstring(page.decode("utf-8"))
    form = _find_form(doc, outcome)
    main = next(doc.iter("main"), None)
    if outcome.get("ask"):
        if form is None:
            gone = lxml_html.Element("p", {"class": "notice", "id": ANCHOR, "role": "status"})
            gone.text = gettext("Nothing was changed: that is no longer on this page.")
            if main is not None:
                main.insert(0, gone)
        else:
            _refill(form, outcome.get("values") or [])
            _ask(form, path)
        return _serialize(doc)
    if form is not None:
        _open(form)
    if outcome.get("error") is None:
        notice = _notice(doc, outcome, base)
        create = next((f for f in doc.iter("form") if f.get("action") == outcome["action"]),
                      None) if path.startswith("/new/") else None
        if create is not None and \
                isinstance((outcome.get("result") or {}).get("editToken"), str):
            # Created: the links take the create form's place (its hidden fields may have
            # changed since, a preset's choice), so a second create is not one tap away.
            create.getparent().replace(create, notice)
        elif form is not None:
            form.addprevious(notice)
        elif main is not None:
            main.insert(0, notice)
        return _serialize(doc)
    message: str = outcome["error"]
    if form is None:
        box = lxml_html.Element("p", {"class": "error", "id": ANCHOR, "role": "alert"})
        box.text = message
        spot = _spot_sent(doc, outcome)
        if spot is not None:  # a lost race, said where the spot is, with who won (slots.js)
            who = next((e for e in spot.iter() if isinstance(e.tag, str)
                        and e.get("data-slot-who") is not None), None)
            if who is not None:
                won = gettext("{name} got there first.").format(
                    name=who.text_content().strip())
                box.text = f"{message} {won}"
            spot.append(box)
            _offer_next(spot, box, outcome.get("values") or [])
        elif main is not None:
            main.insert(0, box)
        return _serialize(doc)
    values = outcome.get("values") or []
    refill = outcome.get("refill")
    if refill is not None:  # a conflict: what the person changed, over the fresh values
        values = [[name, value] for name, value in values if wire_path(name)[0][0] in refill]
    _refill(form, values)
    if outcome.get("edit_base") and not outcome.get("conflicts"):
        _based_on(form, outcome["edit_base"])
    for conflict in outcome.get("conflicts") or []:
        _offer_choice(form, conflict["field"], conflict["text"])
    form_id = form.get("id") or "form"
    placed = bool(outcome.get("field")) and _mark_field(form, outcome["field"], message,
                                                       ANCHOR, True)
    if not placed:
        general = next((e for e in form.iter() if isinstance(e.tag, str)
                        and e.get("data-error") is not None), None)
        if general is None:
            general = lxml_html.Element("p", {"class": "error", "data-error": ""})
            form.insert(0, general)
        general.text = message
        general.set("id", ANCHOR)
        general.set("role", "alert")
        general.attrib.pop("hidden", None)
    for extra in outcome.get("errors") or []:
        if extra["field"] != outcome.get("field"):
            safe = re.sub(r"[^\w-]", "", extra["field"])
            _mark_field(form, extra["field"], extra["error"], f"{form_id}-error-{safe}", False)
    if outcome.get("confirm"):
        _confirm_box(form)
    return _serialize(doc)


def _based_on(form: Any, base: list[str]) -> None:
    """After an error, an edit form put back as it was posted says what it was based on:
    the fields the person left alone are still the values it showed then."""
    for field in form.iter("input"):
        if field.get("name") == edits.EDIT_VERSION:
            field.set("value", base[0])
        elif field.get("name") == edits.EDIT_SHOWN:
            field.set("value", base[1])


def _offer_choice(form: Any, field: str, text: str) -> None:
    """A conflict at its field: whose value it was changed to, and a one-tap choice: keep
    theirs (sent again without the field) or use mine (sent again as it is, now based on
    the version that has theirs)."""
    target = _field_target(form, field)
    box = lxml_html.Element("div", {"class": "conflict", "data-conflict": field})
    para = lxml_html.Element("p", {"class": "error field-error"})
    para.text = text
    box.append(para)
    for name, label, kind in ((edits.KEEP_THEIRS, gettext("Keep theirs"), "secondary"),
                              (edits.USE_MINE, gettext("Use mine"), "primary")):
        button = lxml_html.Element("button", {"type": "submit", "name": name, "value": field,
                                              "class": kind})
        button.text = label
        box.append(button)
    if target is not None:
        _after(target, box)
    else:
        form.insert(0, box)


def _confirm_box(form: Any) -> None:
    """Without a script to ask, the question becomes a box to tick and send again."""
    para = lxml_html.fragment_fromstring(
        '<p class="confirm"><label><input type="checkbox" name="confirm:bool" value="true"> '
        '</label></p>')
    para[0][0].tail = " " + gettext("Yes, go ahead")
    button = next((b for b in form.iter("button") if b.get("type", "submit") == "submit"),
                  None)
    if button is not None:
        button.addprevious(para)
    else:
        form.append(para)


def _serialize(doc: Any) -> bytes:
    text: str = lxml_html.tostring(doc, doctype="<!doctype html>", encoding="unicode")
    return text.encode("utf-8")


async def flashed(body: bytes, status: int, storage: Storage, now: dt.datetime,
                  base: str) -> Response:
    """A page (its HTML and status) with the request's flash shown in it and taken; the
    caller checks the cookie first (`FLASH_COOKIE in request.cookies`)."""
    outcome = await pending(storage, now)
    if outcome is not None and status == 200:
        body = show(body, outcome, base, request.path)
    return finish(Response(body, status, content_type="text/html; charset=utf-8"), True)
