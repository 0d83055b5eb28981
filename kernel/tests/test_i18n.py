"""Languages (`groupkit.core._i18n`): which one a reader gets, catalogs merged per language
(the kernel's, then each plugin's own domain), and Babel's formats for the language spoken."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from groupkit.core import _i18n as i18n


def compiled(folder: Path, domain: str, language: str, words: dict[str, str]) -> None:
    catalog = Catalog(locale=language, domain=domain)
    for message, translation in words.items():
        catalog.add(message, translation)
    target = folder / language / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with (target / f"{domain}.mo").open("wb") as out:
        write_mo(out, catalog)


@pytest.fixture
def catalogs(tmp_path: Path) -> i18n.Catalogs:
    kernel, plugin = tmp_path / "kernel", tmp_path / "plugin"
    compiled(kernel, "groupkit", "de", {"Save": "Speichern", "Sign up": "Eintragen"})
    compiled(kernel, "groupkit", "es", {"Save": "Guardar"})
    # A plugin's own domain; a language the kernel does not speak is not offered.
    compiled(plugin, "groupkit_demo", "de", {"Sign up": "Mitmachen", "Bring a plate": "Teller"})
    compiled(plugin, "groupkit_demo", "fr", {"Bring a plate": "Apportez"})
    return i18n.Catalogs([("groupkit", kernel), ("groupkit_demo", plugin)])


def test_languages_offered_are_english_and_the_kernels_catalogs(
        catalogs: i18n.Catalogs) -> None:
    assert catalogs.languages == ("en", "de", "es")
    assert i18n.Catalogs([("groupkit", Path("/nowhere"))]).languages == ("en",)


def test_a_plugins_words_join_the_kernels_which_win_for_the_same_english(
        catalogs: i18n.Catalogs) -> None:
    with i18n.speaking(catalogs, "de"):
        assert i18n.language() == "de"
        assert i18n.gettext("Save") == "Speichern"
        assert i18n.gettext("Bring a plate") == "Teller"
        # The kernel's words are the shared pages': a plugin's "Sign up" does not change them.
        assert i18n.gettext("Sign up") == "Eintragen"
        assert i18n.gettext("Never translated") == "Never translated"
    with i18n.speaking(catalogs, "es"):
        assert i18n.gettext("Bring a plate") == "Bring a plate"  # no Spanish for the plugin
    with i18n.speaking(catalogs, "fr"):  # not offered: English
        assert i18n.gettext("Bring a plate") == "Bring a plate"
    assert i18n.language() == "en" and i18n.gettext("Save") == "Save"


def test_plural_forms_follow_the_count(tmp_path: Path) -> None:
    catalog = Catalog(locale="de", domain="groupkit")
    catalog.add(("one spot", "%(num)s spots"), ("ein Platz", "%(num)s Plätze"))
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "de" / "LC_MESSAGES" / "groupkit.mo").open("wb") as out:
        write_mo(out, catalog)
    with i18n.speaking(i18n.Catalogs([("groupkit", tmp_path)]), "de"):
        assert i18n.ngettext("one spot", "%(num)s spots", 1) == "ein Platz"
        assert i18n.ngettext("one spot", "%(num)s spots", 3) == "%(num)s Plätze"


@pytest.mark.parametrize(("cookie", "header", "expected"), [
    (None, None, "en"),
    (None, "de-AT,de;q=0.9,en;q=0.5", "de"),
    (None, "fr-CH, es;q=0.4, de;q=0.3", "es"),
    (None, "es;q=0, de;q=0.1", "de"),        # q=0 means "not this one"
    (None, "fr, it", "en"),
    (None, "*", "en"),
    (None, "de;q=abc, ;;;, es-419", "es"),   # nonsense is skipped, not an error
    ("es", "de", "es"),                      # the reader's own choice first
    ("fr", "de", "de"),                      # a choice not offered is ignored
    ("de\r\nX: y", None, "en"),
])
def test_a_reader_gets_their_choice_else_their_browsers_language(
        catalogs: i18n.Catalogs, cookie: str | None, header: str | None,
        expected: str) -> None:
    assert catalogs.pick(cookie, header) == expected


def test_formats_follow_the_language_spoken(catalogs: i18n.Catalogs) -> None:
    day, moment = dt.date(2026, 12, 24), dt.datetime(2026, 12, 24, 18, 30)
    assert i18n.format_money(12.5, "EUR") == "€12.50"
    assert i18n.format_decimal(1234.5) == "1,234.5"
    assert i18n.format_date(day) == "Dec 24, 2026"
    with i18n.speaking(catalogs, "de"):
        assert i18n.format_money(12.5, "EUR") == "12,50\xa0€"
        assert i18n.format_decimal(1234.5) == "1.234,5"
        assert i18n.format_date(day) == "24.12.2026"
        assert i18n.format_datetime(moment, "short") == "24.12.26, 18:30"


def test_direction_and_names_for_the_switcher() -> None:
    assert i18n.direction("de") == "ltr"
    assert i18n.direction("ar") == "rtl"
    assert i18n.language_name("de") == "Deutsch"
    assert i18n.language_name("es") == "Español"


def test_a_message_is_its_english_and_its_translation_on_a_page(
        tmp_path: Path) -> None:
    compiled(tmp_path, "groupkit", "de", {
        "Pick at most {n} options.": "Wähle höchstens {n} Optionen.",
        "This poll is closed.": "Diese Umfrage ist geschlossen.",
        "{name} is here twice.": "{nom} ist doppelt da."})  # a broken translation
    catalogs = i18n.Catalogs([("groupkit", tmp_path)])
    made = i18n.message("Pick at most {n} options.", n=3)
    assert made == "Pick at most 3 options." and type(made) is i18n.Message
    broken = i18n.message("{name} is here twice.", name="{n} Zoë")
    with i18n.speaking(catalogs, "de"):
        assert i18n.translated(made) == "Wähle höchstens 3 Optionen."
        assert i18n.translated("This poll is closed.") == "Diese Umfrage ist geschlossen."
        assert i18n.translated("Bob typed this") == "Bob typed this"
        # A translation that lost a placeholder shows the English, never a failure; what
        # a person typed is a value, never a template.
        assert i18n.translated(broken) == "{n} Zoë is here twice."
    assert i18n.translated(made) == "Pick at most 3 options."
    assert i18n.N_("Save") == "Save"


def test_a_message_inside_a_message_is_translated_too(tmp_path: Path) -> None:
    """An edit conflict's 409 is one sentence around a line per field: the page says it
    all in its reader's language, the API the English, byte for byte."""
    from groupkit.core import _edits as edits

    compiled(tmp_path, "groupkit", "de", {
        edits.CONFLICT: "Jemand hat gespeichert — {changes}. Behalte es.",
        edits.FIELD_NOW: "{field} ist jetzt {theirs} (deins: {mine})",
        edits.CHANGED: "Geändert zu {theirs}; deins ist {mine}."})
    catalogs = i18n.Catalogs([("groupkit", tmp_path)])
    error = edits.EditConflict(7, [("title", "Ann's", "Bo's")])
    assert error.message == ("Someone else saved a change while you were editing — title is "
                             "now “Ann's” (yours: “Bo's”). Keep theirs, or send yours again to "
                             "replace it.")
    assert error.conflicts[0]["text"] == "Changed by someone else to “Ann's”; yours is “Bo's”."
    with i18n.speaking(catalogs, "de"):
        assert i18n.translated(error.message) == (
            "Jemand hat gespeichert — title ist jetzt “Ann's” (deins: “Bo's”). Behalte es.")
        assert i18n.translated(error.conflicts[0]["text"]) == (
            "Geändert zu “Ann's”; deins ist “Bo's”.")


def test_a_formatted_message_stays_one_through_a_schemas_checks() -> None:
    """A list's count message is made with `message`: the 400 a schema raises keeps it, so
    a page can still say it in its reader's language."""
    from groupkit.core._errors import ApiError
    from groupkit.core._fields import Count
    from groupkit.core._fields import StringList
    from groupkit.core._schema import Schema
    from groupkit.core._schema import load

    class Body(Schema):
        names = StringList(40, at_least=Count(2, "Give at least 2 names, not {n}."))

    with pytest.raises(ApiError) as refused:
        load(Body(), {"names": ["Ann"]})
    assert refused.value.message == "Give at least 2 names, not 1."
    assert isinstance(refused.value.message, i18n.Message)
    assert refused.value.message.template == "Give at least 2 names, not {n}."


def test_a_boards_own_words_follow_the_reader_and_its_rows_are_kept_per_language(
        tmp_path: Path) -> None:
    """A row is remembered while its values stay the same: the language is one of them."""
    import jinja2

    from groupkit.web import _forms as forms
    from groupkit.web import _spot_rows as rows

    compiled(tmp_path, "groupkit", "de", {"Claim": "Nehmen", "Open": "Frei",
                                         "Your name": "Dein Name"})
    catalogs = i18n.Catalogs([("groupkit", tmp_path)])
    environment = jinja2.Environment(autoescape=True,
                                     extensions=[forms.AskFirst, forms.FormHelpers])
    spot = {"slotId": "c0-1", "taken": False}
    mine = {"button": "Bring it", "state": "Free"}  # the same values in both languages
    english = str(rows.spot(environment, "plate", "s", spot, "Mains", "Go", "Sure?"))
    english_own = str(rows.spot(environment, "plate", "s", spot, "Mains", "Go", "?", **mine))
    with i18n.speaking(catalogs, "de"):
        german = str(rows.spot(environment, "plate", "s", spot, "Mains", "Go", "Sure?"))
        german_own = str(rows.spot(environment, "plate", "s", spot, "Mains", "Go", "?", **mine))
        called = str(rows.open_row("c0-1", "Mains", "/api/x", {}, button="Claim"))
    assert ">Claim<" in english and ">Open<" in english and 'placeholder="Your name"' in english
    assert ">Nehmen<" in german and ">Frei<" in german and 'placeholder="Dein Name"' in german
    assert 'placeholder="Your name"' in english_own and 'placeholder="Dein Name"' in german_own
    # A word the caller passes is its own: never looked up in the kernel's catalog.
    assert ">Claim<" in called and ">Frei<" in called


def test_a_tool_tomls_words_are_extracted_for_the_plugins_catalog() -> None:
    import io

    from groupkit.ops._catalogs import extract_tool_toml

    toml = (b'name = "plate"\ntitle = "Bring a Plate"\nicon = "x"\nsummary = """\n'
            b'A potluck board."""\n[example]\ntitle = "End-of-year lunch"\n')
    found = list(extract_tool_toml(io.BytesIO(toml), {}, (), {}))
    # The tool's words, never its example (what an organiser would type).
    assert found == [(2, None, "Bring a Plate", []), (4, None, "A potluck board.", [])]
    assert list(extract_tool_toml(io.BytesIO(b"title = "), {}, (), {})) == []


def test_a_languages_plural_rule_is_its_own(tmp_path: Path) -> None:
    """Spanish has three plural forms (one, many, other); the merged words use the
    kernel catalog's rule, not an empty catalog's two."""
    catalog = Catalog(locale="es", domain="groupkit")
    catalog.add(("one spot", "%(num)s spots"), ("un sitio", "%(num)s de sitios",
                                                 "%(num)s sitios"))  # one, many, other
    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "es" / "LC_MESSAGES" / "groupkit.mo").open("wb") as out:
        write_mo(out, catalog)
    with i18n.speaking(i18n.Catalogs([("groupkit", tmp_path)]), "es"):
        assert i18n.ngettext("one spot", "%(num)s spots", 1) == "un sitio"
        assert i18n.ngettext("one spot", "%(num)s spots", 3) == "%(num)s sitios"
        assert i18n.ngettext("one spot", "%(num)s spots", 1_000_000) == "%(num)s de sitios"


def test_preview_folders_are_read_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.LOCALE_PATH, f"/one{os.pathsep}{os.pathsep}/two")
    assert i18n.preview_folders() == [Path("/one"), Path("/two")]
    monkeypatch.delenv(i18n.LOCALE_PATH)
    assert i18n.preview_folders() == []
    assert i18n.preview_folders("") == []


def test_a_previewed_catalog_adds_a_language_and_its_words_win(tmp_path: Path) -> None:
    """A catalog folder given as a preview (`$GROUPKIT_LOCALE_PATH`): a language it holds
    for the kernel's domain is offered; its words win over the installed ones of the same
    domain, and the kernel's words still win over a plugin's."""
    plugin, preview = tmp_path / "groupkit_demo", tmp_path / "preview"
    compiled(plugin / "locale", "groupkit_demo", "de", {"Bring a plate": "Teller",
                                                        "Sign up": "Mitmachen"})
    compiled(preview, "groupkit", "eo", {"Save": "Konservi"})
    compiled(preview, "groupkit_demo", "eo", {"Bring a plate": "Alportu"})
    compiled(preview, "groupkit_demo", "de", {"Bring a plate": "Bring einen Teller"})
    compiled(preview, "groupkit", "de", {"Sign up": "Eintragen"})
    catalogs = i18n.Catalogs.of([plugin], previews=[tmp_path / "nowhere", preview])
    assert "eo" in catalogs.languages and "de" in catalogs.languages
    with i18n.speaking(catalogs, "eo"):
        assert i18n.gettext("Save") == "Konservi"
        assert i18n.gettext("Bring a plate") == "Alportu"
    with i18n.speaking(catalogs, "de"):
        assert i18n.gettext("Bring a plate") == "Bring einen Teller"
        assert i18n.gettext("Sign up") == "Eintragen"  # the kernel's, previewed
        assert i18n.gettext("Save") == "Speichern"  # the installed kernel's
    assert "eo" not in i18n.Catalogs.of([plugin]).languages


async def test_the_app_serves_a_previewed_language(
        make_app: Callable[..., Any], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled(tmp_path, "groupkit", "eo", {"Find a tool": "Trovu ilon"})
    monkeypatch.setenv(i18n.LOCALE_PATH, str(tmp_path))
    client = make_app(tools=["plate"]).test_client()
    page = await (await client.get("/", headers={"Accept-Language": "eo"})).get_data(
        as_text=True)
    assert "Trovu ilon" in page and 'lang="eo"' in page
