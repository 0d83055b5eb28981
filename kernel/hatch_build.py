"""Build hook: the plugin template (`contrib/plugin-template` in a checkout) goes into the
kernel's sdist as `plugin-template/` and into its wheel as `groupkit/plugin_template/`, where
`groupkit new-plugin` finds it. A static `force-include` of `../contrib/...` cannot work for
both: a wheel built from the sdist (as `uv build` does) no longer has the checkout around it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SKIPPED = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".venv"}


class PluginTemplateHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "editable":  # a checkout reads contrib/ directly (groupkit.ops._cli)
            return
        root = Path(self.root)
        checkout = root.parent / "contrib" / "plugin-template"
        source = checkout if checkout.is_dir() else root / "plugin-template"
        if not source.is_dir():
            raise FileNotFoundError(f"the plugin template is missing: {source}")
        target = "groupkit/plugin_template" if self.target_name == "wheel" else "plugin-template"
        for path in sorted(source.rglob("*")):
            relative = path.relative_to(source)
            if path.is_file() and not SKIPPED & set(relative.parts) and path.suffix != ".pyc":
                build_data["force_include"][str(path)] = f"{target}/{relative.as_posix()}"
