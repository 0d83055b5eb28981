"""Meta-tests on the plugin contract, after Datasette's: every hook is documented, tested,
and described in the plugin docs."""

from __future__ import annotations

import inspect
from pathlib import Path

from groupkit import hookspecs

TESTS = Path(__file__).parent
REPO = TESTS.parents[1]


def hook_names() -> list[str]:
    return [name for name, value in vars(hookspecs).items()
            if name.startswith("groupkit_") and inspect.isfunction(value)]


def test_there_are_hooks() -> None:
    assert hook_names() == ["groupkit_tool"]


def test_every_hook_has_a_docstring() -> None:
    for name in hook_names():
        doc = inspect.getdoc(getattr(hookspecs, name)) or ""
        assert len(doc) > 80, name


def test_every_hook_is_used_by_the_test_plugin() -> None:
    source = (TESTS / "demo_plugin" / "__init__.py").read_text()
    for name in hook_names():
        assert f"def {name}(" in source


def test_every_hook_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text()
    for name in hook_names():
        assert name in readme


def test_the_plugin_docs_cover_every_hook_tool_field_and_public_name() -> None:
    """The plugin docs (the tutorial, the how-to guides and the reference) are checked
    against the code they describe, so they cannot fall behind."""
    import dataclasses
    import re

    import groupkit

    pages = [REPO / "docs" / "tutorial.md", *sorted((REPO / "docs" / "how-to").glob("*.md")),
             *sorted((REPO / "docs" / "reference").glob("*.md"))]
    docs = "\n\n".join(page.read_text("utf-8") for page in pages)
    for name in hook_names():
        assert re.search(rf"^#+ `{name}\(", docs, re.MULTILINE), name
    for field in dataclasses.fields(groupkit.Tool):
        assert f"| `{field.name}` |" in docs, field.name
    for name in groupkit.__all__:  # a bare name or a call (test_plugin_docs checks which)
        assert f"`{name}`" in docs or f"`{name}(" in docs, name
