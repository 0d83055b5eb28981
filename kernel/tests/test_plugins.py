"""Plugin discovery, validation and the enabled subset."""

from __future__ import annotations

import ast
import dataclasses
import importlib.metadata
import logging
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest

import demo_plugin
from groupkit import PLUGIN_API_VERSION
from groupkit import Tool
from groupkit import hookimpl
from groupkit.core._config import Settings
from groupkit.ops._plugins import kernel_range_problem
from groupkit.ops._plugins import load_tools
from groupkit.ops._plugins import tool_problems
from groupkit.ops._plugins import validate
from plugin_dist import NOT_IMPORTED
from plugin_dist import install_plugin
from plugin_dist import on_path

REPO = Path(__file__).resolve().parents[2]


def test_installed_tools_are_found_through_entry_points() -> None:
    registry = load_tools(Settings())
    assert {"sweeps", "plate"} <= set(registry.tools)
    sweeps = next(item for item in registry.installed if item.name == "sweeps")
    assert sweeps.enabled and sweeps.version


def test_only_the_configured_subset_is_enabled() -> None:
    registry = load_tools(Settings(enabled_tools=("sweeps",)))
    assert list(registry.tools) == ["sweeps"]
    plate = next(item for item in registry.installed if item.name == "plate")
    assert not plate.enabled and plate.problem is None


async def test_a_disabled_tool_has_no_paths_pages_or_openapi(make_app: Any) -> None:
    app = make_app(tools=["sweeps"])
    client = app.test_client()
    response = await client.post("/api/plate", json={})
    assert response.status_code == 404
    assert (await client.get("/new/plate")).status_code == 404
    document = await (await client.get("/openapi.json")).get_json()
    assert not [path for path in document["paths"] if path.startswith("/api/plate")]
    assert "/new/plate" not in await (await client.get("/")).get_data(as_text=True)


def plugin_returning(value: Any) -> types.SimpleNamespace:
    @hookimpl
    def groupkit_tool() -> Any:
        return value
    return types.SimpleNamespace(groupkit_tool=groupkit_tool, __name__="broken")


def test_a_plugin_that_raises_is_reported_and_skipped() -> None:
    @hookimpl
    def groupkit_tool() -> Tool:
        raise RuntimeError("kaboom")
    broken = types.SimpleNamespace(groupkit_tool=groupkit_tool, __name__="broken")
    registry = load_tools(Settings(), [broken, demo_plugin], entry_points=False)
    assert list(registry.tools) == ["demo"]
    report = next(item for item in registry.installed if item.name == "broken")
    assert not report.enabled and "kaboom" in (report.problem or "")


def test_invalid_declarations_are_refused_with_a_reason() -> None:
    good = demo_plugin.groupkit_tool()
    assert validate(good, "demo") is None
    assert validate("not a tool", None) == "groupkit_tool() did not return a groupkit.Tool"
    assert "invalid tool name" in (validate(dataclasses.replace(good, name="Bad Name"), None)
                                   or "")
    assert "invalid tool name" in (validate(dataclasses.replace(good, name="static"), None)
                                   or "")
    assert "declares tool" in (validate(good, "other") or "")
    assert "missing templates" in (validate(dataclasses.replace(good, templates=Path("/nope")),
                                            None) or "")
    registry = load_tools(Settings(), [plugin_returning(42)], entry_points=False)
    assert registry.tools == {}


def test_a_tool_provided_twice_is_refused() -> None:
    registry = load_tools(Settings(), [demo_plugin, plugin_returning(
        demo_plugin.groupkit_tool())], entry_points=False)
    assert list(registry.tools) == ["demo"]
    assert any("provided twice" in (item.problem or "") for item in registry.installed)


def test_a_plugin_for_another_plugin_api_is_refused_by_name_and_the_rest_still_serve(
        caplog: pytest.LogCaptureFixture) -> None:
    future = dataclasses.replace(demo_plugin.groupkit_tool(), name="future", plugin_api=(2, 3))
    with caplog.at_level(logging.ERROR, logger="groupkit.plugins"):
        registry = load_tools(Settings(), [demo_plugin, plugin_returning(future)],
                              entry_points=False)
    assert list(registry.tools) == ["demo"]
    report = next(item for item in registry.installed if item.name == "broken")
    expected = ("tool 'future' 9.9 supports groupkit plugin API 2 to 3, but this groupkit "
                "provides plugin API 1: install a release of the plugin made for API 1")
    assert report.problem == expected
    assert not report.enabled
    assert [(record.getMessage(), record.exc_info) for record in caplog.records] == [
        (f"tool plugin broken refused: {expected}", None)]


@pytest.mark.parametrize(("declared", "admitted"), [
    ((1, 1), True), ((0, 1), True), ((1, 4), True), ((0, 0), False), ((2, 2), False)])
def test_a_plugin_is_admitted_exactly_when_its_range_holds_the_kernels_version(
        declared: tuple[int, int], admitted: bool) -> None:
    tool = dataclasses.replace(demo_plugin.groupkit_tool(), plugin_api=declared)
    assert (validate(tool, "demo") is None) is admitted
    assert PLUGIN_API_VERSION == 1


@pytest.mark.parametrize("declared", [1, (1,), (1, 1, 1), (2, 1), ("1", "1"), (1.0, 1.0),
                                      (True, True), None])
def test_a_malformed_plugin_api_is_refused_with_the_expected_form(declared: Any) -> None:
    tool = dataclasses.replace(demo_plugin.groupkit_tool(), plugin_api=declared)
    assert validate(tool, "demo") == (
        f"tool 'demo' 9.9 declares plugin_api={declared!r}: it must be (oldest, newest) "
        "supported plugin API versions, e.g. plugin_api=(1, 1)")


def test_a_declaration_without_plugin_api_is_refused_in_one_line_without_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    @hookimpl
    def groupkit_tool() -> Tool:
        fields = {field.name: getattr(demo_plugin.groupkit_tool(), field.name)
                  for field in dataclasses.fields(Tool) if field.name != "plugin_api"}
        return Tool(**fields)
    unversioned = types.SimpleNamespace(groupkit_tool=groupkit_tool, __name__="old")
    with caplog.at_level(logging.ERROR, logger="groupkit.plugins"):
        registry = load_tools(Settings(), [unversioned, demo_plugin], entry_points=False)
    assert list(registry.tools) == ["demo"]
    expected = ("its Tool declares no plugin_api: add the range of groupkit plugin API "
                "versions it supports, e.g. plugin_api=(1, 1), or plugin_api = [1, 1] in "
                "its tool.toml")
    report = next(item for item in registry.installed if item.name == "old")
    assert report.problem == expected and not report.enabled
    assert [(record.getMessage(), record.exc_info) for record in caplog.records] == [
        (f"tool plugin old refused: {expected}", None)]


@pytest.mark.parametrize(("requires", "kernel", "refused"), [
    (["groupkit>=2,<3"], "0.2.1", True),
    (["groupkit>=2,<3"], "2.0.0", False),
    (["Groupkit (>=0.1)"], "0.2.1", False),
    (["groupkit<0.2"], "0.2.1", True),
    (["groupkit>=0.3.0a1"], "0.3.0a1", False),  # a pre-release kernel counts as its version
    (['groupkit>=2; extra == "test"', "groupkit-testing>=9"], "0.2.1", False),
    (["groupkit-testing>=2"], "0.2.1", False),  # the kit is not the kernel
    ([], "0.2.1", False),
])
def test_a_plugin_is_refused_exactly_when_the_kernel_is_outside_its_requires_dist(
        tmp_path: Path, requires: list[str], kernel: str, refused: bool) -> None:
    install_plugin(tmp_path, "karaoke", NOT_IMPORTED, requires)
    dist = importlib.metadata.PathDistribution(tmp_path / "groupkit_karaoke-0.1.0.dist-info")
    problem = kernel_range_problem(dist, kernel)
    assert (problem is not None) is refused
    if problem:
        assert problem.startswith("groupkit-karaoke 0.1.0 requires groupkit")
        assert problem.endswith(f"but this is groupkit {kernel}: install a release of the "
                                f"plugin made for groupkit {kernel}")


def test_a_plugin_installed_without_its_kernel_range_is_refused_before_it_is_imported(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`pip install --no-deps` (or a kernel upgraded under the plugin) skips pip's check."""
    install_plugin(tmp_path, "karaoke", NOT_IMPORTED, ["groupkit<3,>=2"])
    named = Settings(enabled_tools=("karaoke", "plate"))
    with on_path(tmp_path), caplog.at_level(logging.ERROR, logger="groupkit.plugins"):
        registry = load_tools(Settings())
        quiet = load_tools(named, quiet=True)
    kernel = importlib.metadata.version("groupkit")
    expected = (f"groupkit-karaoke 0.1.0 requires groupkit<3,>=2, but this is groupkit "
                f"{kernel}: install a release of the plugin made for groupkit {kernel}")
    report = next(item for item in registry.installed if item.name == "karaoke")
    assert report.problem == expected and not report.enabled
    assert "karaoke" not in registry.tools and {"plate", "sweeps"} <= set(registry.tools)
    assert [record.getMessage() for record in caplog.records] == [
        f"tool plugin karaoke refused: {expected}"]  # once: quiet leaves it to the caller
    assert tool_problems(Settings(), registry) == [("tools.enabled", (
        f"tool plugin 'karaoke' is refused: {expected} (or uninstall it, or list only the "
        f"tools to serve in tools.enabled)"))]
    assert tool_problems(named, quiet) == [("tools.enabled", (
        f"tool plugin 'karaoke' is refused: {expected} (or leave it out of tools.enabled)"))]


def test_an_enabled_tool_that_is_not_installed_is_a_problem() -> None:
    settings = Settings(enabled_tools=("plate", "karaoke"))
    problems = tool_problems(settings, load_tools(settings))
    assert len(problems) == 1
    key, message = problems[0]
    assert key == "tools.enabled" and message.startswith(
        "tools.enabled names 'karaoke', which is not installed (installed: ")
    assert tool_problems(Settings(), load_tools(Settings())) == []


#: The calls that declare a tool.
DECLARING = ("Tool", "Tool.from_module", "Tool.hook")


@pytest.mark.parametrize("source", sorted(
    [*REPO.glob("plugins/*/src/*/__init__.py"), *REPO.glob("contrib/*/src/*/__init__.py")]),
    ids=lambda path: path.parent.name)
def test_every_plugin_declares_its_range_as_literals(source: Path) -> None:
    """Read from the kernel's own constant, the check could never fire."""
    declared = [keyword.value for node in ast.walk(ast.parse(source.read_text("utf-8")))
                if isinstance(node, ast.Call) and ast.unparse(node.func) in DECLARING
                for keyword in node.keywords if keyword.arg == "plugin_api"]
    toml = source.with_name("tool.toml")
    if toml.exists() and "plugin_api" in tomllib.loads(toml.read_text("utf-8")):
        # TOML holds only literals: the range cannot be read from the running kernel.
        assert declared == [], source
        low, high = tomllib.loads(toml.read_text("utf-8"))["plugin_api"]
    else:
        assert len(declared) == 1, source
        assert isinstance(declared[0], ast.Tuple), ast.unparse(declared[0])
        low, high = (ast.literal_eval(item) for item in declared[0].elts)
    assert low <= PLUGIN_API_VERSION <= high


async def test_the_server_starts_without_a_refused_plugin(make_app: Any) -> None:
    @hookimpl
    def groupkit_tool() -> Tool:
        raise ImportError("needs a module this host lacks")
    broken = types.SimpleNamespace(groupkit_tool=groupkit_tool, __name__="broken")
    app = make_app(tools=["demo"], extra_plugins=[broken, demo_plugin], entry_points=False)
    client = app.test_client()
    assert (await client.get("/")).status_code == 200
    assert (await client.post("/api/demo", json={"title": "T", "names": ["A"]})).status_code \
        == 201
    assert (await client.post("/api/broken", json={})).status_code == 404


PLUGIN_ROOTS = sorted(path for path in [*REPO.glob("plugins/*"), *REPO.glob("contrib/*")]
                      if (path / "pyproject.toml").is_file())
#: The public surface: `groupkit`, its public submodules and the kit (its own distribution).
ALLOWED_KERNEL_MODULES = {"groupkit", "groupkit.signups", "groupkit.entries",
                          "groupkit.integrations", "groupkit.hookspecs", "groupkit_testing",
                          "groupkit_testing.allstates"}


def imported_modules(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("root", PLUGIN_ROOTS, ids=lambda path: path.name)
def test_a_plugin_and_its_tests_import_only_the_public_kernel(root: Path) -> None:
    """`groupkit.__all__`, its public submodules and the documented `groupkit_testing` are
    the contract; anything
    else is private and may change without notice, and a plugin never imports another."""
    own = {path.name for path in root.glob("src/groupkit_*")}
    assert own, root
    wrong = {
        f"{source.relative_to(REPO)}: {name}"
        for source in root.rglob("*.py") if ".venv" not in source.parts
        for name in imported_modules(source)
        if (name.split(".")[0] in ("groupkit", "groupkit_testing")
            and name not in ALLOWED_KERNEL_MODULES)
        or (name.startswith("groupkit_") and name.split(".")[0] not in own
            and name.split(".")[0] != "groupkit_testing")}
    assert not wrong, sorted(wrong)


def test_the_import_check_sees_a_private_import(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text("import groupkit.core._storage\nfrom groupkit_testing import create\n"
                      "from groupkit_plate import api\n")
    assert imported_modules(source) == {"groupkit.core._storage", "groupkit_testing",
                                        "groupkit_plate"}
