"""groupkit.web._spot_rows draws a sign-up board's rows in Python, for speed: each row is byte for
byte what `groupkit/_spots.html`'s macros drew in Jinja before (kept below as the reference),
for every kind of value a template passes, and a remembered row is never served for values
that draw differently."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import jinja2
import pytest
from markupsafe import Markup

from groupkit.web import _forms as forms
from groupkit.web import _spot_rows
from groupkit.web._spot_rows import SpotRows

TEMPLATES = Path(__file__).resolve().parents[1] / "src" / "groupkit" / "web" / "templates"

#: The macros as they were written in Jinja (`ref_` before each name), the reference.
REFERENCE = (Path(__file__).with_name("spot_rows_reference.html")
             .read_text("utf-8"))

CALLS = """{% import "groupkit/_spots.html" as spots %}
{%- macro new(kind, a) -%}
{%- if kind == "claim" %}{% call spots.claim(*a) %}<input name="x">{% endcall %}
{%- elif kind == "open" %}{% call spots.open(*a) %}<input name="y">{{ a[1] }}{% endcall %}
{%- elif kind == "taken" %}{% call spots.taken(*a) %}<b>{{ a[1] }}</b>{% endcall %}
{%- elif kind == "taken-bare" %}{{ spots.taken(*a) }}
{%- elif kind == "mine" %}{{ spots.mine(*a) }}
{%- elif kind == "organised" %}{{ spots.organised(*a) }}
{%- else %}{% call spots.spot(*a) %}<input name="dish" value="{{ a[3] }}">{% endcall %}{% endif %}
{%- endmacro -%}
{%- macro old(kind, a) -%}
{%- if kind == "claim" %}{% call ref_claim(*a) %}<input name="x">{% endcall %}
{%- elif kind == "open" %}{% call ref_open(*a) %}<input name="y">{{ a[1] }}{% endcall %}
{%- elif kind == "taken" %}{% call ref_taken(*a) %}<b>{{ a[1] }}</b>{% endcall %}
{%- elif kind == "taken-bare" %}{{ ref_taken(*a) }}
{%- elif kind == "mine" %}{{ ref_mine(*a) }}
{%- elif kind == "organised" %}{{ ref_organised(*a) }}
{%- else %}{% call ref_spot(*a) %}<input name="dish" value="{{ a[3] }}">{% endcall %}{% endif %}
{%- endmacro -%}
""" + REFERENCE


@pytest.fixture(scope="module")
def pair() -> Any:
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                                     extensions=[forms.AskFirst, forms.FormHelpers, SpotRows])
    return environment.from_string(CALLS).module


#: Values a template passes: text with markup and quotes, Markup, empty, None, numbers, and
#: text too long to be remembered.
TEXTS: list[Any] = ["Mains, spot 2", '<b>"Ann" & \'Bo\'</b>', Markup("<i>kept</i>"), "", None, 0, 7,
                    "<b>long</b> & " * 200]
SPOTS: list[Any] = [
    {"slotId": "c0-1", "taken": False, "name": None},
    {"slotId": "c0-2", "taken": True, "name": "Zoë <script>x</script>"},
    {"slotId": '"><img src=x>', "taken": True, "name": Markup("<b>M</b>")},
    {"slotId": "c1-1"},  # no `taken`, no `name`: Jinja reads them as undefined
    {"slotId": "c1-2", "taken": True, "name": "Bo", "claimedAt": None},
]


def cases() -> list[tuple[str, tuple[Any, ...]]]:
    found: list[tuple[str, tuple[Any, ...]]] = []
    for text, other in itertools.product(TEXTS, TEXTS[:4]):
        hidden = {"slug": text, "slotId": other}
        found += [
            ("claim", ("c0-1", text, "/api/t/claim", hidden)),
            ("claim", (other, text, "/api/t/claim", hidden, text, other, text, "ideaId")),
            ("open", ("c0-1", text, "/api/t/claim", hidden, other, text, other)),
            ("taken", ("c0-1", text, other, text, other)),
            ("taken-bare", (other, text)),
            ("mine", ("t", text, other, text, other)),
            ("mine", ("t", other, text, other, text, text, "uncook")),
            ("mine", ("t", text, other)),  # the kernel's words
            ("mine", ("t", other, text, None, None, True, "uncook", text)),
            ("mine", ("t", other, text, None, None, None, "uncook", None, text)),
        ]
        for spot in SPOTS:
            claimed = {**spot, "claimedAt": "2026-11-27T09:30:00+00:00"}
            found += [
                ("organised", (claimed, "/api/plate/tok", "Remove {name}?")),
                *([("organised", (spot, "/api/x", "Sure, {name}?", text))]
                  if "claimedAt" in spot else []),
                ("organised", (claimed, text, other, text, other, text)),
                ("organised", ({**claimed, "name": text}, other, "Take {name} off?", other)),
                ("spot", ("plate", text, spot, other, "Release", "Sure?")),
                ("spot", ("meal", text, spot, other)),
                ("spot", ("roster", other, spot, text, other, text, text, other, text, "give",
                          other, text, other)),
            ]
    return found


def outcome(draw: Any, kind: str, arguments: tuple[Any, ...]) -> tuple[str, str]:
    """What a call draws, or the kind of error it fails with (a taken spot with no time)."""
    try:
        return "drawn", str(draw(kind, arguments))
    except Exception as error:  # whatever it is, both must fail alike
        return "failed", type(error).__name__


def test_each_row_is_what_the_jinja_macros_drew(pair: Any) -> None:
    drawn = 0
    for _ in range(2):  # the second round draws remembered rows
        for kind, arguments in cases():
            new = outcome(pair.new, kind, arguments)
            assert new == outcome(pair.old, kind, arguments), (kind, arguments)
            drawn += new[0] == "drawn"
    assert drawn > 800


def test_a_remembered_row_is_not_served_for_values_that_draw_differently(pair: Any) -> None:
    taken = {"slotId": "c0-1", "taken": True, "name": "<b>Ann</b>"}
    first = str(pair.new("spot", ("plate", "s", taken, "L", "R", "C", Markup("<i>x</i>"))))
    assert "<i>x</i>" in first and "&lt;b&gt;Ann&lt;/b&gt;" in first
    # The same text, not marked safe: escaped, not the remembered row.
    second = str(pair.new("spot", ("plate", "s", taken, "L", "R", "C", "<i>x</i>")))
    assert "&lt;i&gt;x&lt;/i&gt;" in second and "<i>x</i>" not in second
    # Another name: another row. 1 and True draw differently ("1" and "True").
    renamed = str(pair.new("spot", ("plate", "s", {**taken, "name": "Bo"}, "L", "R", "C", 1)))
    assert "<strong data-slot-who>Bo</strong>" in renamed and ">1</span>" in renamed
    assert ">True</span>" in str(pair.new("spot", ("plate", "s", taken, "L", "R", "C", True)))


def test_only_short_rows_are_remembered(pair: Any) -> None:
    """What is kept stays small: a row with more text than `_REMEMBERED_TEXT` is drawn each
    time (right, as the first test shows), never kept."""
    spot = {"slotId": "c9-9", "taken": True, "name": "Ann"}
    _spot_rows._remembered.cache_clear()  # not full, whatever ran before in this process
    before = _spot_rows._remembered.cache_info().currsize
    pair.new("spot", ("plate", "s", spot, "L", "R", "C", "x" * _spot_rows._REMEMBERED_TEXT))
    assert _spot_rows._remembered.cache_info().currsize == before
    pair.new("spot", ("plate", "s", spot, "L", "R", "C", "short"))
    assert _spot_rows._remembered.cache_info().currsize == before + 1
