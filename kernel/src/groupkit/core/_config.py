"""TOML configuration plus environment overrides, read once into a frozen Settings object."""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from collections.abc import Mapping
from email.utils import parseaddr
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from urllib.parse import urlsplit

import tomli

from groupkit.core._storage import DatabaseUrlError
from groupkit.core._storage import postgres_parameters
from groupkit.core._storage import sqlite_path

DEFAULT_CONFIG_PATH = Path("config/groupkit.toml")
MODES = ("development", "production")
DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


class ConfigError(ValueError):
    """A config file that cannot be trusted to mean what its author wanted."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """The operator's settings (`config/groupkit.toml`, read by `load_settings`), one field
    per key, for `create_app`; tests vary them per app with `make_app(**changes)`."""

    mode: str = "development"
    database_url: str = "sqlite:///var/groupkit.db"
    database_threads: int = 8
    enabled_tools: tuple[str, ...] = ("*",)
    create_per_hour: int = 20
    post_per_hour: int = 240
    trusted_proxies: tuple[str, ...] = ()
    max_body_bytes: int = 256 * 1024
    base_url: str = ""
    prune_every_minutes: int = 60
    #: Hosts chat webhooks may post to (`*.example.com`: its subdomains); see
    #: `groupkit.blocks._webhooks`.
    webhook_hosts: tuple[str, ...] = (
        "hooks.slack.com", "*.webhook.office.com", "*.logic.azure.com", "discord.com",
        "discordapp.com")
    #: Tests only: let webhooks reach loopback addresses over plain http.
    webhook_allow_loopback: bool = False
    webhook_every_seconds: int = 15
    metrics_enabled: bool = False
    metrics_allow: tuple[str, ...] = ("127.0.0.1", "::1")
    streams_per_client: int = 100
    #: The SMTP server email goes out through (`smtp://` or `smtps://`, optionally with
    #: `user:password@`); empty: the service sends no email. A secret: never shown.
    email_url: str = dataclasses.field(default="", repr=False)
    email_from: str = ""
    #: Emails per clock hour: per instance, per client address that asks, for the service.
    email_instance_per_hour: int = 60
    email_client_per_hour: int = 120
    email_per_hour: int = 1000

    @property
    def production(self) -> bool:
        return self.mode == "production"

    @property
    def email(self) -> bool:
        """Whether the service sends email (the operator set an SMTP server)."""
        return bool(self.email_url)

    def tool_enabled(self, name: str) -> bool:
        return "*" in self.enabled_tools or name in self.enabled_tools

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)


class _Problems(list[tuple[str, str]]):
    """(dotted key, message) pairs, in file order as far as the checks go."""

    def expect(self, value: Any, kind: type, key: str) -> bool:
        if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
            wanted = {int: "a whole number", str: "a string", list: "a list",
                      dict: "a table", bool: "true or false"}.get(kind, kind.__name__)
            self.append((key, f"{key} must be {wanted}"))
            return False
        return True


_SECTIONS: dict[str, dict[str, tuple[str, type]]] = {
    "database": {"url": ("database_url", str), "threads": ("database_threads", int)},
    "limits": {
        "create_per_hour": ("create_per_hour", int),
        "post_per_hour": ("post_per_hour", int),
        "max_body_bytes": ("max_body_bytes", int),
        "streams_per_client": ("streams_per_client", int),
    },
    "proxy": {"trusted": ("trusted_proxies", list)},
    "tools": {"enabled": ("enabled_tools", list)},
    "retention": {"every_minutes": ("prune_every_minutes", int)},
    "webhooks": {"hosts": ("webhook_hosts", list),
                 "allow_loopback": ("webhook_allow_loopback", bool),
                 "every_seconds": ("webhook_every_seconds", int)},
    "metrics": {"enabled": ("metrics_enabled", bool), "allow": ("metrics_allow", list)},
    "email": {"url": ("email_url", str), "from": ("email_from", str),
              "per_instance_per_hour": ("email_instance_per_hour", int),
              "per_client_per_hour": ("email_client_per_hour", int),
              "per_hour": ("email_per_hour", int)},
    "server": {},
}
_AT_LEAST_ONE = ("create_per_hour", "post_per_hour", "max_body_bytes", "database_threads",
                 "streams_per_client", "webhook_every_seconds", "email_instance_per_hour",
                 "email_client_per_hour", "email_per_hour")
_TOP = {"mode", "base_url", *_SECTIONS}


def check_mapping(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Every problem of a parsed config (never just the first), and the settings values."""
    problems = _Problems()
    values: dict[str, Any] = {}
    for key in data:
        if key not in _TOP:
            problems.append((key, f"unknown key {key}"))
    if "mode" in data and problems.expect(data["mode"], str, "mode"):
        if data["mode"] not in MODES:
            problems.append(("mode", 'mode must be "development" or "production"'))
        else:
            values["mode"] = data["mode"]
    if "base_url" in data and problems.expect(data["base_url"], str, "base_url"):
        values["base_url"] = data["base_url"].rstrip("/")
    for section, keys in _SECTIONS.items():
        table = data.get(section, {})
        if not problems.expect(table, dict, section):
            continue
        for key, value in table.items():
            dotted = f"{section}.{key}"
            if key not in keys:
                problems.append((dotted, f"unknown key {dotted}"))
                continue
            field, kind = keys[key]
            if not problems.expect(value, kind, dotted):
                continue
            if kind is list:
                if not all(isinstance(item, str) for item in value):
                    problems.append((dotted, f"{dotted} must be a list of strings"))
                    continue
                value = tuple(value)
            if field in _AT_LEAST_ONE and value < 1:
                problems.append((dotted, f"{dotted} must be at least 1"))
                continue
            if field == "prune_every_minutes" and value < 0:
                problems.append((dotted, f"{dotted} must be 0 (never) or more"))
                continue
            if field == "database_url" and not value.startswith(DATABASE_SCHEMES):
                problems.append((dotted, f"{dotted} must start with sqlite:/// or "
                                         "postgresql://"))
                continue
            values[field] = value
    return values, list(problems)


def settings_from_mapping(data: Mapping[str, Any]) -> Settings:
    """Build Settings from parsed TOML; unknown keys are errors, not silently ignored."""
    values, problems = check_mapping(data)
    if problems:
        raise ConfigError(problems[0][1])
    return Settings(**values)


def apply_environment(settings: Settings, env: Mapping[str, str]
                      ) -> tuple[Settings, list[tuple[str, str]]]:
    """$GROUPKIT_DATABASE_URL, $GROUPKIT_MODE and $GROUPKIT_EMAIL_URL (it may hold the SMTP
    password, which is better kept out of the file) over the file's values: the one place
    both `serve` and `check` take them from."""
    problems: list[tuple[str, str]] = []
    if env.get("GROUPKIT_EMAIL_URL"):
        settings = settings.replace(email_url=env["GROUPKIT_EMAIL_URL"])
    if env.get("GROUPKIT_DATABASE_URL"):
        url = env["GROUPKIT_DATABASE_URL"]
        if url.startswith(DATABASE_SCHEMES):
            settings = settings.replace(database_url=url)
        else:
            problems.append(("$GROUPKIT_DATABASE_URL", "GROUPKIT_DATABASE_URL must start with "
                                                       "sqlite:/// or postgresql://"))
    if env.get("GROUPKIT_MODE"):
        if env["GROUPKIT_MODE"] not in MODES:
            problems.append(("$GROUPKIT_MODE", "GROUPKIT_MODE must be development or production"))
        else:
            settings = settings.replace(mode=env["GROUPKIT_MODE"])
    return settings, problems


def _network_problems(key: str, entries: tuple[str, ...]) -> list[tuple[str, str]]:
    problems = []
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            problems.append((key, f"{key}: {entry!r} is not an IP address or network "
                                  "(such as 127.0.0.1, ::1 or 10.0.0.0/24)"))
    return problems


def _base_url_problems(base_url: str) -> list[tuple[str, str]]:
    if not base_url:
        return []
    message = ("base_url must be an origin such as https://groups.example.org (http or https, "
               "a host, no path)")
    parts = urlsplit(base_url)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return [("base_url", message)]
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.path
            or parts.query or parts.fragment):
        return [("base_url", message)]
    return []


def smtp_server(url: str) -> tuple[str, int, str, str, bool]:
    """(host, port, user, password, implicit TLS) of an `[email] url`, or ValueError with
    the reason. smtps:// is TLS from the first byte (port 465); smtp:// (port 587) goes
    over to TLS with STARTTLS when the server offers it."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("must start with smtp:// or smtps://")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("has a port that is not a number") from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("must be smtp://host:port or smtps://user:password@host:port")
    return (parts.hostname, port or (465 if parts.scheme == "smtps" else 587),
            unquote(parts.username or ""), unquote(parts.password or ""),
            parts.scheme == "smtps")


def _email_problems(settings: Settings, skip: set[str] | frozenset[str]
                    ) -> list[tuple[str, str]]:
    """An SMTP URL that is not one (never echoed: it may hold a password), a missing or
    malformed `from`, and no `base_url` (every link in a message starts with it)."""
    if not settings.email_url or "email.url" in skip:
        return []
    problems: list[tuple[str, str]] = []
    try:
        smtp_server(settings.email_url)
    except ValueError as reason:
        problems.append(("email.url", f"email.url {reason}"))
    if "email.from" not in skip:
        address = parseaddr(settings.email_from)[1]
        if not settings.email_from or "@" not in address or " " in address:
            problems.append(("email.from", 'email.from must be the sender\'s address, such '
                                           'as "Groups <groups@example.org>"'))
    if not settings.base_url and "base_url" not in skip:
        problems.append(("email.url", "email needs base_url: every link in a message starts "
                                      "with it (set base_url = \"https://your.server\")"))
    return problems


def _sqlite_problems(key: str, url: str, refuse_missing: bool) -> list[tuple[str, str]]:
    path = Path(sqlite_path(url))
    folder = path.parent.absolute()
    if not folder.is_dir():
        if refuse_missing:
            return [(key, f"{key}: the directory {folder} does not exist (create it, or run "
                          "`groupkit migrate --create`)")]
        existing = next(parent for parent in folder.parents if parent.is_dir())
        if not os.access(existing, os.W_OK | os.X_OK):
            return [(key, f"{key}: cannot create {folder}: {existing} is not writable by "
                          "this user")]
        return []
    if not os.access(folder, os.W_OK | os.X_OK):
        return [(key, f"{key}: the directory {folder} is not writable by this user (SQLite "
                      "writes its journal beside the database)")]
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return [(key, f"{key}: {path.absolute()} is not readable and writable by this user")]
    return []


def check_values(settings: Settings, skip: set[str] | frozenset[str] = frozenset(),
                 database_key: str = "database.url", create_directory: bool = False
                 ) -> list[tuple[str, str]]:
    """What `serve` would die on beyond a value's type: addresses that are not addresses, a
    base_url that is not an origin, a database URL without a database, a SQLite file this
    user cannot write (or, in production and unless `create_directory`, whose directory is
    missing: a mistyped path must not quietly start an empty database)."""
    problems: list[tuple[str, str]] = []
    if "base_url" not in skip:
        problems += _base_url_problems(settings.base_url)
    if "proxy.trusted" not in skip:
        problems += _network_problems("proxy.trusted", settings.trusted_proxies)
    if "metrics.allow" not in skip:
        problems += _network_problems("metrics.allow", settings.metrics_allow)
    problems += _email_problems(settings, skip)
    if database_key not in skip:
        try:
            if settings.database_url.startswith("sqlite:"):
                problems += _sqlite_problems(database_key, settings.database_url,
                                             settings.production and not create_directory)
            else:
                postgres_parameters(settings.database_url)
        except DatabaseUrlError as exc:
            problems.append((database_key, f"{database_key}: {exc}"))
    return problems


def line_of(text: str, dotted: str) -> int:
    """The 1-based line where `dotted` (`key` or `section.key`) is set in TOML `text`;
    0 when it cannot be found."""
    section, _, key = dotted.rpartition(".")
    current = ""
    header_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line.strip("[]").strip()
            if current == dotted:
                header_line = number
            continue
        name = line.split("=", 1)[0].strip().strip('"') if "=" in line else ""
        if current == section and name == key:
            return number
    return header_line


def _read(config_path: Path) -> str:
    try:
        return config_path.read_text(encoding="utf-8")
    except PermissionError:
        raise ConfigError(f"{config_path}: cannot read the file: permission denied (the "
                          "service user needs read access, e.g. group groupkit, mode 0640)"
                          ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{config_path}: cannot read the file: {exc}") from None


def check_file(path: str | os.PathLike[str], environ: Mapping[str, str] | None = None
               ) -> list[str]:
    """`groupkit check`: every problem of a config file as `file:line: message`, then what
    the environment overrides would break, exactly as `load_settings` applies them."""
    env = os.environ if environ is None else environ
    config_path = Path(path)
    if not config_path.is_file():
        return [f"{config_path}: file not found"]
    try:
        text = _read(config_path)
        data = tomli.loads(text)
    except ConfigError as exc:
        return [str(exc)]
    except tomli.TOMLDecodeError as exc:
        return [f"{config_path}: {exc}"]
    values, problems = check_mapping(data)
    bad = {key for key, _ in problems}
    settings, env_problems = apply_environment(Settings(**values), env)
    bad |= {"database.url" for key, _ in env_problems if key == "$GROUPKIT_DATABASE_URL"}
    database_key = ("$GROUPKIT_DATABASE_URL" if env.get("GROUPKIT_DATABASE_URL")
                    else "database.url")
    problems += env_problems + check_values(settings, bad, database_key)
    return [f"{key}: {message}" if key.startswith("$") else
            f"{config_path}:{line_of(text, key)}: {message}" for key, message in problems]


def load_settings(path: str | os.PathLike[str] | None = None,
                  environ: Mapping[str, str] | None = None, *,
                  create_directory: bool = False) -> Settings:
    """Read `path`, else $GROUPKIT_CONFIG, else config/groupkit.toml when present, else defaults;
    then apply $GROUPKIT_DATABASE_URL and $GROUPKIT_MODE; refuse what `check_values` finds."""
    env = os.environ if environ is None else environ
    chosen = path or env.get("GROUPKIT_CONFIG")
    config_path: Path | None
    if chosen:
        config_path = Path(chosen)
        if not config_path.is_file():
            raise ConfigError(f"config file not found: {config_path}")
    else:
        config_path = DEFAULT_CONFIG_PATH if DEFAULT_CONFIG_PATH.is_file() else None
    data: dict[str, Any] = {}
    if config_path is not None:
        try:
            data = tomli.loads(_read(config_path))
        except tomli.TOMLDecodeError as exc:
            raise ConfigError(f"{config_path}: {exc}") from exc
    settings, problems = apply_environment(settings_from_mapping(data), env)
    database_key = ("$GROUPKIT_DATABASE_URL" if env.get("GROUPKIT_DATABASE_URL")
                    else "database.url")
    problems += check_values(settings, database_key=database_key,
                             create_directory=create_directory)
    if problems:
        more = f" ({len(problems) - 1} more: run `groupkit check`)" if len(problems) > 1 else ""
        raise ConfigError(problems[0][1] + more)
    return settings
