"""A third party's path, end to end: `groupkit new-plugin` copies contrib/plugin-template
under a new name, the generated package's own tests pass against the kernel's public test
helpers, and once installed its entry point makes the kernel serve it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from groupkit.ops._cli import main
from groupkit_testing import external_missing


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("third-party")
    assert main(["new-plugin", "karaoke", "--title", "Karaoke Queue", "--dest", str(dest)]) == 0
    return dest / "groupkit-karaoke"


def test_the_template_is_renamed_throughout(generated: Path) -> None:
    files = [path for path in generated.rglob("*") if path.is_file()]
    assert generated / "src/groupkit_karaoke/templates/karaoke/public.html" in files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "mytool" not in text and "MyTool" not in text and "My Tool" not in text, path
    pyproject = (generated / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "groupkit-karaoke"' in pyproject
    assert 'karaoke = "groupkit_karaoke"' in pyproject


def test_the_generated_plugins_own_tests_pass(generated: Path) -> None:
    """Its own tests register it by hand; its kit suites (tests/test_kit.py) need it
    installed, and run in tests/test_wheels.py, where it is."""
    kit = (generated / "tests/test_kit.py").read_text(encoding="utf-8")
    assert "class TestKaraokeQueueSuites(ToolSuites)" in kit
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--ignore", "tests/test_kit.py"],
                            cwd=generated, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 passed" in result.stdout


def kit_suites() -> list[str]:
    """Every suite class the kit defines (`...Suite`, `...Suites`), by its public name."""
    import groupkit_testing._browser
    import groupkit_testing._suites

    return sorted(name for module in (groupkit_testing._suites, groupkit_testing._browser)
                  for name, value in vars(module).items()
                  if isinstance(value, type) and name.endswith(("Suite", "Suites"))
                  and value.__module__ == module.__name__)


def test_the_generated_plugin_and_every_kit_suite_pass_mypy_strict(generated: Path,
                                                                    tmp_path: Path) -> None:
    """As its author runs it, in the new package (its pyproject.toml is mypy's whole
    configuration), installed or not: its tests (test_kit.py subclasses the kit's suites),
    the source they import, and a subclass of each suite the kit offers, which must all be
    explicit exports of groupkit_testing."""
    import groupkit_testing

    suites = kit_suites()
    assert {"ToolSuites", "BrowserSuites"} <= set(suites)
    every = tmp_path / "test_every_suite.py"
    every.write_text("from __future__ import annotations\n\n" + "".join(
        f"from groupkit_testing import {name}\n" for name in suites) + "".join(
        f"\n\nclass TestKaraoke{name}({name}):\n    tools = (\"karaoke\",)\n"
        for name in suites), encoding="utf-8")
    # `tests` alone: the package is found through the generated configuration's mypy_path,
    # and checked as the tests import it.
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                             str(tmp_path / "cache"), "tests", str(every)],
                            cwd=generated, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues found in 4 source files" in result.stdout
    assert set(suites) <= set(groupkit_testing.__all__)


def test_once_installed_the_kernel_serves_it(generated: Path, tmp_path: Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        external_missing("uv")
    site = tmp_path / "site"
    subprocess.run([str(uv), "pip", "install", "--quiet", "--no-deps", "--python",
                    sys.executable, "--target", str(site), str(generated)],
                   check=True, timeout=300)
    config = tmp_path / "groupkit.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/g.db"\n'
                      '[tools]\nenabled = ["karaoke", "plate"]\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(site)}
    listed = subprocess.run([sys.executable, "-m", "groupkit", "--config", str(config),
                             "tools"], env=env, capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    rows = {line.split()[0]: line.split()[1:] for line in listed.stdout.splitlines()}
    assert rows["karaoke"] == ["0.1.0", "enabled"]
    assert rows["plate"][1] == "enabled"
