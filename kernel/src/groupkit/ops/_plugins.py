"""Finding tool plugins, validating their declarations and choosing the enabled subset."""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import logging
import re
from collections.abc import Iterable
from typing import Any

import pluggy
from packaging.requirements import InvalidRequirement
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from groupkit import hookspecs
from groupkit.blocks import _email as email
from groupkit.blocks import _language as group_language
from groupkit.blocks import _reminders as reminders
from groupkit.core._config import Settings
from groupkit.core._tool import ENTRY_POINT_GROUP
from groupkit.core._tool import DeclarationError
from groupkit.core._tool import Tool

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]{1,29}$")
RESERVED_NAMES = frozenset({"static", "openapi", "docs", "healthz", "api", "new"})
REQUIRED_TEMPLATES = ("create.html", "public.html", "organiser.html")

MISSING_API = (f"its Tool declares no plugin_api: add the range of groupkit plugin API "
               f"versions it supports, e.g. plugin_api=({hookspecs.PLUGIN_API_VERSION}, "
               f"{hookspecs.PLUGIN_API_VERSION}), or plugin_api = "
               f"[{hookspecs.PLUGIN_API_VERSION}, {hookspecs.PLUGIN_API_VERSION}] in its tool.toml")

log = logging.getLogger("groupkit.plugins")


@dataclasses.dataclass
class Installed:
    """One plugin as `groupkit tools` reports it."""

    name: str
    version: str
    enabled: bool
    tool: Tool | None = None
    problem: str | None = None


@dataclasses.dataclass
class Registry:
    tools: dict[str, Tool]
    installed: list[Installed]
    manager: pluggy.PluginManager


def make_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager("groupkit")
    manager.add_hookspecs(hookspecs)
    return manager


def validate(tool: Any, expected_name: str | None) -> str | None:
    """The reason a declaration cannot be served, or None."""
    if not isinstance(tool, Tool):
        return "groupkit_tool() did not return a groupkit.Tool"
    problem = api_problem(tool)
    if problem:
        return problem
    if not NAME_PATTERN.match(tool.name) or tool.name in RESERVED_NAMES:
        return f"invalid tool name {tool.name!r}"
    if expected_name is not None and tool.name != expected_name:
        return f"entry point {expected_name!r} declares tool {tool.name!r}"
    if tool.templates is None:
        return ("no templates folder: none in the package that defines create(); "
                "declare templates=")
    missing = [t for t in REQUIRED_TEMPLATES if not (tool.templates / tool.name / t).is_file()]
    private_page = tool.templates / tool.name / "participant.html"
    if tool.participant_view is not None and not private_page.is_file():
        missing.append("participant.html")
    if missing:
        return f"missing templates: {', '.join(missing)}"
    return None


def api_problem(tool: Tool) -> str | None:
    """Why this kernel's plugin API version is outside the range the tool declares, or None."""
    declared, provided = tool.plugin_api, hookspecs.PLUGIN_API_VERSION
    if not (isinstance(declared, tuple) and len(declared) == 2
            and all(type(part) is int for part in declared) and declared[0] <= declared[1]):
        return (f"tool {tool.name!r} {tool.version} declares plugin_api={declared!r}: it must "
                f"be (oldest, newest) supported plugin API versions, e.g. "
                f"plugin_api=({provided}, {provided})")
    if not declared[0] <= provided <= declared[1]:
        return (f"tool {tool.name!r} {tool.version} supports groupkit plugin API "
                f"{declared[0]} to {declared[1]}, but this groupkit provides plugin API "
                f"{provided}: install a release of the plugin made for API {provided}")
    return None


def _dist_version(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    return dist.version if dist is not None else "?"


def _kernel_version() -> str | None:
    try:
        return importlib.metadata.version("groupkit")
    except importlib.metadata.PackageNotFoundError:  # run from a bare source tree
        return None


def kernel_range_problem(dist: importlib.metadata.Distribution | None,
                         kernel_version: str | None) -> str | None:
    """Why this groupkit is outside the range the plugin's distribution requires of it
    (`Requires-Dist: groupkit>=2,<3`), or None. pip enforces the range, but not for a plugin
    installed with --no-deps, nor when the kernel is upgraded under an installed plugin."""
    if dist is None or kernel_version is None:
        return None
    for line in dist.requires or ():
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(requirement.name) != "groupkit":
            continue
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        if not requirement.specifier.contains(kernel_version, prereleases=True):
            return (f"{dist.metadata['Name']} {dist.version} requires "
                    f"groupkit{requirement.specifier}, but this is groupkit {kernel_version}: "
                    f"install a release of the plugin made for groupkit {kernel_version}")
    return None


@functools.cache
def _installed_entry_points() -> tuple[tuple[importlib.metadata.EntryPoint, str, str | None],
                                       ...]:
    """The tool entry points installed, each with its distribution's version and why that
    distribution does not fit this kernel (or None): read once per process (scanning every
    installed distribution's metadata cost more than the rest of building an app for one
    tool; installing a plugin needs a restart anyway)."""
    kernel = _kernel_version()
    return tuple((entry_point, _dist_version(entry_point),
                  kernel_range_problem(getattr(entry_point, "dist", None), kernel))
                 for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def _add_kernel_operations(tool: Tool) -> None:
    """The operations the kernel adds to what a tool declares: `invite` for `Tool.invite`,
    `remind` for a claim feed (its spots have a date), `language` for a tool that sends its
    group anything. Added as the tool is admitted, so
    every registry (the app's, the OpenAPI document's) has the same operations."""
    if tool.invite is not None:
        email.invite_operations(tool.operations, tool.invite, tool.title)
    if tool.feed is not None and tool.feed.claim is not None:
        reminders.remind_operations(tool.operations, tool.feed)
    if group_language.sends_to_group(tool):
        group_language.language_operations(tool.operations)


def load_tools(settings: Settings, extra_plugins: Iterable[object] = (),
               entry_points: bool = True, *, quiet: bool = False) -> Registry:
    """Load enabled entry points (and `extra_plugins`, used by tests), ask each for its
    declaration, and keep the valid ones. One broken plugin never stops the others here;
    `check` and `serve` refuse them all the same (`tool_problems`). `quiet` leaves the
    refusals to the caller, which reports them in its own words."""
    manager = make_manager()
    installed: list[Installed] = []
    tools: dict[str, Tool] = {}

    def refuse(name: str, version: str, problem: str, trace: bool = False) -> None:
        if trace and not quiet:  # a plugin's bug: where it happened
            log.exception("tool plugin %s %s", name, problem)
        elif not quiet:
            log.error("tool plugin %s refused: %s", name, problem)
        installed.append(Installed(name, version, False, problem=problem))

    def admit(plugin: object, expected: str | None, version: str) -> None:
        name = str(expected or getattr(plugin, "__name__", repr(plugin)))
        try:
            manager.register(plugin, name=f"groupkit-tool-{name}")
            declaration = plugin.groupkit_tool()  # type: ignore[attr-defined]
        except DeclarationError as exc:
            refuse(name, version, str(exc))
            return
        except Exception as exc:  # a plugin bug must not take the service down
            if isinstance(exc, TypeError) and "plugin_api" in str(exc):
                # A declaration without its version range: one clear line, no traceback.
                refuse(name, version, MISSING_API)
                return
            refuse(name, version, f"failed to load: {exc}", trace=True)
            return
        problem = validate(declaration, expected)
        if problem is None and declaration.name in tools:
            problem = f"tool {declaration.name!r} is provided twice"
        if problem:
            refuse(name, version, problem)
            return
        _add_kernel_operations(declaration)
        tools[declaration.name] = declaration
        installed.append(Installed(declaration.name, declaration.version, True, declaration))

    if entry_points:
        for entry_point, version, misfit in _installed_entry_points():
            if not settings.tool_enabled(entry_point.name):
                installed.append(Installed(entry_point.name, version, False))
                continue
            if misfit:  # made for another kernel: not even imported
                refuse(entry_point.name, version, misfit)
                continue
            try:
                plugin = entry_point.load()
            except Exception as exc:
                refuse(entry_point.name, version, f"failed to import: {exc}", trace=True)
                continue
            admit(plugin, entry_point.name, version)
    for plugin in extra_plugins:
        admit(plugin, None, "test")
    manager.check_pending()
    installed.sort(key=lambda item: item.name)
    return Registry(tools=dict(sorted(tools.items())), installed=installed, manager=manager)


def tool_problems(settings: Settings, registry: Registry) -> list[tuple[str, str]]:
    """(dotted key, message) for each reason the enabled tools cannot be served as
    configured: a name in tools.enabled that no installed plugin provides, and an enabled
    plugin that was refused. `groupkit check` prints them; `groupkit serve` refuses to start
    with the first (one code path, so whatever `check` passes `serve` starts with)."""
    available = sorted({item.name for item in registry.installed})
    problems = [("tools.enabled", f"tools.enabled names {name!r}, which is not installed "
                                  f"(installed: {', '.join(available)})")
                for name in settings.enabled_tools if name != "*" and name not in available]
    way_out = ("or uninstall it, or list only the tools to serve in tools.enabled"
               if "*" in settings.enabled_tools else "or leave it out of tools.enabled")
    for item in registry.installed:
        if item.problem:
            reason = (item.problem.strip().splitlines() or [""])[0]
            problems.append(("tools.enabled", f"tool plugin {item.name!r} is refused: "
                                              f"{reason} ({way_out})"))
    return problems
