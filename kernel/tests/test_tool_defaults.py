"""What a `Tool` finds by itself: its templates, static folder and version from the plugin's
package, and (with `Tool.from_module` / `Tool.hook`) its callables from the api module."""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from groupkit import Edit
from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit.core._config import Settings
from groupkit.core._tool import store_changes
from groupkit.ops._plugins import load_tools
from groupkit.ops._plugins import validate

API = '''
from groupkit import Edit, Operations

ops = Operations()
EDIT = Edit(["title"])


def create(instance, data):
    instance.data = {}


def public_view(instance):
    return {"side": "public"}


def organiser_view(instance):
    return {"side": "organiser"}


def preview(instance):
    return {"title": "made by the module", "description": ""}
'''


@pytest.fixture
def make_package(tmp_path: Path) -> Iterator[Any]:
    """Writes an importable package `name` (its `api` module, and the folders asked for) on
    a fresh path entry, optionally with the dist-info of an installed distribution."""
    made: list[str] = []
    sys.path.insert(0, str(tmp_path))

    def make(name: str, folders: tuple[str, ...] = ("templates",), api: str = API,
             dist_version: str | None = None, toml: str | None = None) -> Any:
        package = tmp_path / name
        package.mkdir()
        (package / "__init__.py").write_text("")
        (package / "api.py").write_text(api)
        if toml is not None:
            (package / "tool.toml").write_text(toml, encoding="utf-8")
        for folder in folders:
            (package / folder / "demo").mkdir(parents=True)
            if folder == "templates":
                for page in ("create", "public", "organiser"):
                    (package / folder / "demo" / f"{page}.html").write_text("page")
        if dist_version is not None:
            info = tmp_path / f"{name}-{dist_version}.dist-info"
            info.mkdir()
            (info / "METADATA").write_text(
                f"Metadata-Version: 2.1\nName: {name}\nVersion: {dist_version}\n")
            (info / "top_level.txt").write_text(f"{name}\n")
        importlib.invalidate_caches()
        made.append(name)
        return importlib.import_module(f"{name}.api")

    yield make
    sys.path.remove(str(tmp_path))
    for name in made:
        for module in [key for key in sys.modules if key.split(".")[0] == name]:
            del sys.modules[module]


def declare(api: Any, **fields: Any) -> Tool:
    return Tool(name="demo", title="Demo", create_schema=Schema, create=api.create,
                public_view=api.public_view, organiser_view=api.organiser_view,
                plugin_api=(1, 1), **fields)


def test_templates_and_static_are_found_in_the_package_that_defines_create(
        make_package: Any) -> None:
    api = make_package("gkt_found", folders=("templates", "static"))
    tool = declare(api)
    folder = Path(api.__file__).parent
    assert tool.templates == folder / "templates" and tool.static == folder / "static"
    assert validate(tool, "demo") is None


def test_without_a_static_folder_nothing_is_served(make_package: Any) -> None:
    tool = declare(make_package("gkt_nostatic"))
    assert tool.static is None and tool.templates is not None


def test_declared_folders_win(make_package: Any, tmp_path: Path) -> None:
    api = make_package("gkt_declared", folders=("templates", "static"))
    tool = declare(api, templates=tmp_path / "elsewhere", static=tmp_path / "assets")
    assert (tool.templates, tool.static) == (tmp_path / "elsewhere", tmp_path / "assets")


def test_a_package_without_templates_is_refused_by_name(make_package: Any) -> None:
    tool = declare(make_package("gkt_bare", folders=()))
    assert tool.templates is None
    assert "no templates folder" in (validate(tool, "demo") or "")


def test_the_kernel_never_lends_its_own_templates() -> None:
    """A create function of the kernel's own does not make its templates the tool's."""
    tool = Tool(name="demo", title="Demo", create_schema=Schema, create=store_changes,
                public_view=dict, organiser_view=dict, plugin_api=(1, 1))
    assert tool.templates is None


def test_the_version_is_the_installed_distribution_s(make_package: Any) -> None:
    assert declare(make_package("gkt_installed", dist_version="2.5.1")).version == "2.5.1"
    assert declare(make_package("gkt_loose")).version == "unknown"
    assert declare(make_package("gkt_pinned"), version="9").version == "9"


def test_an_installed_plugin_reports_its_distribution_s_version() -> None:
    registry = load_tools(Settings(enabled_tools=("sweeps",)))
    assert registry.tools["sweeps"].version == importlib.metadata.version("groupkit-sweeps")


def test_from_module_takes_the_callables_by_their_usual_names(make_package: Any) -> None:
    api = make_package("gkt_module")
    tool = Tool.from_module(api, name="demo", title="Demo", create_schema=Schema,
                            plugin_api=(1, 1))
    assert (tool.create, tool.public_view, tool.organiser_view) == (
        api.create, api.public_view, api.organiser_view)
    assert tool.operations is api.ops and tool.edit is api.EDIT and tool.preview is api.preview
    assert tool.participant_view is None and tool.export is None  # not in the module
    explicit = Tool.from_module(api, name="demo", title="Demo", create_schema=Schema,
                                plugin_api=(1, 1), organiser_view=api.public_view, edit=None)
    assert explicit.organiser_view is api.public_view and explicit.edit is None


def test_from_module_refuses_a_name_bound_to_the_wrong_kind(make_package: Any) -> None:
    api = make_package("gkt_wrong", api=API.replace("ops = Operations()", "ops = []"))
    with pytest.raises(TypeError, match=r"gkt_wrong\.api\.ops is not an Operations"):
        Tool.from_module(api, name="demo", title="Demo", create_schema=Schema,
                         plugin_api=(1, 1))
    assert isinstance(api.EDIT, Edit) and not isinstance(api.ops, Operations)


def test_hook_is_the_plugin_s_hook_implementation(make_package: Any) -> None:
    api = make_package("gkt_hook")
    plugin = sys.modules["gkt_hook"]
    plugin.groupkit_tool = Tool.hook(  # type: ignore[attr-defined]
        api, name="demo", title="Demo", create_schema=Schema, plugin_api=(1, 1))
    registry = load_tools(Settings(), [plugin], entry_points=False)
    assert list(registry.tools) == ["demo"]
    assert registry.tools["demo"].preview is api.preview


def test_a_faulty_hook_declaration_is_reported_when_called(make_package: Any) -> None:
    api = make_package("gkt_faulty", api=API.replace("ops = Operations()", "ops = 42"))
    plugin = sys.modules["gkt_faulty"]
    plugin.groupkit_tool = Tool.hook(  # type: ignore[attr-defined]
        api, name="demo", title="Demo", create_schema=Schema, plugin_api=(1, 1))
    registry = load_tools(Settings(), [plugin], entry_points=False)
    assert registry.tools == {}
    assert "is not an Operations" in (registry.installed[0].problem or "")


# --- tool.toml ---------------------------------------------------------------------------

TOML = '''
name = "demo"
title = "Demo"
icon = "🎤"
group = "events"
plugin_api = [1, 1]
not_found = "No such demo."
summary = "One line."
description = """
Notes \\
on two lines."""

[example]
title = "Friday"
names = ["Ann", "Bo"]
'''


def load_with(make_package: Any, name: str, toml: str, **fields: Any) -> Any:
    api = make_package(name, toml=toml)
    plugin = sys.modules[name]
    plugin.groupkit_tool = Tool.hook(api, create_schema=Schema, **fields)
    return load_tools(Settings(), [plugin], entry_points=False)


def test_the_catalogue_facts_come_from_tool_toml(make_package: Any) -> None:
    registry = load_with(make_package, "gkt_toml", TOML)
    tool = registry.tools["demo"]
    assert (tool.name, tool.title, tool.icon, tool.group, tool.plugin_api, tool.not_found,
            tool.summary) == ("demo", "Demo", "🎤", "events", (1, 1), "No such demo.",
                              "One line.")
    assert tool.description == "Notes on two lines."
    assert tool.example == {"title": "Friday", "names": ["Ann", "Bo"]}


def test_a_package_without_tool_toml_declares_everything_in_python(
        make_package: Any) -> None:
    api = make_package("gkt_plain")
    tool = Tool.from_module(api, name="demo", title="Demo", create_schema=Schema,
                            plugin_api=(1, 1))
    assert (tool.name, tool.summary, tool.example) == ("demo", "", {})


@pytest.mark.parametrize(("toml", "fields", "problem"), [
    ("colour = \"red\"\n" + TOML, {},
     "gkt_bad/tool.toml: 'colour' is not a field tool.toml may declare (it may declare "
     "name, title, plugin_api, summary, description, group, icon, not_found, example)"),
    (TOML.replace('icon = "🎤"', "icon = 3"), {},
     "gkt_bad/tool.toml: 'icon' must be a TOML string, not int"),
    (TOML.replace("[example]", "example = 1\n[other]"), {},
     "gkt_bad/tool.toml: 'example' must be a TOML table, not int"),
    (TOML.replace("plugin_api = [1, 1]", "plugin_api = [1]"), {},
     "gkt_bad/tool.toml: 'plugin_api' must be two whole numbers, [oldest, newest], "
     "e.g. [1, 1]"),
    (TOML.replace("plugin_api = [1, 1]", "plugin_api = [1, \"1\"]"), {},
     "gkt_bad/tool.toml: 'plugin_api' must be two whole numbers, [oldest, newest], "
     "e.g. [1, 1]"),
    (TOML, {"title": "Also here"},
     "gkt_bad/tool.toml: title also given in Python; declare each field once"),
    ('name = "demo"\n', {"plugin_api": (1, 1)},
     "gkt_bad.api: the declaration has no title: give it in Python or in "
     "gkt_bad/tool.toml"),
])
def test_a_faulty_tool_toml_is_refused_in_one_line_naming_the_key(
        make_package: Any, caplog: pytest.LogCaptureFixture, toml: str,
        fields: dict[str, Any], problem: str) -> None:
    with caplog.at_level(logging.ERROR, logger="groupkit.plugins"):
        registry = load_with(make_package, "gkt_bad", toml, **fields)
    assert registry.tools == {}
    assert registry.installed[0].problem == problem
    assert [(record.getMessage(), record.exc_info) for record in caplog.records] == [
        (f"tool plugin gkt_bad refused: {problem}", None)]


def test_tool_toml_that_is_not_toml_is_refused_naming_the_file(
        make_package: Any, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="groupkit.plugins"):
        registry = load_with(make_package, "gkt_broken", 'name = "demo\n')
    problem = registry.installed[0].problem or ""
    assert problem.startswith("gkt_broken/tool.toml is not valid TOML: ")
    assert [record.exc_info for record in caplog.records] == [None]


def test_a_declaration_without_plugin_api_anywhere_is_refused_as_unversioned(
        make_package: Any) -> None:
    registry = load_with(make_package, "gkt_unversioned", 'name = "demo"\ntitle = "Demo"\n')
    assert "declares no plugin_api" in (registry.installed[0].problem or "")
    assert "plugin_api = [1, 1] in its tool.toml" in (registry.installed[0].problem or "")


def test_an_operation_s_summary_and_description_come_from_its_docstring() -> None:
    ops = Operations()

    @ops.public("claim")
    def claim(call: Any) -> dict[str, Any]:
        """Claim a spot.

        The first come is served:
        the rest get 409.
        """
        return {}

    @ops.public("other", summary="Given", description="Also given")
    def other(call: Any) -> dict[str, Any]:
        """Not this.

        Nor this.
        """
        return {}

    @ops.public("bare")
    def bare(call: Any) -> dict[str, Any]:
        return {}

    found = {op.path: (op.summary, op.description) for op in ops.operations}
    assert found == {"claim": ("Claim a spot.", "The first come is served: the rest get 409."),
                     "other": ("Given", "Also given"), "bare": ("", "")}


def test_the_tool_s_own_stylesheet_and_script_are_found_in_its_static_folder(
        make_package: Any) -> None:
    api = make_package("gkt_assets", folders=("templates", "static"))
    static = Path(api.__file__).parent / "static"
    (static / "demo.css").write_text("main {}")
    tool = declare(api)
    assert (tool.stylesheet, tool.script) == ("/static/demo/demo.css", "")
    (static / "demo.js").write_text("")
    assert declare(api).script == "/static/demo/demo.js"
    assert declare(make_package("gkt_bare2")).stylesheet == ""

