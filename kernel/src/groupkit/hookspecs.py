"""The plugin contract: every hook a groupkit tool plugin can implement.

A plugin is a module (or object) registered through the entry-point group `groupkit.tools`;
the entry point's name is the tool's url name. Implement hooks with `groupkit.hookimpl`:

    from groupkit import Tool, hookimpl

    @hookimpl
    def groupkit_tool() -> Tool:
        return Tool(name="sweeps", ...)

or, with the callables of the plugin's api module found by their usual names, in one line
`groupkit_tool = Tool.hook(api, name="sweeps", ...)` (see `Tool.from_module`).

The kernel owns everything common (create endpoint, credentials, resolution and the one
404, delete, export, rate limits, page headers, OpenAPI). A plugin declares what is its own
and nothing else; it imports only from `groupkit` and never from another plugin.

Hooks are synchronous: pluggy has no asyncio, and the kernel calls each one once at start-up.
"""

from __future__ import annotations

import pluggy

from groupkit.core._tool import Tool
from groupkit.core._tool import hookimpl

#: The version of this contract (the hooks plus `groupkit.__all__`). A plugin states the
#: versions it supports as literals, `Tool(plugin_api=(1, 1))`; a plugin whose range leaves
#: this version out is refused at start-up with a message naming it, and the other tools
#: still load. It changes only when a plugin written for the previous version could break;
#: docs/how-to/plugin-versions.md lists what changed in each version.
PLUGIN_API_VERSION = 1

hookspec = pluggy.HookspecMarker("groupkit")

__all__ = ["PLUGIN_API_VERSION", "groupkit_tool", "hookimpl", "hookspec"]


@hookspec
def groupkit_tool() -> Tool:  # type: ignore[empty-body]
    """Declare the tool this plugin provides.

    Return one `groupkit.Tool`: url name, title, version, create schema and create
    function, public / organiser / participant views (the pages and the JSON reads render
    from them, so they cannot drift), operations, models and migrations, templates, static
    files and capacity limits. See `groupkit.Tool` for each field.

    Called once per application at start-up, only for enabled tools. A plugin whose hook
    raises, or whose declaration fails validation, is reported (`groupkit tools`) and
    skipped; the others still load.
    """
