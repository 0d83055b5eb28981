"""The rows of a sign-up board as strings: the bodies of `groupkit/_spots.html`'s `claim`,
`open`, `taken`, `mine`, `spot` and `organised` macros, which stay the documented interface
(`spot` and `organised` are these functions themselves).

A board draws one row per spot, and every write to a board that pages hold open renders it
again. Drawn through Jinja's nested macros and call blocks (five macro calls a spot), a
12x20 board took about 20 ms to render. As strings, and with each `spot` and `organised` row
remembered while the values it is drawn from stay the same (so a write draws only the spots
it changed), it takes about 7. Every value is escaped exactly as the template's autoescape
would (`markupsafe.escape`), and the output is byte for byte what the macros made
(`kernel/tests/test_spot_rows.py`). A remembered organiser row keeps the `forms.action`
button it was drawn with until the process restarts, even where templates reload.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

import jinja2
import jinja2.ext
from jinja2.filters import do_replace
from jinja2.nodes import EvalContext
from jinja2.runtime import markup_join
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from markupsafe import escape

from groupkit.core import _i18n as i18n
from groupkit.core._i18n import N_
from groupkit.web._forms import ASK

Caller = Callable[[], str] | None


class _Word(str):
    """A default word of a row ("Claim", "Open"): said in the reader's language where it
    is drawn, unlike the words a caller passes, which are its own (or what people typed)."""


#: The default button and state of an open spot (`claim`, `open`, `spot`).
CLAIM = _Word(N_("Claim"))
OPEN = _Word(N_("Open"))
#: The one wording of giving a spot back on every board (`mine`, `spot`), and of the
#: claimer's calendar: the subscription first (`feed=True`), a one-off file its fallback.
RELEASE = _Word(N_("Give my spot back"))
RELEASE_ASK = _Word(N_("Give this spot back so someone else can take it?"))
SUBSCRIBE = _Word(N_("Add to my calendar (stays up to date)"))
ONE_OFF_FILE = N_("Or download a one-off calendar file (.ics)")


def _said(value: Any) -> Any:
    """A default word in the language being spoken, a caller's value as it is."""
    return str(i18n.gettext(value)) if type(value) is _Word else value


_ABSENT = object()


def _get(item: Any, key: str) -> Any:
    """`item.key` as Jinja reads it: an attribute, else a key, else nothing (falsy, "")."""
    found = getattr(item, key, _ABSENT)
    if found is not _ABSENT:
        return found
    try:
        return item[key]
    except (TypeError, LookupError):
        return ""


def _text(value: Any) -> str:
    """`{{ value }}`: escaped, and an Undefined (a missing key in the caller's data) is empty.
    Most values of a board repeat (labels, button texts, slot ids), so a string is escaped
    once and looked up after that (short ones: what is kept stays small)."""
    if type(value) is str and len(value) <= _SHORT:
        return _escaped(value)
    return "" if isinstance(value, jinja2.Undefined) else str(escape(value))


_SHORT = 200


def _word(text: str) -> str:
    """A row's own word as element text: escaped as the literal was written (quotes kept)."""
    return html.escape(text, quote=False)


@functools.lru_cache(maxsize=8192)
def _escaped(value: str) -> str:
    return str(escape(value))


def claim(slot: Any, label: Any, api: Any, hidden: Mapping[str, Any], remember: Any = None,
          button: Any = CLAIM, state: Any = OPEN, id_field: Any = "slotId",
          caller: Caller = None) -> Markup:
    button, state = _said(button), _said(state)
    state_html = f'<span class="spot-state">{_text(state)}</span>' if state else ""
    remembered = f' data-remember="{_text(remember)}"' if remember else ""
    inputs = "".join(f'<input type="hidden" name="{_text(key)}" value="{_text(value)}">\n    '
                     for key, value in hidden.items())
    fields = caller() if caller is not None else ""
    return Markup(
        f'<details class="spot-claim" name="spot-claim" id="claim-{_text(slot)}">\n'
        f'  <summary>{state_html}<span class="spot-button">{_text(button)}'
        f'<span class="visually-hidden"> ({_text(label)})</span></span></summary>\n'
        f'  <form class="spot-form" method="post" action="{_text(api)}" '
        f'data-api="{_text(api)}"{remembered} data-spot-claim="{_text(id_field)}" novalidate>\n'
        f'    {inputs}{fields}\n'
        f'    <button type="submit" class="primary">{_text(button)}</button>\n'
        '    <p class="error" data-error role="alert" hidden></p>\n'
        '  </form>\n'
        '</details>')


def open_row(slot: Any, label: Any, api: Any, hidden: Mapping[str, Any], remember: Any = None,
             button: Any = CLAIM, state: Any = OPEN, id_field: Any = "slotId",
             caller: Caller = None) -> Markup:
    form = claim(slot, label, api, hidden, remember, button, state, id_field, caller)
    return Markup(f'\n<li class="spot-open" id="spot-{_text(slot)}" data-slot="{_text(slot)}" '
                  f'data-slot-label="{_text(label)}">\n{form}\n</li>')


def taken_row(slot: Any, name: Any, extra: Any = "", extra_class: Any = "", where: Any = "",
              caller: Caller = None) -> Markup:
    where_html = f'<span class="spot-state">{_text(where)}</span> ' if where else ""
    extra_html = (f' <span class="spot-extra {_text(extra_class)}">{_text(extra)}</span>'
                  if extra else "")
    inside = caller() if caller is not None else ""
    return Markup(
        f'<li class="taken" id="spot-{_text(slot)}" data-slot="{_text(slot)}" data-slot-taken>\n'
        f'  <span class="spot-who">{where_html}<strong data-slot-who>{_text(name)}</strong>'
        f'{extra_html}</span>\n  {inside}\n</li>')


@jinja2.pass_environment
def mine(environment: jinja2.Environment, tool: Any, slug: Any, slot: Any,
         release: Any = None, confirm: Any = None, feed: Any = None,
         path: Any = "unclaim", file: Any = None, held: Any = None) -> Markup:
    release, confirm = _said(release or RELEASE), _said(confirm or RELEASE_ASK)
    feed = _said(SUBSCRIBE) if feed is True else feed
    key = _text(markup_join(("groupkit:", tool, ":", slug, ":", slot)))
    body = escape(str(htmlsafe_json_dumps(
        {"slug": slug, "slotId": slot}, dumps=environment.policies["json.dumps_function"],
        **environment.policies["json.dumps_kwargs"])))
    api = f"/api/{_text(tool)}/{_text(path)}"
    subscribe = _word(i18n.gettext("Subscribe in your calendar app"))
    mine_word = _word(i18n.gettext("It's mine"))
    your_code = _text(i18n.gettext("Your code"))
    code_label = _text(i18n.gettext("Your code from when you claimed it"))
    feed_html = (
        f'\n<button type="button" hidden data-secret-key="{key}" data-keep-secret '
        f'data-show-link="webcalUrl" data-post="/api/{_text(tool)}/feed" data-body="{body}">'
        f'{_text(feed)}</button>\n<a data-link hidden href="#">'
        f'{subscribe}</a>\n' if feed else "")
    file_html = (f'<a hidden data-secret-key="{key}" href="{_text(file)}" data-calendar '
                 f'class="one-off">{_word(i18n.gettext(ONE_OFF_FILE))}</a>\n' if file else "")
    if held:
        file_html += (
            f'<button type="button" hidden data-secret-key="{key}" data-keep-secret '
            f'data-show-text="forYou" data-post="/api/{_text(tool)}/held" data-body="{body}">'
            f'{_text(held)}</button>\n<p class="spot-held" data-text hidden></p>\n')
    return Markup(
        f'\n\n<button type="button" hidden data-secret-key="{key}" data-post="{api}" '
        f'data-body="{body}" name="{ASK}" value="1" data-confirm="{_text(confirm)}">'
        f'{_text(release)}</button>\n{feed_html}\n{file_html}'
        '<p class="error" data-error role="alert" hidden></p>\n'
        f'<noscript><details class="spot-release"><summary>{mine_word}</summary>\n'
        f'<form class="spot-form" method="post" action="{api}" data-api="{api}" novalidate>\n'
        f'<input type="hidden" name="slug" value="{_text(slug)}"><input type="hidden" '
        f'name="slotId" value="{_text(slot)}">\n'
        '<input name="secret" autocomplete="off" spellcheck="false" maxlength="16" '
        f'placeholder="{your_code}" aria-label="{code_label}">\n'
        f'<button type="submit">{_text(release)}</button>\n'
        '<p class="error" data-error role="alert" hidden></p>\n'
        '</form></details></noscript>')


@jinja2.pass_environment
def spot(environment: jinja2.Environment, tool: Any, slug: Any, spot: Any, label: Any,
         release: Any = None, confirm: Any = None, extra: Any = "",
         extra_class: Any = "", feed: Any = None,
         path: Any = "unclaim", button: Any = CLAIM, state: Any = OPEN, where: Any = "",
         caller: Caller = None) -> Markup:
    fields = caller() if caller is not None else ""
    button, state = _said(button), _said(state)
    taken = bool(_get(spot, "taken"))
    values = (tool, slug, _get(spot, "slotId"), taken, _get(spot, "name") if taken else None,
              label, release, confirm, extra, extra_class, feed, path, button, state, where,
              fields)
    return _drawn(_row, environment, values)


#: The argument types a row is remembered for: values whose equality means the same output.
_PLAIN = frozenset({str, Markup, type(None), bool, int, jinja2.Undefined})
#: Rows with more text than this are drawn each time: at most 8,192 rows of it are kept.
_REMEMBERED_TEXT = 2000


def _drawn(draw: Callable[..., Markup], environment: jinja2.Environment,
           values: tuple[Any, ...]) -> Markup:
    """`draw(environment, *values)`. Equal values of one type draw the same row, so a row is
    drawn once and then looked up until something in it changes: a write to a board draws
    only its changed spots. The types are part of the key, because Markup("<b>") and "<b>"
    draw differently. The language is part of the key too: a row's own words are in it."""
    if all(type(value) in _PLAIN for value in values) and sum(
            len(value) for value in values if isinstance(value, str)) <= _REMEMBERED_TEXT:
        return _remembered(draw, environment, tuple(map(type, values)), values,
                           i18n.language())
    return draw(environment, *values)


@functools.lru_cache(maxsize=8192)
def _remembered(draw: Callable[..., Markup], environment: jinja2.Environment,
                types: tuple[type, ...], values: tuple[Any, ...], language: str) -> Markup:
    return draw(environment, *values)


def _row(environment: jinja2.Environment, tool: Any, slug: Any, slot: Any, taken: bool,
         name: Any, label: Any, release: Any, confirm: Any, extra: Any, extra_class: Any,
         feed: Any, path: Any, button: Any, state: Any, where: Any, fields: str) -> Markup:
    if taken:
        released = mine(environment, tool, slug, slot, release, confirm, feed, path)
        row = taken_row(slot, name, extra, extra_class, where,
                        lambda: Markup(f"\n{released}\n"))
        return Markup(f"\n\n{row}\n")
    your_name = _text(i18n.gettext("Your name"))
    labelled = _text(i18n.gettext("Your name ({spot})")).replace("{spot}", _text(label))
    name_input = (f'\n      <input name="name" maxlength="40" placeholder="{your_name}" '
                  f'autocomplete="name" aria-label="{labelled}">{fields}')
    row = open_row(slot, label, markup_join(("/api/", tool, "/claim")),
                   {"slug": slug, "slotId": slot},
                   markup_join(("groupkit:", tool, ":{slug}:{slotId}")), button, state,
                   caller=lambda: Markup(name_input))
    return Markup(f"\n\n{row}\n")


@jinja2.pass_environment
def organised(environment: jinja2.Environment, spot: Any, api: Any, confirm: Any,
              extra: Any = "", extra_class: Any = "", note: Any = "") -> Markup:
    if not _get(spot, "taken"):
        open_word = _word(i18n.gettext(OPEN))
        return Markup(f'\n  <li><span class="muted">{open_word}</span></li>\n')
    values = (_get(spot, "name"), _get(spot, "claimedAt"), _get(spot, "slotId"), api, confirm,
              extra, extra_class, note)
    return _drawn(_organised, environment, values)


def _organised(environment: jinja2.Environment, name: Any, claimed_at: Any, slot: Any,
               api: Any, confirm: Any, extra: Any, extra_class: Any, note: Any) -> Markup:
    # The filters and the Remove button are Jinja's own (`replace`, `forms.action`), so the
    # row is what the macro drew, down to how Markup in a value is treated.
    context = EvalContext(environment)
    when = do_replace(context, claimed_at[:16], "T", " ")  # as Jinja compiles a slice
    forms = environment.get_template("groupkit/_forms.html").module
    remove = forms.action(markup_join((api, "/remove")),  # type: ignore[attr-defined]
                          i18n.gettext("Remove"),
                          {"slotId": slot}, do_replace(context, confirm, "{name}", name),
                          "destructive")
    extra_html = (f' <span class="spot-extra {_text(extra_class)}">{_text(extra)}</span>'
                  if extra else "")
    note_html = f'<p class="spot-note">{_text(note)}</p>' if note else ""
    return Markup(
        '\n  <li class="taken">\n'
        f'    <span class="spot-who"><strong>{_text(name)}</strong>{extra_html}\n'
        f'    <time class="muted spot-when" datetime="{_text(claimed_at)}">{_text(when)} UTC'
        f'</time></span>\n    {remove}\n    {note_html}\n'
        '    <p class="error" data-error role="alert" hidden></p>\n  </li>\n')


class _Rows:
    """What `groupkit/_spots.html` calls, by its macros' names."""
    claim = staticmethod(claim)
    open = staticmethod(open_row)
    taken = staticmethod(taken_row)
    mine = staticmethod(mine)
    spot = staticmethod(spot)
    organised = staticmethod(organised)


ROWS = _Rows()


class SpotRows(jinja2.ext.Extension):
    """Lends `groupkit/_spots.html` the rows above, as `groupkit_spot_rows.<macro>`."""

    def __init__(self, environment: jinja2.Environment) -> None:
        super().__init__(environment)
        environment.globals["groupkit_spot_rows"] = ROWS
