"""Languages: which one a reader gets, and where its words come from.

Words come from standard gettext catalogs, compiled by Babel (`nox -s i18n`): the kernel's
own domain, `groupkit`, covers the shared pages, forms, boards, emails and chat posts, and
each plugin ships its own domain (its import name, `groupkit_<tool>`) in its package's
`locale/<language>/LC_MESSAGES/` folder, so a third-party plugin translates itself. The
catalogs of one language are merged into one `Translations` (the kernel's first, each
plugin's over it), kept for the life of the process.

Who reads which language: a page follows its reader (their choice in the language cookie,
else their browser's `Accept-Language`, else English); what a group receives together
(chat posts, emails, feed text) speaks the instance's language. Either way the language
is set for a unit of work with `speaking()` and read by `gettext()` and the format
helpers, so code far from the request (a template filter, a delivery loop) needs no
argument threaded through. The API's JSON error bodies never pass through here: they are
the specification's English, byte for byte, whatever the request asks for.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import decimal
import functools
import os
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from pathlib import Path

import babel
import babel.dates
import babel.numbers
from babel.support import NullTranslations
from babel.support import Translations

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LOCALE_PATH",
    "N_",
    "Catalogs",
    "Message",
    "direction",
    "for_group",
    "format_date",
    "format_datetime",
    "format_decimal",
    "format_money",
    "gettext",
    "language",
    "language_name",
    "message",
    "ngettext",
    "pgettext",
    "pick",
    "preview_folders",
    "speaking",
    "translated",
    "use",
    "zone_city",
]

#: The language nothing needs translating into: the source strings are English.
DEFAULT = "en"
#: Where a reader's own choice of language is kept (no account needed).
COOKIE = "groupkit-lang"
#: The kernel's gettext domain, and where its catalogs live.
DOMAIN = "groupkit"
KERNEL_LOCALE = Path(__file__).resolve().parent.parent / "locale"
#: The environment variable naming more catalog folders (`os.pathsep`-separated), each
#: holding `<language>/LC_MESSAGES/<domain>.mo` for any domain: a translator previews a
#: catalog without rebuilding a package, and a check renders pages in a made-up language.
LOCALE_PATH = "GROUPKIT_LOCALE_PATH"

_NOTHING = NullTranslations()
_language: contextvars.ContextVar[str] = contextvars.ContextVar("groupkit_language",
                                                                  default=DEFAULT)
_words: contextvars.ContextVar[NullTranslations] = contextvars.ContextVar(
    "groupkit_words", default=_NOTHING)


class Catalogs:
    """The compiled catalogs of the kernel and of every installed plugin.

    `sources` are (domain, folder) pairs, the folder holding `<language>/LC_MESSAGES/
    <domain>.mo`; of one domain's catalogs, a later source's words win over an earlier's.
    A language is offered when the kernel's own domain has a catalog for it (a page half
    in one language and half in another helps nobody), English always.
    """

    def __init__(self, sources: Iterable[tuple[str, Path]],
                 scripts: Iterable[Path] = ()) -> None:
        self.sources = [(domain, Path(folder)) for domain, folder in sources]
        self.scripts = [Path(folder) for folder in scripts]
        self._script_words: dict[str, dict[str, str]] = {}
        kernel = [folder for domain, folder in self.sources if domain == DOMAIN]
        found = {path.parent.parent.name for folder in kernel
                 for path in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")}
        self.languages: tuple[str, ...] = (DEFAULT, *sorted(found - {DEFAULT}))
        self._merged: dict[str, NullTranslations] = {}

    def translations(self, language: str) -> NullTranslations:
        """Every domain's words for `language`, merged (a missing domain adds nothing).
        The kernel's catalog is the base, so its plural rule is the language's (Spanish
        has three forms; an empty catalog's rule knows two), and its words win over a
        plugin's for the same English (the shared board's "Open" is a free spot on every
        page, whatever a plugin's "Open" means on its own)."""
        merged = self._merged.get(language)
        if merged is None:
            kernel: list[Translations] = []
            plugins: list[Translations] = []
            if language != DEFAULT and language in self.languages:
                for domain, folder in self.sources:
                    loaded = Translations.load(str(folder), [language], domain)
                    if isinstance(loaded, Translations):
                        (kernel if domain == DOMAIN else plugins).append(loaded)
            merged = _NOTHING
            found = [*kernel, *plugins]
            if found:
                base = found[0]
                for more in kernel[1:]:
                    base.merge(more)
                own = dict(base._catalog) if kernel else {}
                for more in plugins[int(not kernel):]:
                    base.merge(more)
                base._catalog.update(own)
                merged = base
            self._merged[language] = merged
        return merged

    def script_words(self, language: str) -> dict[str, str]:
        """The words page scripts say (`words("...")` in any `.js` of `scripts`), in
        `language`: what a page hands its scripts, so they speak its language too."""
        said = self._script_words.get(language)
        if said is None:
            words = self.translations(language)
            said = {text: words.gettext(text) for text in _script_messages(self.scripts)}
            said = {text: word for text, word in said.items() if word != text}
            self._script_words[language] = said
        return said

    def pick(self, chosen: str | None, accept_language: str | None) -> str:
        """The reader's language: their choice when it is offered, else the best match for
        their browser's, else English."""
        if len(self.languages) == 1:
            return DEFAULT
        return pick(chosen, accept_language, self.languages)

    @classmethod
    def of(cls, packages: Iterable[Path], scripts: Iterable[Path] = (),
           previews: Iterable[Path] = ()) -> Catalogs:
        """The kernel's catalogs and those of the plugin packages given (each package's
        `locale` folder, its domain the package's import name); `scripts` are the folders
        of page scripts whose words pages hand over. The `previews` folders (see
        `preview_folders`) add catalogs of any of those domains, their words winning over
        the installed ones, and a language they hold for the kernel's domain is offered."""
        more = [Path(folder) for folder in previews]
        domains = [(DOMAIN, KERNEL_LOCALE),
                   *((package.name, package / "locale") for package in packages)]
        return cls([source for domain, folder in domains
                    for source in [(domain, folder), *((domain, extra) for extra in more)]],
                   scripts)


def preview_folders(value: str | None = None) -> list[Path]:
    """The folders $GROUPKIT_LOCALE_PATH names (`value`, when given), in its order."""
    value = os.environ.get(LOCALE_PATH, "") if value is None else value
    return [Path(part) for part in value.split(os.pathsep) if part.strip()]


def _script_messages(folders: Iterable[Path]) -> set[str]:
    """Every message a page script passes to `words(...)`, found with Babel's own
    JavaScript extractor (the one `nox -s i18n` uses)."""
    from babel.messages.extract import extract_from_file

    found: set[str] = set()
    for folder in folders:
        for path in sorted(folder.rglob("*.js")):
            for _, text, _, _ in extract_from_file("javascript", str(path),
                                                   keywords={"words": None}):
                if isinstance(text, str):
                    found.add(text)
    return found


def _preferred(accept_language: str) -> list[str]:
    """An `Accept-Language` header's languages, most wanted first (q=0 left out)."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        tag = tag.strip()
        if tag and tag != "*" and quality > 0:
            weighted.append((-quality, position, tag.replace("_", "-")))
    return [tag for _, _, tag in sorted(weighted)]


def pick(chosen: str | None, accept_language: str | None, offered: Iterable[str]) -> str:
    """The language to speak to a reader: their choice (the cookie) when offered, else
    the best of their browser's preferences (`de-AT` is served `de`), else English."""
    languages = list(offered)
    if chosen in languages:
        return chosen
    if accept_language:
        best = babel.Locale.negotiate(_preferred(accept_language), languages, sep="-")
        if best is not None:
            return str(best)
    return DEFAULT


@contextlib.contextmanager
def speaking(catalogs: Catalogs | None, language: str) -> Iterator[None]:
    """Speak `language` for the duration (a request, an email, a chat post)."""
    words = catalogs.translations(language) if catalogs is not None else _NOTHING
    spoken, worded = _language.set(language), _words.set(words)
    try:
        yield
    finally:
        _words.reset(worded)
        _language.reset(spoken)


def use(catalogs: Catalogs | None, language: str) -> None:
    """Speak `language` until the current task ends (a request: its context goes with it)."""
    _language.set(language)
    _words.set(catalogs.translations(language) if catalogs is not None else _NOTHING)


def app_catalogs() -> Catalogs | None:
    """The running app's catalogs (None outside an app: a test's bare call speaks English)."""
    from quart import current_app
    from quart import has_app_context

    if not has_app_context():
        return None
    found: Catalogs | None = current_app.config.get("GROUPKIT_CATALOGS")
    return found


@contextlib.contextmanager
def for_group(instance: object, catalogs: Catalogs | None = None) -> Iterator[None]:
    """Speak the language of what `instance`'s group receives together (a chat post, an
    email, calendar text), whoever's request or which background loop makes it: the
    organiser's choice (`Instance.language`), English when none or no longer offered."""
    catalogs = catalogs if catalogs is not None else app_catalogs()
    chosen = str(getattr(instance, "language", "") or DEFAULT)
    offered = catalogs.languages if catalogs is not None else (DEFAULT,)
    with speaking(catalogs, chosen if chosen in offered else DEFAULT):
        yield


def language() -> str:
    """The language being spoken."""
    return _language.get()


def gettext(message: str) -> str:
    """`message` in the language being spoken: the same call serves a page, a chat post
    and an email, each in the language it is for."""
    return _words.get().gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form for `count`: languages have one, two or more plural forms, so the choice
    is the catalog's, never an `if count == 1`."""
    return _words.get().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` as said in `context`: the same English word may need two translations
    (a board's free spot is "Open"; so is a window, in a question's answer)."""
    return str(_words.get().pgettext(context, message))


def N_(text: str) -> str:
    """Marks a string kept in a constant for the catalogs (`nox -s i18n` extracts it); it
    is translated where it is shown, with `gettext` or `translated`."""
    return text


class Message(str):
    """An English message that remembers its template and values, so a page can say it in
    its reader's language while the API sends the English, byte for byte (the text is
    exactly `template.format(**values)`). Made with `message`."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, values: Mapping[str, object]) -> Message:
        made = super().__new__(cls, template.format(**values))
        made.template, made.values = template, dict(values)
        return made


def message(template: str, /, **values: object) -> str:
    """`template.format(**values)`, translatable on a page: use it instead of `.format`
    for a refusal whose words depend on the request (`message(TOO_MANY, n=3)`). Values are
    never translated: they are what people typed, or numbers."""
    return Message(template, values)


def translated(text: str) -> str:
    """A message in the language being spoken: a `Message` from its template's
    translation (English when a translation lost a placeholder), values that are messages
    themselves translated too, else the catalogs' words for `text`, else `text`."""
    if isinstance(text, Message):
        values = {name: translated(value) if isinstance(value, Message) else value
                  for name, value in text.values.items()}
        try:
            return gettext(text.template).format(**values)
        except (KeyError, IndexError, ValueError):
            return str.__str__(text)
    return gettext(text)


@functools.cache
def _locale(code: str) -> babel.Locale:
    return babel.Locale.parse(code, sep="-")


def direction(code: str | None = None) -> str:
    """"ltr" or "rtl", for a page's `dir`."""
    return str(_locale(code or language()).text_direction)


def language_name(code: str) -> str:
    """A language's name in itself ("Deutsch"), for the language switcher."""
    name = _locale(code).get_display_name(_locale(code)) or code
    return name[:1].upper() + name[1:]


def zone_city(zone: str) -> str:
    """A time zone as a reader knows it, their language's name of its city ("Sídney"):
    where an hour is read, on a page that asks for one."""
    try:
        return str(babel.dates.get_timezone_location(zone, locale=_locale(language()),
                                                     return_city=True))
    except (LookupError, ValueError):
        return zone


def format_date(value: dt.date, format: str = "medium") -> str:
    """A date the reader's way ("Dec 24, 2026", "24.12.2026"): never `strftime`, whose
    names and order are one locale's."""
    return str(babel.dates.format_date(value, format, locale=_locale(language())))


def format_datetime(value: dt.datetime, format: str = "medium") -> str:
    """A date and time the reader's way (a 24-hour clock where that is the custom)."""
    return str(babel.dates.format_datetime(value, format, locale=_locale(language())))


def format_decimal(value: int | float | decimal.Decimal, format: str | None = None) -> str:
    """A number the reader's way: "1,234.5" in English is "1.234,5" in German; `format` a
    Babel pattern ("0.0": always one decimal)."""
    return str(babel.numbers.format_decimal(value, format, locale=_locale(language())))


def format_money(amount: int | float | decimal.Decimal, currency: str) -> str:
    """An amount in its currency, the reader's way ("12,50 €" in German, "€12.50" in
    English)."""
    return str(babel.numbers.format_currency(amount, currency, locale=_locale(language())))
