"""TOML configuration plus environment overrides, read once into a frozen Settings object."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli

DEFAULT_CONFIG_PATH = Path("config/groupkit.toml")
MODES = ("development", "production")


class ConfigError(ValueError):
    """A config file that cannot be trusted to mean what its author wanted."""


@dataclasses.dataclass(frozen=True)
class Settings:
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
    #: Hosts chat webhooks may post to (`*.example.com`: its subdomains); see webhooks.py.
    webhook_hosts: tuple[str, ...] = (
        "hooks.slack.com", "*.webhook.office.com", "*.logic.azure.com", "discord.com",
        "discordapp.com")
    #: Tests only: let webhooks reach loopback addresses over plain http.
    webhook_allow_loopback: bool = False
    webhook_every_seconds: int = 15

    @property
    def production(self) -> bool:
        return self.mode == "production"

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
    },
    "proxy": {"trusted": ("trusted_proxies", list)},
    "tools": {"enabled": ("enabled_tools", list)},
    "retention": {"every_minutes": ("prune_every_minutes", int)},
    "webhooks": {"hosts": ("webhook_hosts", list),
                 "allow_loopback": ("webhook_allow_loopback", bool),
                 "every_seconds": ("webhook_every_seconds", int)},
    "server": {},
}
_AT_LEAST_ONE = ("create_per_hour", "post_per_hour", "max_body_bytes", "database_threads",
                 "webhook_every_seconds")
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
            if field == "database_url" and not value.startswith(
                    ("sqlite:///", "postgresql://", "postgres://")):
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


def check_file(path: str | os.PathLike[str]) -> list[str]:
    """`groupkit check`: every problem of a config file as `file:line: message`."""
    config_path = Path(path)
    if not config_path.is_file():
        return [f"{config_path}: file not found"]
    text = config_path.read_text(encoding="utf-8")
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        return [f"{config_path}: {exc}"]
    _, problems = check_mapping(data)
    return [f"{config_path}:{line_of(text, key)}: {message}" for key, message in problems]


def load_settings(path: str | os.PathLike[str] | None = None,
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Read `path`, else $GROUPKIT_CONFIG, else config/groupkit.toml when present, else defaults;
    then apply $GROUPKIT_DATABASE_URL."""
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
            data = tomli.loads(config_path.read_text(encoding="utf-8"))
        except tomli.TOMLDecodeError as exc:
            raise ConfigError(f"{config_path}: {exc}") from exc
    settings = settings_from_mapping(data)
    if env.get("GROUPKIT_DATABASE_URL"):
        settings = settings.replace(database_url=env["GROUPKIT_DATABASE_URL"])
    if env.get("GROUPKIT_MODE"):
        if env["GROUPKIT_MODE"] not in MODES:
            raise ConfigError("GROUPKIT_MODE must be development or production")
        settings = settings.replace(mode=env["GROUPKIT_MODE"])
    return settings
