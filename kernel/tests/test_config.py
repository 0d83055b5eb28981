from __future__ import annotations

from pathlib import Path

import pytest

from groupkit.core._config import ConfigError
from groupkit.core._config import Settings
from groupkit.core._config import load_settings

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "groupkit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_are_development_sqlite_all_tools() -> None:
    settings = Settings()
    assert settings.mode == "development"
    assert settings.database_url.startswith("sqlite:///")
    assert settings.tool_enabled("anything")
    assert (settings.create_per_hour, settings.post_per_hour) == (20, 240)


def test_the_shipped_config_loads_with_the_documented_keys() -> None:
    settings = load_settings(REPO / "config" / "groupkit.toml", environ={})
    assert settings == Settings()


def test_reads_every_section(tmp_path: Path) -> None:
    path = write(tmp_path, """
mode = "production"
base_url = "https://example.org/"
[database]
url = "postgresql://u:p@127.0.0.1/db"
threads = 3
[tools]
enabled = ["sweeps", "plate"]
[limits]
create_per_hour = 5
post_per_hour = 50
max_body_bytes = 1000
[proxy]
trusted = ["127.0.0.1/32"]
""")
    settings = load_settings(path, environ={})
    assert settings.production and settings.base_url == "https://example.org"
    assert settings.enabled_tools == ("sweeps", "plate")
    assert not settings.tool_enabled("poll")
    assert (settings.create_per_hour, settings.post_per_hour, settings.max_body_bytes) == (
        5, 50, 1000)
    assert settings.trusted_proxies == ("127.0.0.1/32",)
    assert settings.database_threads == 3


def test_environment_overrides(tmp_path: Path) -> None:
    path = write(tmp_path, 'mode = "development"\n')
    settings = load_settings(path, environ={"GROUPKIT_DATABASE_URL": "sqlite:///x.db",
                                            "GROUPKIT_MODE": "production"})
    assert settings.database_url == "sqlite:///x.db" and settings.production
    via_env = load_settings(environ={"GROUPKIT_CONFIG": str(path)})
    assert via_env.mode == "development"


@pytest.mark.parametrize(("text", "problem"), [
    ('mood = "x"', "unknown key"),
    ('mode = "staging"', "mode must be"),
    ("[limits]\ncreate_per_hour = \"20\"", "limits.create_per_hour"),
    ("[limits]\npost_per_hour = 0", "at least 1"),
    ("[tools]\nenabled = \"*\"", "tools.enabled"),
    ("[database]\nuri = \"x\"", "database.uri"),
    ("mode = ", "groupkit.toml"),
])
def test_bad_config_is_refused_with_a_reason(tmp_path: Path, text: str, problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        load_settings(write(tmp_path, text), environ={})


def test_missing_named_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.toml", environ={})


def test_docs_operating_lists_every_key_of_the_shipped_config_with_its_default() -> None:
    """docs/operating.md is the configuration reference: every key of config/groupkit.toml,
    with the value the shipped file (and Settings) use as default."""
    import json
    from pathlib import Path

    import tomli

    repo = Path(__file__).resolve().parents[2]
    docs = (repo / "docs" / "operating.md").read_text(encoding="utf-8")
    shipped = tomli.loads((repo / "config" / "groupkit.toml").read_text(encoding="utf-8"))

    def rows(table: dict[str, object], prefix: str = "") -> list[tuple[str, object]]:
        found: list[tuple[str, object]] = []
        for key, value in table.items():
            if isinstance(value, dict):
                found += rows(value, f"{prefix}{key}.")
            else:
                found.append((f"{prefix}{key}", value))
        return found

    for key, value in rows(shipped):
        assert f"| `{key}` | `{json.dumps(value)}` |" in docs, key


def test_the_webhooks_table_is_read_and_checked() -> None:
    from groupkit.core._config import settings_from_mapping

    settings = settings_from_mapping({"webhooks": {
        "hosts": ["chat.example.org"], "allow_loopback": True, "every_seconds": 5}})
    assert settings.webhook_hosts == ("chat.example.org",)
    assert settings.webhook_allow_loopback and settings.webhook_every_seconds == 5
    assert not settings_from_mapping({}).webhook_allow_loopback
    for table, message in (({"allow_loopback": "yes"}, "webhooks.allow_loopback must be true "
                                                       "or false"),
                           ({"hosts": "x"}, "webhooks.hosts must be a list"),
                           ({"every_seconds": 0}, "webhooks.every_seconds must be at least 1")):
        with pytest.raises(ConfigError, match=message):
            settings_from_mapping({"webhooks": table})
