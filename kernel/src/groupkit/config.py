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

    @property
    def production(self) -> bool:
        return self.mode == "production"

    def tool_enabled(self, name: str) -> bool:
        return "*" in self.enabled_tools or name in self.enabled_tools

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)


def _expect(value: Any, kind: type | tuple[type, ...], key: str) -> Any:
    if isinstance(value, bool) and kind is int:
        raise ConfigError(f"{key} must be a whole number")
    if not isinstance(value, kind):
        raise ConfigError(f"{key} has the wrong type ({type(value).__name__})")
    return value


def _string_list(value: Any, key: str) -> tuple[str, ...]:
    _expect(value, list, key)
    for item in value:
        _expect(item, str, key)
    return tuple(value)


def settings_from_mapping(data: Mapping[str, Any]) -> Settings:
    """Build Settings from parsed TOML; unknown keys are errors, not silently ignored."""
    known_top = {"mode", "base_url", "database", "tools", "limits", "proxy", "server",
                 "retention"}
    unknown = set(data) - known_top
    if unknown:
        raise ConfigError(f"unknown key(s): {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    if "mode" in data:
        mode = _expect(data["mode"], str, "mode")
        if mode not in MODES:
            raise ConfigError('mode must be "development" or "production"')
        values["mode"] = mode
    if "base_url" in data:
        values["base_url"] = _expect(data["base_url"], str, "base_url").rstrip("/")
    sections: dict[str, dict[str, tuple[str, type]]] = {
        "database": {"url": ("database_url", str), "threads": ("database_threads", int)},
        "limits": {
            "create_per_hour": ("create_per_hour", int),
            "post_per_hour": ("post_per_hour", int),
            "max_body_bytes": ("max_body_bytes", int),
        },
        "proxy": {"trusted": ("trusted_proxies", list)},
        "tools": {"enabled": ("enabled_tools", list)},
        "retention": {"every_minutes": ("prune_every_minutes", int)},
        "server": {},
    }
    for section, keys in sections.items():
        table = data.get(section, {})
        _expect(table, dict, section)
        for key, value in table.items():
            if key not in keys:
                raise ConfigError(f"unknown key {section}.{key}")
            field, kind = keys[key]
            dotted = f"{section}.{key}"
            if kind is list:
                values[field] = _string_list(value, dotted)
            else:
                values[field] = _expect(value, kind, dotted)
    for key in ("create_per_hour", "post_per_hour", "max_body_bytes", "database_threads"):
        if key in values and values[key] < 1:
            raise ConfigError(f"{key} must be at least 1")
    return Settings(**values)


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
