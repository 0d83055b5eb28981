"""The reference covers every public name: each name in the `__all__` of a public module has
an entry in the built site's inventory (`objects.inv`, which mkdocstrings writes for every
object it renders from the `::: module` blocks of docs/reference/).

    uv run python docs/check_reference.py [build/docs/objects.inv]

Run by `uv run nox -s docs` after `mkdocs build`. Exits 1 listing every name without an
entry. The inventory is a Sphinx inventory (version 2): four header lines, then
zlib-compressed lines `name domain:role priority uri display-name`.
"""

from __future__ import annotations

import importlib
import re
import sys
import zlib
from pathlib import Path

#: The modules a plugin (or its tests) may import, each with a page in docs/reference/.
PUBLIC_MODULES = (
    "groupkit",
    "groupkit.signups",
    "groupkit.entries",
    "groupkit.integrations",
    "groupkit.hookspecs",
    "groupkit_testing",
    "groupkit_testing.allstates",
)
DEFAULT_INVENTORY = Path(__file__).resolve().parents[1] / "build" / "docs" / "objects.inv"
LINE = re.compile(r"(?P<name>\S+)\s+(?P<domain>[^\s:]+):(?P<role>\S+)\s+(?P<priority>-?\d+)"
                  r"\s+(?P<uri>\S*)\s+(?P<display>.*)")


def inventory(path: Path) -> dict[str, int]:
    """The Python objects of a Sphinx inventory, by name, with their priority (1: rendered
    under that name; 2: another name of an object rendered elsewhere)."""
    data = path.read_bytes()
    header = b"# The remainder of this file is compressed using zlib.\n"
    if not data.startswith(b"# Sphinx inventory version 2\n") or header not in data:
        raise SystemExit(f"{path}: not a Sphinx inventory (version 2)")
    body = zlib.decompress(data.split(header, 1)[1]).decode("utf-8")
    found: dict[str, int] = {}
    for line in body.splitlines():
        entry = LINE.fullmatch(line.strip())
        if entry and entry["domain"] == "py":
            priority = int(entry["priority"])
            found[entry["name"]] = min(priority, found.get(entry["name"], priority))
    return found


def public_names(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        raise SystemExit(f"{module_name} has no __all__: its public names are not declared")
    return list(names)


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT_INVENTORY
    if not path.is_file():
        print(f"{path} is missing: build the docs first (uv run mkdocs build)", file=sys.stderr)
        return 1
    rendered = {name for name, priority in inventory(path).items() if priority == 1}
    missing: list[str] = []
    count = 0
    for module in PUBLIC_MODULES:
        for name in public_names(module):
            count += 1
            if f"{module}.{name}" not in rendered:
                missing.append(f"{module}.{name}")
    if missing:
        print(f"{len(missing)} public names have no entry in the reference ({path}):",
              file=sys.stderr)
        for name in missing:
            print(f"  {name}", file=sys.stderr)
        print("Add a `::: module` block (or the name to the module's block) in "
              "docs/reference/.", file=sys.stderr)
        return 1
    print(f"the reference covers every public name: {count} names of "
          f"{len(PUBLIC_MODULES)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
