from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from groupkit.cli import main


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
