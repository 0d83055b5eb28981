"""Message catalogs (docs/how-to/translations.md): every package's catalogs are complete and
current. For each `locale/<language>/LC_MESSAGES/<domain>.po` of the kernel, the plugins and
the example plugin: every string its templates, Python and scripts mark (extracted now, with
Babel, as `nox -s i18n` does) is in it, translated, not fuzzy, keeping every placeholder
(`{name}`, `%(name)s`), and its compiled `.mo` says the same. Once the kernel ships a
language, every package ships it too."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = [ROOT / "kernel" / "src" / "groupkit",
            *sorted(ROOT.glob("plugins/*/src/groupkit_*")),
            *sorted(ROOT.glob("contrib/example-plugin/src/groupkit_*"))]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "N_": None, "words": None}
METHODS = [("**/templates/**.html", "jinja2"), ("**/templates/email/**.txt", "jinja2"),
           ("**/static/**.js", "javascript"), ("**/tool.toml", "groupkit_tool_toml"),
           ("**/questions.txt", "groupkit_qotd.bank.extract_questions"), ("**.py", "python")]
OPTIONS = {"**/templates/**.html": {
    "extensions": "jinja2.ext.i18n,groupkit.web._forms.AskFirst,"
                  "groupkit.web._forms.FormHelpers,groupkit.web._spot_rows.SpotRows",
    "silent": "false"},
    "**/templates/email/**.txt": {"extensions": "jinja2.ext.i18n", "silent": "false"}}
PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)s")


def domain(package: Path) -> str:
    return "groupkit" if package.name == "groupkit" else package.name


def catalogs() -> list[tuple[Path, str]]:
    return [(package, po.parent.parent.name) for package in PACKAGES
            for po in sorted((package / "locale").glob(f"*/LC_MESSAGES/{domain(package)}.po"))]


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


@functools.cache
def marked(package: Path) -> frozenset[str]:
    """Every message the package's sources mark, as `nox -s i18n` extracts them."""
    found = set()
    for _, _, message, _, _ in extract_from_dir(str(package), METHODS, OPTIONS, KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return frozenset(found)


def plain(text: object) -> object:
    """A plural entry's forms as a tuple: a compiled catalog reads them as a list."""
    return tuple(text) if isinstance(text, list) else text


def shipped() -> list[str]:
    kernel = PACKAGES[0] / "locale"
    return sorted(path.parent.parent.name for path in kernel.glob("*/LC_MESSAGES/groupkit.po"))


def test_every_package_ships_each_language_the_kernel_ships() -> None:
    missing = [f"{package.name}: {language}" for language in shipped() for package in PACKAGES
               if not (package / "locale" / language / "LC_MESSAGES" /
                       f"{domain(package)}.po").is_file()]
    assert missing == []


def said_in(catalog: Catalog) -> dict[object, object]:
    """Each message and its translation; a plural's forms as tuples (a compiled catalog
    reads them as lists)."""
    def plain(value: object) -> object:
        return tuple(value) if isinstance(value, (list, tuple)) else value
    return {plain(m.id): plain(m.string) for m in catalog if m.id}


def problems_of(package: Path, language: str) -> list[str]:
    folder = package / "locale" / language / "LC_MESSAGES"
    catalog = read(folder / f"{domain(package)}.po")
    entries = {message.id if isinstance(message.id, str) else message.id[0]: message
               for message in catalog if message.id}
    problems = [f"not in the catalog (run nox -s i18n): {key!r}"
                for key in sorted(marked(package) - set(entries))]
    for key, message in entries.items():
        said = [str(text) for text in (message.string if isinstance(message.string, tuple)
                                       else (message.string,))]
        ids = [str(text) for text in (message.id if isinstance(message.id, tuple)
                                      else (message.id,))]
        if message.fuzzy:
            problems.append(f"fuzzy: {key!r}")
        if not all(said):
            problems.append(f"untranslated: {key!r}")
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        if any(set(PLACEHOLDER.findall(text)) != wanted for text in said if text):
            problems.append(f"placeholders changed: {key!r}")
    with (folder / f"{domain(package)}.mo").open("rb") as handle:
        compiled = read_mo(handle)
    if said_in(compiled) != said_in(catalog):
        problems.append("the .mo is stale (run nox -s i18n)")
    return problems


def test_every_catalog_is_complete_current_and_compiled() -> None:
    found = {f"{package.name} {language}": problems_of(package, language)
             for package, language in catalogs()}
    assert {name: problems for name, problems in found.items() if problems} == {}
