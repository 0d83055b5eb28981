"""The kernel ships `py.typed`, so mypy over a plugin checks its calls into the kernel API
(without the marker mypy skips `groupkit` entirely, and any misuse passes)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import groupkit

REPO = Path(__file__).resolve().parents[2]

CORRECT = '''
from pathlib import Path

import groupkit


def mint(instance: groupkit.Instance) -> str:
    return groupkit.issue_token(instance, "player", "7")


def declare() -> groupkit.Tool:
    return groupkit.Tool(name="karaoke", title="Karaoke", version="1",
                         create_schema=groupkit.Schema, create=lambda instance, data: None,
                         public_view=lambda instance: {}, organiser_view=lambda instance: {},
                         templates=Path("."), plugin_api=(1, 1))
'''

MISUSED = '''
import groupkit

groupkit.issue_token(1, 2, 3, 4, 5)
'''

# The decorators' options are typed keywords: a misspelt or mistyped one is reported where it
# is written, not as a TypeError when the plugin loads (or never, for an option that is only
# documentation).
OPTIONS = '''
import groupkit
import groupkit.signups

ops = groupkit.Operations()


@ops.public("claim", bodyy=groupkit.Schema)
def claim(call: groupkit.Call) -> dict[str, str]:
    return {}


@ops.organiser("remove", status="201", changes=False)
def remove(call: groupkit.Call) -> dict[str, str]:
    return {}


@ops.read("feed", method="POST")
def feed(call: groupkit.Call) -> dict[str, str]:
    return {}


@ops.participant("p/{token}/save", token_kinds=["player"], errors={409: 1})
def save(call: groupkit.Call) -> dict[str, str]:
    return {}


groupkit.signups.slot_group([{"name": "Mains"}], 7, "s")
'''

UNVERSIONED = '''
from pathlib import Path

import groupkit

groupkit.Tool(name="karaoke", title="Karaoke", version="1", create_schema=groupkit.Schema,
              create=lambda instance, data: None, public_view=lambda instance: {},
              organiser_view=lambda instance: {}, templates=Path("."))
'''

# `Tool.hook` and `Tool.from_module` take the fields as typed keywords: the same mistakes
# `Tool(...)` would show are reported where they are written.
HOOKED = '''
import types

import groupkit

api = types.ModuleType("api")
groupkit_tool = groupkit.Tool.hook(api, name="karaoke", title=3, create_schema=groupkit.Schema,
                                   plugin_api=(1, 1), limitz={})
groupkit.Tool.from_module(api, name="karaoke", title="Karaoke", create_schema=groupkit.Schema,
                          plugin_api=1)
'''


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """mypy's errors per snippet, as a plugin author would run it: an empty configuration,
    the installed `groupkit` found through site-packages."""
    folder = tmp_path_factory.mktemp("typing")
    snippets = {"correct": CORRECT, "misused": MISUSED, "options": OPTIONS,
                "unversioned": UNVERSIONED, "hooked": HOOKED}
    for name, source in snippets.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    (folder / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", ".cache",
         "--no-error-summary", "--hide-error-context", *(f"{name}.py" for name in snippets)],
        cwd=folder, capture_output=True, text=True, timeout=300)
    errors: dict[str, list[str]] = {name: [] for name in snippets}
    for line in result.stdout.splitlines():
        match = re.match(r"(\w+)\.py:\d+: error: (.*)", line)
        if match:
            errors[match.group(1)].append(match.group(2))
    assert result.returncode == (1 if any(errors.values()) else 0), result.stdout
    return errors


def test_the_kernel_package_is_marked_typed() -> None:
    assert (Path(groupkit.__file__).parent / "py.typed").is_file()


@pytest.mark.parametrize("package", sorted(
    [*REPO.glob("plugins/*/src/groupkit_*"), *REPO.glob("contrib/*/src/groupkit_*")]),
    ids=lambda path: path.name)
def test_every_plugin_package_is_marked_typed(package: Path) -> None:
    assert (package / "py.typed").is_file()


def test_correct_use_of_the_kernel_api_passes(mypy_report: dict[str, list[str]]) -> None:
    assert mypy_report["correct"] == []


def test_a_misused_kernel_helper_is_reported(mypy_report: dict[str, list[str]]) -> None:
    assert 'Too many positional arguments for "issue_token"  [call-arg]' in \
        mypy_report["misused"]
    assert 'Argument 1 to "issue_token" has incompatible type "int"; expected "Instance"  ' \
        "[arg-type]" in mypy_report["misused"]


def test_a_misused_operation_option_is_reported(mypy_report: dict[str, list[str]]) -> None:
    assert mypy_report["options"] == [
        'Unexpected keyword argument "bodyy" for "public" of "Operations"; '
        'did you mean "body"?  [call-arg]',
        'Argument "status" to "organiser" of "Operations" has incompatible type "str"; '
        'expected "int"  [arg-type]',
        'Unexpected keyword argument "method" for "read" of "Operations"  [call-arg]',
        'Dict entry 0 has incompatible type "int": "int"; expected "int": "str"  '
        "[dict-item]",
        'Argument 2 to "slot_group" has incompatible type "int"; expected "str"  [arg-type]',
    ]


def test_a_declaration_without_plugin_api_is_reported(
        mypy_report: dict[str, list[str]]) -> None:
    assert mypy_report["unversioned"] == ['Missing named argument "plugin_api" for "Tool"  '
                                          "[call-arg]"]


def test_a_misdeclared_hook_is_reported(mypy_report: dict[str, list[str]]) -> None:
    assert mypy_report["hooked"] == [
        'Unexpected keyword argument "limitz" for "hook" of "Tool"; did you mean "limits"?  '
        "[call-arg]",
        'Argument "title" to "hook" of "Tool" has incompatible type "int"; expected "str"  '
        "[arg-type]",
        'Argument "plugin_api" to "from_module" of "Tool" has incompatible type "int"; '
        'expected "tuple[int, int]"  [arg-type]',
    ]
