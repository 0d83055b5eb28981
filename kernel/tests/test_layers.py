"""The kernel's shape stays visible: four layer subpackages, each saying in one paragraph
what belongs there and what it may import; a top package of the public surface only; and
import contracts (pyproject.toml, checked by `lint-imports` in `nox -s lint`) that name every
tool of the workspace, so a new plugin cannot slip past them."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

import groupkit

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(groupkit.__file__).parent
LAYERS = ("core", "web", "blocks", "ops")
#: The top package's modules: the public surface, the entry points, the deprecated aliases.
TOP = {"__init__", "__main__", "hookspecs", "asgi", "signups", "entries", "integrations",
       "testing", "allstates"}
CONTRACTS = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]


def test_the_top_package_holds_the_layers_and_the_public_surface_only() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")}
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert modules == TOP
    assert packages == set(LAYERS)
    assert len(modules) + len(packages) <= 20


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_says_what_it_holds_and_may_import(layer: str) -> None:
    doc = importlib.import_module(f"groupkit.{layer}").__doc__ or ""
    assert doc.strip() and "\n\n" not in doc.strip(), "one paragraph"
    assert "import" in doc, "what it may import"
    # Its modules are private: the public names are re-exported by the top package.
    assert all(path.stem.startswith("_") for path in (PACKAGE / layer).glob("*.py"))


def test_the_layers_contract_is_the_layers_in_the_tree() -> None:
    [layers] = [c for c in CONTRACTS["contracts"] if c["type"] == "layers"]
    assert layers["containers"] == ["groupkit"] and set(layers["layers"]) == set(LAYERS)


def tool_packages() -> set[str]:
    return {path.name for root in ("plugins/*/src", "contrib/example-plugin/src")
            for path in REPO.glob(f"{root}/groupkit_*")}


def test_the_contracts_name_every_tool_of_the_workspace() -> None:
    tools = tool_packages()
    assert len(tools) >= 22
    assert tools | {"groupkit", "groupkit_testing"} == set(CONTRACTS["root_packages"])
    for kind in ("independence", "forbidden"):
        named = [set(c.get("modules", c.get("source_modules", ()))) for c in CONTRACTS["contracts"]
                 if c["type"] == kind and c["id"].startswith("tools-")]
        assert named and all(names == tools for names in named), kind
