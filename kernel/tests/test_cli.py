from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groupkit.ops._cli import main
from plugin_dist import OTHER_API
from plugin_dist import install_plugin
from plugin_dist import on_path


@pytest.fixture
def config(tmp_path: Path, database_url: str) -> str:
    path = tmp_path / "groupkit.toml"
    path.write_text(f'[database]\nurl = "{database_url}"\n', encoding="utf-8")
    return str(path)


def test_tools_lists_installed_tools_with_versions(config: str, capsys: Any) -> None:
    assert main(["--config", config, "tools"]) == 0
    lines = capsys.readouterr().out.splitlines()
    sweeps = next(line for line in lines if line.startswith("sweeps"))
    assert "enabled" in sweeps and "0.1.0" in sweeps


def test_openapi_prints_the_document(config: str, capsys: Any) -> None:
    assert main(["--config", config, "openapi"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["openapi"] == "3.1.0" and "/api/sweeps" in document["paths"]


def test_migrate_is_idempotent(config: str, capsys: Any) -> None:
    assert main(["migrate", "--config", config]) == 0
    assert "applied groupkit 0001_initial" in capsys.readouterr().out
    assert main(["migrate", "--config", config]) == 0
    assert capsys.readouterr().out.strip() == "nothing to migrate"


def test_a_bad_config_is_a_clear_exit(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('mode = "party"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="mode must be"):
        main(["--config", str(path), "tools"])


def test_prune_says_when_no_enabled_tool_keeps_data_on_a_schedule(
        tmp_path: Path, database_url: str, capsys: Any) -> None:
    path = tmp_path / "plate-only.toml"
    path.write_text(f'[database]\nurl = "{database_url}"\n[tools]\nenabled = ["plate"]\n',
                    encoding="utf-8")
    assert main(["prune", "--config", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["no enabled tool keeps data on a schedule"]


def test_check_reports_every_problem_with_its_line(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('mode = "staging"\n'
                    "colour = 3\n"
                    "[database]\n"
                    'url = "mysql://x"\n'
                    "threads = 0\n"
                    "[limits]\n"
                    "create_per_hour = true\n"
                    "[tools]\n"
                    'enabled = ["plate", 7]\n', encoding="utf-8")
    assert main(["check", "--config", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:2: unknown key colour",
        f'{path}:1: mode must be "development" or "production"',
        f"{path}:4: database.url must start with sqlite:/// or postgresql://",
        f"{path}:5: database.threads must be at least 1",
        f"{path}:7: limits.create_per_hour must be a whole number",
        f"{path}:9: tools.enabled must be a list of strings",
    ]


def test_check_names_enabled_tools_that_are_not_installed(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "tools.toml"
    path.write_text('[tools]\nenabled = ["plate", "karaoke"]\n', encoding="utf-8")
    assert main(["check", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}:2: tools.enabled names 'karaoke', which is not installed")


def test_check_passes_the_shipped_configs(capsys: Any) -> None:
    for shipped in ("config/groupkit.toml", "config/production.example.toml",
                    "contrib/deploy/groupkit.toml"):
        assert main(["check", "--offline", "--config", shipped]) == 0, capsys.readouterr().out
        assert capsys.readouterr().out == f"{shipped}: ok\n"


def test_backup_copies_a_live_sqlite_database(tmp_path: Path, capsys: Any) -> None:
    import sqlite3

    database = tmp_path / "live.db"
    path = tmp_path / "groupkit.toml"
    path.write_text(f'[database]\nurl = "sqlite:///{database}"\n', encoding="utf-8")
    assert main(["migrate", "--config", str(path)]) == 0
    copy = tmp_path / "copy.db"
    assert main(["backup", "--config", str(path), str(copy)]) == 0
    tables = {row[0] for row in sqlite3.connect(copy).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"instance", "credential"} <= tables
    assert main(["backup", "--config", str(path), str(copy)]) == 1  # never overwrites


def test_check_refuses_a_plugin_that_serve_would_refuse(tmp_path: Path, capsys: Any) -> None:
    """Serve refuses it too (tests/test_operations.py), with this very line."""
    path = tmp_path / "groupkit.toml"
    path.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/g.db"\n[tools]\n'
                    'enabled = ["plate", "future"]\n', encoding="utf-8")
    with on_path(install_plugin(tmp_path / "site", "future", OTHER_API)):
        assert main(["check", "--config", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:4: tool plugin 'future' is refused: tool 'future' 9.9 supports groupkit "
        "plugin API 2 to 3, but this groupkit provides plugin API 1: install a release of the "
        "plugin made for API 1 (or leave it out of tools.enabled)"]


def test_a_backup_it_cannot_write_is_one_clear_line(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "groupkit.toml"
    path.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/live.db"\n', encoding="utf-8")
    assert main(["migrate", "--config", str(path)]) == 0
    capsys.readouterr()
    assert main(["backup", "--config", str(path), str(tmp_path / "typo" / "copy.db")]) == 1
    assert capsys.readouterr().err == (
        f"groupkit: there is no folder {tmp_path / 'typo'}; create it first, or choose a file "
        "in a folder that exists\n")
    assert not (tmp_path / "typo").exists()
    unwritable = tmp_path / ("a" * 300)  # a name no file system takes, even from root
    assert main(["backup", "--config", str(path), str(unwritable)]) == 1
    assert capsys.readouterr().err == (
        f"groupkit: cannot write {unwritable}: unable to open database file\n")


@pytest.mark.parametrize("command", ["migrate", "prune"])
def test_a_database_that_does_not_answer_is_one_clear_line(
        tmp_path: Path, capsys: Any, command: str) -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path = tmp_path / "groupkit.toml"
    path.write_text(f'[database]\nurl = "postgresql://u:secret@127.0.0.1:{port}/g"\n',
                    encoding="utf-8")
    assert main([command, "--config", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "secret" not in err, err
    assert err.startswith("groupkit: cannot use the database: connection to server at "
                          f'"127.0.0.1", port {port} failed')


def test_a_new_plugin_where_no_folder_can_be_is_one_clear_line(tmp_path: Path,
                                                                capsys: Any) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    dest = tmp_path / "a-file"
    assert main(["new-plugin", "karaoke", "--dest", str(dest)]) == 1
    assert capsys.readouterr().err == f"groupkit: {dest / 'groupkit-karaoke'}: Not a directory\n"
