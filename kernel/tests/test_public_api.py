"""The surface a plugin may import is exactly `groupkit.__all__`."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import groupkit


def test_all_is_the_public_surface() -> None:
    exported = set(groupkit.__all__)
    assert len(exported) == len(groupkit.__all__)
    for name in exported:
        assert hasattr(groupkit, name), name
    public = {name for name in vars(groupkit) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(groupkit, name)).__name__ == "module"}
    assert public - modules - {"annotations"} == exported - {"__version__"}


@pytest.mark.parametrize("module", ["groupkit.signups", "groupkit.entries",
                                    "groupkit.integrations", "groupkit.hookspecs",
                                    "groupkit_testing", "groupkit_testing.allstates"])
def test_each_public_submodule_says_what_it_exports(module: str) -> None:
    loaded = importlib.import_module(module)
    assert len(set(loaded.__all__)) == len(loaded.__all__)
    assert all(hasattr(loaded, name) for name in loaded.__all__)


@pytest.mark.parametrize("module", ["groupkit.signups", "groupkit.entries",
                                    "groupkit.integrations"])
def test_a_building_block_module_holds_its_surface_and_nothing_else(module: str) -> None:
    """Re-exports only: every name it holds (but `annotations`) is in `__all__`."""
    loaded = importlib.import_module(module)
    public = {name for name in vars(loaded) if not name.startswith("_")} - {"annotations"}
    assert public == set(loaded.__all__)


def public_testing_names() -> list[str]:
    import groupkit_testing as kit

    return [name for name in kit.__all__ if callable(getattr(kit, name))]


def test_every_public_name_says_why_it_exists() -> None:
    """As Datasette's hook tests do: an undocumented name is not part of a contract."""
    undocumented = [name for name in groupkit.__all__
                    if callable(getattr(groupkit, name))
                    and len((getattr(groupkit, name).__doc__ or "").strip()) < 20]
    assert not undocumented
    # A dataclass without a docstring gets its signature as one: that says nothing of why.
    signature_only = [name for name in groupkit.__all__
                      if (getattr(groupkit, name).__doc__ or "").startswith(f"{name}(")]
    assert not signature_only


def test_every_public_name_is_in_the_plugin_docs() -> None:
    """The reference (docs/reference/, a page per public module) names every public name:
    `groupkit`'s, the building blocks' (`groupkit.signups`, `.entries`, `.integrations`) and
    the kit's."""
    reference = Path(__file__).parents[2] / "docs" / "reference"
    docs = "\n\n".join(page.read_text("utf-8") for page in sorted(reference.glob("*.md")))
    blocks = [name for module in ("groupkit.signups", "groupkit.entries", "groupkit.integrations")
              for name in importlib.import_module(module).__all__]
    missing = [name for name in [*groupkit.__all__, *blocks, *public_testing_names()]
               if not re.search(rf"`[^`]*\b{re.escape(name)}\b", docs)]
    assert not missing


def test_the_kit_documents_its_helpers() -> None:
    import groupkit_testing as kit

    assert {"create", "edit", "run_command", "prune_now", "rerun_migrations"} <= set(
        public_testing_names())
    undocumented = [name for name in public_testing_names()
                    if len((getattr(kit, name).__doc__ or "").strip()) < 20]
    assert not undocumented
