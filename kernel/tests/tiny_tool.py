"""A tool of one list in `data` and the given operations, for kernel tests that need a
plugin of their own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from groupkit import Operations
from groupkit import Schema
from groupkit import Tool
from groupkit import hookimpl


class _Empty(Schema):
    """No create fields."""


def tiny_plugin(name: str, ops: Operations, templates: Path, data: dict[str, Any]) -> object:
    """A plugin whose tool `name` starts each instance with a copy of `data`, and whose
    pages print the view."""
    (templates / name).mkdir(parents=True, exist_ok=True)
    for page in ("create", "public", "organiser"):
        (templates / name / f"{page}.html").write_text(
            '{% extends "groupkit/base.html" %}{% block content %}{{ view }}{% endblock %}')

    def groupkit_tool() -> Tool:
        return Tool(name=name, title=name.title(), version="1", create_schema=_Empty,
                    create=lambda instance, _: setattr(instance, "data", dict(data)),
                    public_view=lambda instance: dict(instance.data),
                    organiser_view=lambda instance: dict(instance.data), operations=ops,
                    templates=templates, plugin_api=(1, 1))

    return type(f"{name.title()}Plugin", (),
                {"groupkit_tool": staticmethod(hookimpl(groupkit_tool))})
