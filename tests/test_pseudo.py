"""The kit's made-up language (`groupkit_testing.pseudo`): its words keep every placeholder,
tag and entity of the English and no Latin letter besides; its catalogs cover every domain,
plural forms included; and the check's word finder leaves out what people typed, addresses
and names, but nothing else."""

from __future__ import annotations

import re
from pathlib import Path

from babel.support import Translations

from groupkit_testing.pseudo import LANGUAGE
from groupkit_testing.pseudo import TextChecker
from groupkit_testing.pseudo import compile_pseudo
from groupkit_testing.pseudo import pseudo


def test_a_pseudo_word_keeps_placeholders_tags_and_entities_and_no_latin_letter() -> None:
    english = 'Taken by {name}: %(count)s of %s, 100%% <a href="/x">here</a> &amp; more'
    said = pseudo(english)
    assert said.startswith("⟦") and said.endswith("⟧")
    for kept in ("{name}", "%(count)s", "%s", "%%", '<a href="/x">', "</a>", "&amp;"):
        assert kept in said, kept
    outside = re.sub(r"\{name\}|%\(count\)s|%s|%%|<[^>]*>|&amp;", "", said)
    assert re.search(r"[A-Za-z]", outside) is None, outside


def test_the_catalogs_cover_every_domain_with_plural_forms(tmp_path: Path) -> None:
    folder = compile_pseudo(tmp_path)
    compiled = sorted(path.stem for path in (folder / LANGUAGE / "LC_MESSAGES").glob("*.mo"))
    assert "groupkit" in compiled and "groupkit_plate" in compiled and len(compiled) > 20
    kernel = Translations.load(str(folder), [LANGUAGE], "groupkit")
    assert kernel.gettext("Remove") == pseudo("Remove")
    baby = Translations.load(str(folder), [LANGUAGE], "groupkit_baby")
    plural = [entry for entry in baby._catalog if isinstance(entry, tuple)]
    assert plural, "groupkit_baby has a plural message"
    message, _ = plural[0]
    one, many = baby._catalog[(message, 0)], baby._catalog[(message, 1)]
    assert one.startswith("⟦") and many.startswith("⟦") and one != many


def test_the_word_finder_leaves_out_only_typed_text_addresses_and_names() -> None:
    checker = TextChecker()
    checker.typed |= {"Al", "Bring a plate"}
    assert checker.escapes("⟦Ŧáķéñ ƀý⟧ Al") == []
    assert checker.escapes("Always Al") == ["Always"]
    assert checker.escapes("Bring a plate: https://example.com/s/x mia@example.com") == []
    assert checker.escapes("Europe/Paris, UTC, US$ 5, example.com, Slack") == []
    assert checker.escapes("⟦Ŧáķéñ ƀý Sign up⟧") == ["Sign", "up"]
