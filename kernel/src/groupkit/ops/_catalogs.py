"""Babel's extractor for a plugin's `tool.toml`: the words a tool is introduced with (its
title, summary and description, and its not-found message) are the plugin's to translate,
like the words of its templates, so `nox -s i18n` extracts them into the plugin's own
catalog (registered under the `babel.extractors` entry point `groupkit_tool_toml`)."""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from collections.abc import Iterator
from collections.abc import Mapping
from typing import IO
from typing import Any

__all__ = ["TRANSLATED", "extract_tool_toml"]

#: The `tool.toml` fields people read: title, summary, description, not_found.
TRANSLATED = ("title", "summary", "description", "not_found")


def extract_tool_toml(fileobj: IO[bytes], keywords: Mapping[str, Any],
                      comment_tags: Collection[str], options: Mapping[str, Any]
                      ) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """(line, None, text, []) for each translated field of a `tool.toml` (a file that is
    not TOML yields nothing: the kernel refuses it at start-up, with its own message)."""
    raw = fileobj.read().decode("utf-8")
    try:
        data = tomllib.loads(raw)
    except tomllib.TOMLDecodeError:
        return
    lines = raw.splitlines()
    for field in TRANSLATED:
        text = data.get(field)
        if isinstance(text, str) and text.strip():
            line = next((number for number, content in enumerate(lines, 1)
                         if content.replace(" ", "").startswith(f"{field}=")), 1)
            yield line, None, text.strip(), []
