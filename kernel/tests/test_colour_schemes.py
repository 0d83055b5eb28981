"""A colour scheme changes colours only: the all-states suite (groupkit_testing.allstates) runs
axe-core's structural rules once per phone size and only its colour rules in the dark scheme,
which is sound only while every `prefers-color-scheme` block sets colours and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHEETS = sorted(path for root in ("kernel/src", "plugins", "contrib")
                for path in (REPO / root).rglob("*.css") if ".venv" not in path.parts)
COLOUR_PROPERTY = re.compile(
    r"^(--[\w-]+|color|color-scheme|background(-color|-image)?|border(-\w+)*-color|border|"
    r"border-(top|right|bottom|left)|outline(-color)?|box-shadow|text-shadow|fill|stroke|"
    r"caret-color|accent-color|text-decoration-color|opacity|filter)$")


def scheme_blocks(css: str) -> list[str]:
    """The bodies of every `@media (prefers-color-scheme: …)` block (braces balanced)."""
    bodies = []
    for match in re.finditer(r"@media[^{]*prefers-color-scheme[^{]*\{", css):
        depth, start = 1, match.end()
        index = start
        while depth and index < len(css):
            depth += {"{": 1, "}": -1}.get(css[index], 0)
            index += 1
        bodies.append(css[start:index - 1])
    return bodies


def properties(block: str) -> set[str]:
    block = re.sub(r"/\*.*?\*/", "", block, flags=re.S)
    return {declaration.split(":", 1)[0].strip().lower()
            for rule in re.findall(r"\{([^{}]*)\}", block)
            for declaration in rule.split(";") if ":" in declaration}


def test_there_are_dark_schemes_to_check() -> None:
    assert sum(len(scheme_blocks(path.read_text("utf-8"))) for path in SHEETS) >= 5


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda path: str(path.relative_to(REPO)))
def test_a_colour_scheme_sets_colours_only(sheet: Path) -> None:
    found = {name for block in scheme_blocks(sheet.read_text("utf-8"))
             for name in properties(block)}
    assert {name for name in found if not COLOUR_PROPERTY.match(name)} == set()


def test_the_check_sees_a_layout_change() -> None:
    css = "@media (prefers-color-scheme: dark) { a { color: red; display: none } }"
    assert properties(scheme_blocks(css)[0]) == {"color", "display"}
